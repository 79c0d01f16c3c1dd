"""The public names of Clojure 1.11's clojure.core that PTC-Lisp does not have, and why.

One table serves the analyzer (a program that uses one of these names gets an error saying
why, not "Unable to resolve symbol") and docs/deviations.md (generated from it; a test keeps
the table equal to Clojure's public names minus PTC-Lisp's builtins and special forms).
"""

from __future__ import annotations

from typing import NamedTuple


class Reason(NamedTuple):
    title: str
    why: str
    names: tuple[str, ...]


def _reason(title: str, why: str, names: str) -> Reason:
    return Reason(title, why, tuple(names.split()))


REASONS: tuple[Reason, ...] = (
    _reason("mutable state, concurrency and waiting",
            "programs are functions of their data and tool results, whose results do not depend on timing "
            "or threads (`while` needs mutation to end; `realized?` asks about delays and futures)",
            "add-watch agent agent-error agent-errors alter atom await await-for await1 clear-agent-errors commute "
            "compare-and-set! deliver delay delay? deref dosync ensure error-handler error-mode force future "
            "future-call future-cancel future-cancelled? future-done? future? get-validator io! locking pcalls pmap "
            "promise pvalues realized? ref ref-history-count ref-max-history ref-min-history ref-set "
            "release-pending-sends remove-watch reset! reset-vals! restart-agent send send-off send-via seque "
            "set-agent-send-executor! set-agent-send-off-executor! set-error-handler! set-error-mode! "
            "set-validator! shutdown-agents swap! swap-vals! sync volatile! volatile? vreset! vswap! while add-tap "
            "remove-tap tap>"),
    _reason("code as data at run time: macros, eval, reading, namespaces, vars and dynamic binding",
            "a program is one analyzed unit with no access to the compiler (the language is the sandbox); "
            "`def` makes plain names",
            "alias all-ns alter-var-root binding bound-fn bound-fn* bound? compile create-ns defmacro definline "
            "defonce destructure eval find-ns find-var gensym get-thread-bindings import in-ns intern load "
            "load-file load-reader load-string loaded-libs macroexpand macroexpand-1 munge namespace-munge "
            "ns-aliases ns-imports ns-interns ns-map ns-name ns-publics ns-refers ns-resolve ns-unalias ns-unmap "
            "pop-thread-bindings push-thread-bindings read read+string read-string refer refer-clojure remove-ns "
            "requiring-resolve resolve special-symbol? test the-ns thread-bound? unquote unquote-splicing "
            "use var-get var-set var? with-bindings with-bindings* with-local-vars with-redefs with-redefs-fn"),
    _reason("dynamic vars of the JVM runtime",
            "they configure a REPL, the compiler or Java I/O (`*1 *2 *3` exist when the host provides earlier "
            "results)",
            "*agent* *allow-unresolved-vars* *assert* *clojure-version* *command-line-args* *compile-files* "
            "*compile-path* *compiler-options* *data-readers* *default-data-reader-fn* *e *err* *file* "
            "*flush-on-newline* *fn-loader* *in* *math-context* *ns* *out* *print-dup* *print-length* "
            "*print-level* *print-meta* *print-namespace-maps* *print-readably* *read-eval* *reader-resolver* "
            "*source-path* *suppress-read* *unchecked-math* *use-context-classloader* *verbose-defrecords* "
            "*warn-on-reflection*"),
    _reason("metadata", "values carry no metadata", "alter-meta! meta reset-meta! vary-meta with-meta"),
    _reason("types, records, protocols, multimethods and hierarchies",
            "data is maps, vectors, sets and lists; dispatch on a key with `case` or `cond`",
            "accessor ancestors bases create-struct defmethod defmulti defprotocol defrecord defstruct deftype "
            "derive descendants extend extend-protocol extend-type extenders extends? find-protocol-impl "
            "find-protocol-method get-method isa? make-hierarchy method-sig methods parents prefer-method prefers "
            "record? reify remove-all-methods remove-method satisfies? struct struct-map supers underive "
            "-cache-protocol-fn -reset-methods"),
    _reason("Java interop, arrays, primitive types and host objects",
            "no host reflection (the sandbox); numbers are integers and floats (no ratios, BigDecimal or "
            "fixed-width types), errors are maps read with ex-message and ex-data",
            ".. aclone add-classpath aget alength amap areduce aset aset-boolean aset-byte aset-char aset-double "
            "aset-float aset-int aset-long aset-short bean bigdec bigint biginteger boolean-array booleans byte "
            "byte-array bytes bytes? cast char-array chars class class? construct-proxy decimal? definterface "
            "denominator double-array doubles doto ex-cause float-array floats gen-class gen-interface "
            "get-proxy-class hash hash-combine hash-ordered-coll hash-unordered-coll init-proxy instance? "
            "int-array ints into-array long-array longs make-array memfn mix-collection-hash numerator "
            "object-array primitives-classnames proxy proxy-call-with-super proxy-mappings proxy-name proxy-super "
            "ratio? rational? rationalize re-groups re-matcher short short-array shorts to-array to-array-2d type "
            "unchecked-add unchecked-add-int unchecked-byte unchecked-char unchecked-dec unchecked-dec-int "
            "unchecked-divide-int unchecked-double unchecked-float unchecked-inc unchecked-inc-int unchecked-int "
            "unchecked-long unchecked-multiply unchecked-multiply-int unchecked-negate unchecked-negate-int "
            "unchecked-remainder-int unchecked-short unchecked-subtract unchecked-subtract-int update-proxy "
            "vector-of with-precision char-escape-string char-name-string StackTraceElement->vec Throwable->map"),
    _reason("I/O, the clock and host identifiers",
            "programs reach the outside world only through tools and print with println, print, prn and pr; "
            "results must not depend on the clock",
            "enumeration-seq file-seq flush iterator-seq line-seq PrintWriter-on print-ctor print-dup print-method "
            "print-simple read-line resultset-seq slurp spit with-in-str with-open with-out-str xml-seq time uri? "
            "uuid? parse-uuid random-uuid inst? inst-ms inst-ms* Inst tagged-literal tagged-literal? "
            "reader-conditional reader-conditional? default-data-readers with-loading-context clojure-version"),
    _reason("Clojure's internals", "implementation details of Clojure's data structures and compiler",
            "->ArrayChunk ->Eduction ->Vec ->VecNode ->VecSeq EMPTY-NODE chunk chunk-append chunk-buffer "
            "chunk-cons chunk-first chunk-next chunk-rest chunked-seq? seq-to-map-for-destructuring"),
    _reason("deprecated in Clojure", "Clojure itself marks it deprecated: use repeat", "replicate"),
)

MISSING: dict[str, Reason] = {name: r for r in REASONS for name in r.names}


def markdown() -> str:
    """The list for docs/deviations.md."""
    return "\n".join(f"- **{r.title[0].upper() + r.title[1:]}** ({r.why}): "
                     + ", ".join(f"`{n}`" for n in r.names) + "." for r in REASONS)


__all__ = ["Reason", "REASONS", "MISSING", "markdown"]
