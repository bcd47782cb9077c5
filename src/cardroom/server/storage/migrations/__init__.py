"""Alembic migrations of the card room's database, run to head by ``cardroom.server.storage.store.Store``."""
