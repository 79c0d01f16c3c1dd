from . import record_all

for path in record_all():
    print(f"recorded {path}")
