"""Alembic's entry point: migrate the connection the store hands over, or a URL given to Alembic."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from cardroom.server.storage.store import Base, make_engine

config = context.config
target_metadata = Base.metadata


def run_with(connection: Connection) -> None:
    """Run the migrations on ``connection`` (batch mode on SQLite, which alters tables by copying them)."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    """Write the SQL for ``sqlalchemy.url`` instead of running it (``alembic upgrade --sql``)."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate the connection in ``config.attributes["connection"]``, else one to ``sqlalchemy.url``."""
    connection = config.attributes.get("connection")
    if connection is not None:
        run_with(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection: set sqlalchemy.url, or open the database with cardroom's Store")
    engine = make_engine(url)
    try:
        with engine.begin() as own:
            run_with(own)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
