"""Django's PostgreSQL backend, with reads that ride with a COMMIT (base.py)."""
