"""The card room's storage: tables and their append-only event logs, in SQLite or PostgreSQL.

One ``Store`` wraps one SQLAlchemy engine. Opening it migrates the database to the newest schema
(Alembic, scripts in ``migrations/`` beside this module), so a fresh file, an older database and a
current one all come out the same. Every write commits before it returns: a table's log survives a
crash of the server, and a restarted server replays it (``entries``) to resume the table.

SQLite in a local data folder is the default (``default_database_url``); a ``DATABASE_URL`` naming
PostgreSQL is used instead (``database_url``), through psycopg 3.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    DateTime,
    Dialect,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    create_engine,
    event,
    make_url,
    select,
    update,
)
from sqlalchemy.engine import URL
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool
from sqlalchemy.types import TypeDecorator

MIGRATIONS: Final = Path(__file__).resolve().parent / "migrations"
"""The Alembic script folder, inside the installed package."""

STATUSES: Final = ("waiting", "running", "finished")
"""A table's life: waiting for players, playing, over (its record saved)."""

DATABASE_FILE: Final = "cardroom.sqlite3"
"""The SQLite file's name inside the data folder."""


class StoreError(ValueError):
    """A write or read the store refuses: an unknown table, a duplicate event number, a bad URL."""


@dataclass(frozen=True)
class TableRow:
    """One stored table as the lobby and a restart see it (its log is read with ``Store.entries``)."""

    id: str
    config: dict[str, Any]
    status: str
    created: datetime
    updated: datetime


# --- URLs -------------------------------------------------------------------------------------------


def default_database_url(data_dir: Path) -> str:
    """``sqlite:///<data_dir>/cardroom.sqlite3``, creating the folder."""
    folder = Path(data_dir).expanduser().resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / DATABASE_FILE}"


def database_url(explicit: str | None, data_dir: Path) -> str:
    """The URL to open: ``explicit`` if given, else the ``DATABASE_URL`` variable, else the default."""
    if explicit:
        return explicit
    from_environment = os.environ.get("DATABASE_URL", "").strip()
    if from_environment:
        return from_environment
    return default_database_url(data_dir)


def normalize_url(url: str) -> URL:
    """The SQLAlchemy URL for ``url``: ``postgresql://`` and ``postgres://`` go through psycopg 3."""
    text = url.strip()
    for prefix in ("postgres://", "postgresql://"):
        if text.startswith(prefix):
            text = "postgresql+psycopg://" + text[len(prefix) :]
            break
    try:
        parsed = make_url(text)
    except Exception as error:  # SQLAlchemy raises ArgumentError, but any parse failure is a bad URL
        raise StoreError(f"not a database URL: {url!r}") from error
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise StoreError(
            f"unsupported database {parsed.get_backend_name()!r} in {parsed.render_as_string()!r}: "
            "use sqlite:///PATH or postgresql://USER@HOST/NAME"
        )
    return parsed


# --- Schema (the ORM view; the migrations in migrations/versions/ create it) ------------------------


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC ``datetime`` on every database (SQLite keeps no zone: it stores UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Aware UTC for PostgreSQL, naive UTC for SQLite; a naive value is taken as UTC."""
        if value is None:
            return None
        value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return value if dialect.name == "postgresql" else value.replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Always aware, in UTC."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """The card room's tables (constraint names as the migrations give them)."""

    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "pk": "pk_%(table_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
        }
    )


class TableModel(Base):
    """``tables``: one row per card table, its configuration, status and (when finished) its record."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(Text, primary_key=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, index=True)
    created: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    updated: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)


class EventModel(Base):
    """``events``: a table's log, entry ``number`` 1, 2, 3 … in the order it happened."""

    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(Text, ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    created: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


# --- Engine and migrations ----------------------------------------------------------------------------


def _json_dumps(value: Any) -> str:
    """JSON as stored: UTF-8 text kept readable (seat names in Chinese stay Chinese)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    """Each SQLite connection: write-ahead log (readers never block the writer) and enforced foreign keys."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
    finally:
        cursor.close()


def make_engine(url: str) -> Engine:
    """The engine for ``url``: SQLite (WAL, foreign keys, usable across threads) or PostgreSQL (psycopg 3)."""
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite":
        memory = parsed.database in (None, "", ":memory:")
        if not memory and parsed.database:
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            parsed,
            connect_args={"check_same_thread": False},
            json_serializer=_json_dumps,
            **({"poolclass": StaticPool} if memory else {}),
        )
        event.listen(engine, "connect", _sqlite_on_connect)
        return engine
    return create_engine(parsed, json_serializer=_json_dumps, pool_pre_ping=True)


def alembic_config() -> Config:
    """Alembic's configuration, built in code: the scripts in the installed package, no ``alembic.ini``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))  # configparser syntax
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database of ``engine`` to ``revision`` (the newest by default); a no-op when it is there."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


# --- The store ----------------------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC)


def _row(model: TableModel) -> TableRow:
    return TableRow(
        id=model.id,
        config=model.config,
        status=model.status,
        created=model.created,
        updated=model.updated,
    )


class Store:
    """Tables and their append-only event logs, in SQLite or PostgreSQL (SQLAlchemy)."""

    def __init__(self, url: str) -> None:
        """Open the database at ``url`` and migrate it to the newest schema."""
        self.url = normalize_url(url)
        self.engine = make_engine(url)
        try:
            migrate(self.engine)
        except Exception:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def __repr__(self) -> str:
        return f"Store({self.url.render_as_string(hide_password=True)!r})"

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def create_table(self, table_id: str, config: dict[str, Any], created: datetime) -> None:
        """Store a new table, status ``waiting``; an id already taken is a ``StoreError``."""
        model = TableModel(id=table_id, config=config, status="waiting", created=created, updated=created)
        try:
            with self._sessions.begin() as session:
                session.add(model)
        except IntegrityError as error:
            raise StoreError(f"table {table_id!r} already exists") from error

    def append(self, table_id: str, number: int, entry: dict[str, Any]) -> None:
        """Add entry ``number`` to the log, committed before this returns; a used number is refused."""
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise StoreError(f"event number must be a positive integer, not {number!r} (table {table_id!r})")
        now = _now()
        try:
            with self._sessions.begin() as session:
                self._touch(session, table_id, now)
                session.add(EventModel(table_id=table_id, number=number, entry=entry, created=now))
        except IntegrityError as error:
            raise StoreError(f"table {table_id!r} already has event number {number}") from error

    def entries(self, table_id: str) -> list[dict[str, Any]]:
        """The table's log, in number order."""
        with self._sessions() as session:
            self._require(session, table_id)
            query = (
                select(EventModel.entry).where(EventModel.table_id == table_id).order_by(EventModel.number)
            )
            return list(session.scalars(query))

    def last_number(self, table_id: str) -> int:
        """The number of the table's last entry, 0 when its log is empty."""
        with self._sessions() as session:
            self._require(session, table_id)
            query = (
                select(EventModel.number)
                .where(EventModel.table_id == table_id)
                .order_by(EventModel.number.desc())
                .limit(1)
            )
            return session.scalar(query) or 0

    def set_status(self, table_id: str, status: str) -> None:
        """Mark the table ``waiting``, ``running`` or ``finished``."""
        if status not in STATUSES:
            raise StoreError(
                f"unknown table status {status!r} (table {table_id!r}); one of {', '.join(STATUSES)}"
            )
        with self._sessions.begin() as session:
            self._touch(session, table_id, _now(), status=status)

    def save_record(self, table_id: str, record: dict[str, Any]) -> None:
        """Keep the table's finished match record (replacing one saved before)."""
        with self._sessions.begin() as session:
            self._touch(session, table_id, _now(), record=record)

    def record(self, table_id: str) -> dict[str, Any] | None:
        """The table's saved match record, None when none is saved yet."""
        with self._sessions() as session:
            model = self._require(session, table_id)
            return model.record

    def tables(self, statuses: Collection[str] | None = None) -> list[TableRow]:
        """The stored tables, newest first (by ``created``, then id), only those in ``statuses`` if given."""
        query = select(TableModel).order_by(TableModel.created.desc(), TableModel.id)
        if statuses is not None:
            query = query.where(TableModel.status.in_(list(statuses)))
        with self._sessions() as session:
            return [_row(model) for model in session.scalars(query)]

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, None when there is none."""
        with self._sessions() as session:
            model = session.get(TableModel, table_id)
            return None if model is None else _row(model)

    def close(self) -> None:
        """Close every connection (the store is not used after this)."""
        self.engine.dispose()

    @staticmethod
    def _require(session: Session, table_id: str) -> TableModel:
        model = session.get(TableModel, table_id)
        if model is None:
            raise StoreError(f"unknown table {table_id!r}")
        return model

    @staticmethod
    def _touch(session: Session, table_id: str, now: datetime, **values: Any) -> None:
        """Set ``updated`` (and ``values``) on the table; an unknown id is a ``StoreError``."""
        result = session.execute(
            update(TableModel).where(TableModel.id == table_id).values(updated=now, **values)
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise StoreError(f"unknown table {table_id!r}")
