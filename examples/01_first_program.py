"""01 - Your first PTC-Lisp program.

PTC-Lisp is the part of Clojure that LLMs write for data work. `ptc.run` reads, checks,
compiles and runs a program in a sandbox and gives back its value and what it printed.

    python examples/01_first_program.py
"""

import ptc

program = """
(def prices [12.5 3.0 7.25 20.0])
(println "items:" (count prices))
(let [total (reduce + prices)]
  {:total total
   :average (/ total (count prices))
   :expensive (filter #(> % 10) prices)})
"""

result = ptc.run(program)
print("printed:", result.prints)            # ('items: 4',)
print("value:  ", ptc.pr_str(result.value))  # Clojure text of the value
print("python: ", ptc.to_python(result.value))
print("defined:", sorted(result.memory))     # names kept for the next program
