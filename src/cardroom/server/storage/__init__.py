"""The card room's storage, the lowest of its sub-packages beside the tables: the database (``store``:
SQLAlchemy on SQLite or PostgreSQL, Alembic ``migrations/``), the writer thread that commits off the
event loop (``writer``) and the leases by which processes share tables (``leases``)."""
