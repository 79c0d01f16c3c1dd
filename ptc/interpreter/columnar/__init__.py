"""Columnar kernels: the pipeline shapes programs write over tables, run over Arrow columns.

A table (`ptc.interpreter.table.Table`) is a PTC vector of row maps over a pyarrow.Table. Every
builtin works on it row by row; this package lets the common shapes skip the rows:

- `expr`: the compiler attaches to each one-argument fn whose body is a pure expression of
  keyword lookups on its argument a *column expression* (a small tuple tree made at compile
  time); keywords and ptc's row predicates (`where`, `all-of`...) have one too.
- `kernels`: a column expression evaluated with pyarrow.compute, raising `Fallback` whenever
  the result could differ from the row path (a nil reaching `>`, an integer overflow, NaN in a
  sort key...), so that the row path runs instead and gives its exact result or error.
- `reduce`: whole-column kernels (sums, per-key aggregates, groups, counts, distinct, sorts).
- `folds`: a fn applied to each group of a table (`(map (fn [[k g]] ...) groups)`, `for`,
  `update-vals`) read as a plan of folds (counts, sums, min/max, order statistics, top n...)
  and arithmetic between them, computed for every group at once over the columns.
- `frame`: selections (a table and the row numbers a filter or sort keeps), read a column at a
  time by the kernels that follow, turned into rows only as a program reaches them.
- `dispatch`: the one-line hooks the builtins call (`filter`, `map`, `reduce`, `group-by`...):
  a result when the collection is columnar and the fn has a column expression, else `NO`.
- `explain`: `ptc.explain(src, data=...)` runs a program and reports which calls ran as
  kernels and which fell back to rows, and why.

pyarrow is imported only when a table is there (whoever made the table imported it).
"""
