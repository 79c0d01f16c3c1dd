"""Tables in and out: host data sources (files, DataFrames, Arrow, DuckDB) as PTC data.

`sources` recognizes DataFrames, Arrow and DuckDB objects passed as data; `files` reads a
data file (JSON, JSONL, CSV/TSV, Parquet, Arrow, Excel, SQLite, DuckDB) into tables;
`results` turns what a program returns into a pyarrow Table or a pandas DataFrame, or
writes it to a file. pyarrow is imported only when it is needed, so `import ptc` stays light.
"""
