"""Tables in and out: host data sources (files, DataFrames, Arrow, DuckDB) as PTC data."""
