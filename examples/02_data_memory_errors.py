"""02 - Input data, memory between programs, and errors.

Data given to `ptc.run` is read through `data/`; its JSON keys are keywords. `def`s
go to memory, which you pass to the next program. A failing program raises `PTCError`
with a kind, a position and often a hint, and leaves memory untouched.

    python examples/02_data_memory_errors.py
"""

import ptc

orders = [{"id": 1, "customer": "ann", "total": 30.0}, {"id": 2, "customer": "bob", "total": 12.5},
          {"id": 3, "customer": "ann", "total": 8.0}]

first = ptc.run("(def by-customer (group-by :customer data/orders)) (keys by-customer)",
                data={"orders": orders})
print("customers:", ptc.pr_str(first.value))

second = ptc.run("(update-vals by-customer #(reduce + (map :total %)))", memory=first.memory)
print("totals:   ", ptc.pr_str(second.value))

try:
    ptc.run("(map-indexd vector by-customer)", memory=first.memory)
except ptc.PTCError as e:
    print("error kind:", e.kind, "at", f"{e.line}:{e.column}")
    print(e.format())
