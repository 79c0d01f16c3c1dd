"""The sample orders as files (orders.csv, orders.parquet), written by `datasets.write_tables(DATA_DIR)`."""
