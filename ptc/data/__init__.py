"""Tables from files in, results out as DataFrames.

`files` reads a data file (JSON, JSONL, CSV/TSV, Parquet, Arrow, Excel, SQLite, DuckDB)
into tables; `results` turns what a program returns into a pyarrow Table or a pandas
DataFrame, or writes it to a file. pyarrow is imported only when a file is read or a
result converted, so `import ptc` stays light.
"""
