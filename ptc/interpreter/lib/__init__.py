"""The PTC-Lisp core library, one module per namespace/concern (they self-register)."""

from . import (  # noqa: F401
    core_numbers,
    core_predicates,
    core_strings,
    core_collections,
    core_sorted,
    core_sequences,
    core_random,
    core_functions,
    transducers,
    ptc_aggregates,
    string,
    set,
    regex,
    interop,
    clojure_math,
    methods,
    java_time,
    walk,
    exceptions,
    chart,
)
