"""The card room's storage: tables and their append-only event logs, tournaments, players'
ratings, and accounts with their sign-in sessions, in SQLite or PostgreSQL.

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
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Dialect,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    create_engine,
    delete,
    event,
    false,
    insert,
    literal,
    make_url,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, aliased, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool
from sqlalchemy.types import TypeDecorator

MIGRATIONS: Final = Path(__file__).resolve().parent / "migrations"
"""The Alembic script folder, inside the installed package."""

STATUSES: Final = ("waiting", "running", "finished")
"""A table's life: waiting for players, playing, over (its record saved)."""

CONNECT_TIMEOUT: Final = 5
"""Seconds a PostgreSQL connection attempt may take (libpq's ``connect_timeout``, unless the URL sets
one): a database host that does not answer fails a request in seconds, not a TCP timeout later."""

DATABASE_FILE: Final = "cardroom.sqlite3"
"""The SQLite file's name inside the data folder."""

TABLE_LEASE: Final = "table:"
"""The prefix of a table's lease key (``table:<id>``; :mod:`cardroom.server.storage.leases`)."""


@dataclass(frozen=True)
class Write:
    """What one commit of a table stores: its new log entries ``(number, entry)``, and its new status
    and finished record when they changed."""

    table_id: str
    entries: tuple[tuple[int, dict[str, Any]], ...] = ()
    status: str | None = None
    record: dict[str, Any] | None = None
    summary: dict[str, Any] | None = None
    """The lobby's line, when it changed (another process lists the table from it)."""


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
    summary: dict[str, Any] | None = None
    """The lobby's line as last written (``None`` for a table from before it was kept)."""


@dataclass(frozen=True)
class LadderEntrantRow:
    """One ladder entrant: ``key`` (``id#generation``), the bot (``bot:<id>`` or a house bot's name), its
    owner's key, generation and name; ``data`` its rating and record (``mu``, ``sigma``, ``matches``,
    ``wins``, ``draws``, ``losses``, ``faults``); when it was made and last seen ready."""

    key: str
    bot: str
    owner: str
    generation: int
    name: str
    data: dict[str, Any]
    created: datetime
    last_seen: datetime | None


@dataclass(frozen=True)
class LadderMatchRow:
    """One ladder match: its id, ``status`` (``running``, ``rated``), day (ISO date), ``data`` (teams,
    tables, games, margin, winner, faults), when it was made and rated."""

    id: str
    status: str
    day: str
    data: dict[str, Any]
    created: datetime
    finished: datetime | None


@dataclass(frozen=True)
class LeaseRow:
    """Who holds a lease (``table:<id>``, or ``primary``) until when: ``node`` the holder's name,
    ``url`` where the other processes reach it."""

    key: str
    node: str
    url: str
    expires: datetime


@dataclass(frozen=True)
class TournamentRow:
    """One stored tournament: its whole state as JSON (``data``), the director token's hash, its phase."""

    id: str
    name: str
    phase: str
    data: dict[str, Any]
    director_hash: str
    created: datetime
    updated: datetime


@dataclass(frozen=True)
class PlayerRow:
    """One rated player: ``key`` the name case-folded (the identity), ``name`` as first written, the
    openskill rating (μ, σ), the record, and the platform's rating points with the 末游 streak."""

    key: str
    name: str
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    last_place_streak: int = 0
    kind: str = "account"
    """``account``, ``bot``, or ``guest`` (rated before accounts existed: not on the leaderboard)."""


@dataclass(frozen=True)
class PlayerMatchRow:
    """One rated match of one player (``data``: partner, opponents, result, changes; see ratings)."""

    key: str
    table_id: str
    at: datetime
    data: dict[str, Any]


@dataclass(frozen=True)
class AccountRow:
    """One account: ``key`` its name case-folded, the name as registered, the password's argon2 hash,
    its role (``player`` or ``director``)."""

    key: str
    name: str
    password_hash: str
    role: str
    created: datetime
    skeleton: str | None = None
    """What the name looks like (:func:`cardroom.server.tables.lookalikes.skeleton`): one account per
    skeleton."""


@dataclass(frozen=True)
class BotRow:
    """One bot account: its key (``bot:<id>``) and name (its ``accounts`` row's), its owner's key and
    name, what it says of itself, the SHA-256 of its API token (``None`` once revoked) and the token's
    generation (1 at creation, one more at each rotation)."""

    key: str
    name: str
    owner: str
    owner_name: str
    description: str
    link: str
    token_hash: str | None
    generation: int
    created: datetime
    token_created: datetime | None


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
    rated: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default=false(), default=False)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)


class EventModel(Base):
    """``events``: a table's log, entry ``number`` 1, 2, 3 … in the order it happened."""

    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(Text, ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    created: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class TournamentModel(Base):
    """``tournaments``: one row per event (赛事), its state as JSON (docs/tournaments-api.md)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(Text, primary_key=True)
    name: Mapped[str] = mapped_column(Text, nullable=False)
    phase: Mapped[str] = mapped_column(String(16), nullable=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    director_hash: Mapped[str] = mapped_column(Text, nullable=False)
    created: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    updated: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class PlayerModel(Base):
    """``players``: one row per rated player, by case-folded name."""

    __tablename__ = "players"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    name: Mapped[str] = mapped_column(Text, nullable=False)
    mu: Mapped[float] = mapped_column(Float, nullable=False)
    sigma: Mapped[float] = mapped_column(Float, nullable=False)
    matches: Mapped[int] = mapped_column(Integer, nullable=False)
    wins: Mapped[int] = mapped_column(Integer, nullable=False)
    draws: Mapped[int] = mapped_column(Integer, nullable=False)
    losses: Mapped[int] = mapped_column(Integer, nullable=False)
    points: Mapped[int] = mapped_column(Integer, nullable=False)
    last_place_streak: Mapped[int] = mapped_column(Integer, nullable=False)
    updated: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    kind: Mapped[str] = mapped_column(String(16), nullable=False, server_default="guest")


class PlayerMatchModel(Base):
    """``player_matches``: each player's rated matches (a player is rated once per table)."""

    __tablename__ = "player_matches"

    player_key: Mapped[str] = mapped_column(Text, ForeignKey("players.key"), primary_key=True)
    table_id: Mapped[str] = mapped_column(Text, ForeignKey("tables.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)


class AccountModel(Base):
    """``accounts``: one row per account, by case-folded name."""

    __tablename__ = "accounts"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    name: Mapped[str] = mapped_column(Text, nullable=False)
    password_hash: Mapped[str] = mapped_column(Text, nullable=False)
    role: Mapped[str] = mapped_column(String(16), nullable=False)
    created: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    skeleton: Mapped[str | None] = mapped_column(Text, nullable=True, index=True)


class SessionModel(Base):
    """``sessions``: one row per signed-in browser, by the SHA-256 of its cookie's secret."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(Text, primary_key=True)
    account_key: Mapped[str] = mapped_column(Text, ForeignKey("accounts.key"), nullable=False, index=True)
    created: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    expires: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class BotModel(Base):
    """``bots``: one row per bot account, beside its ``accounts`` row (its name and skeleton)."""

    __tablename__ = "bots"

    key: Mapped[str] = mapped_column(Text, ForeignKey("accounts.key"), primary_key=True)
    owner: Mapped[str] = mapped_column(Text, ForeignKey("accounts.key"), nullable=False, index=True)
    description: Mapped[str] = mapped_column(Text, nullable=False)
    link: Mapped[str] = mapped_column(Text, nullable=False)
    token_hash: Mapped[str | None] = mapped_column(Text, nullable=True, index=True, unique=True)
    generation: Mapped[int] = mapped_column(Integer, nullable=False)
    token_created: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)


class LadderEntrantModel(Base):
    """``ladder_entrants``: one row per ladder entrant (a bot's generation, or a house bot), by key
    ``id#generation``; ``data`` its rating and record (docs/ladder.md, "The ladder's storage")."""

    __tablename__ = "ladder_entrants"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    bot: Mapped[str] = mapped_column(Text, nullable=False, index=True)
    owner: Mapped[str] = mapped_column(Text, nullable=False)
    generation: Mapped[int] = mapped_column(Integer, nullable=False)
    name: Mapped[str] = mapped_column(Text, nullable=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    created: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    last_seen: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)


class LadderMatchModel(Base):
    """``ladder_matches``: one row per ladder match, ``running`` then ``rated``; ``data`` its teams,
    tables, games and result."""

    __tablename__ = "ladder_matches"

    id: Mapped[str] = mapped_column(Text, primary_key=True)
    status: Mapped[str] = mapped_column(String(16), nullable=False, index=True)
    day: Mapped[str] = mapped_column(Text, nullable=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    created: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    finished: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)


class LeaseModel(Base):
    """``leases``: which server process owns a table (``table:<id>``) or the primary role, until when."""

    __tablename__ = "leases"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    node: Mapped[str] = mapped_column(Text, nullable=False, index=True)
    url: Mapped[str] = mapped_column(Text, nullable=False)
    expires: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class ClusterModel(Base):
    """``cluster``: values every server process of the database shares (``secret``)."""

    __tablename__ = "cluster"

    name: Mapped[str] = mapped_column(Text, primary_key=True)
    value: Mapped[str] = mapped_column(Text, nullable=False)


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
    connect_args = {} if "connect_timeout" in parsed.query else {"connect_timeout": CONNECT_TIMEOUT}
    return create_engine(parsed, json_serializer=_json_dumps, pool_pre_ping=True, connect_args=connect_args)


def alembic_config() -> Config:
    """Alembic's configuration, built in code: the scripts in the installed package, no ``alembic.ini``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))  # configparser syntax
    return config


MIGRATION_LOCK: Final = 0x63617264726F6F6D
"""The PostgreSQL advisory lock held while migrating: processes started together migrate in turn."""


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database of ``engine`` to ``revision`` (the newest by default); a no-op when it is there.
    Several processes opening one PostgreSQL database at once migrate it one after the other
    (``cardroom serve --workers`` migrates before it starts its workers, whatever the database)."""
    config = alembic_config()
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


# --- The store ----------------------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC)


def _tournament_row(model: TournamentModel) -> TournamentRow:
    return TournamentRow(
        model.id, model.name, model.phase, model.data, model.director_hash, model.created, model.updated
    )


def _player_row(model: PlayerModel) -> PlayerRow:
    return PlayerRow(
        model.key,
        model.name,
        model.mu,
        model.sigma,
        model.matches,
        model.wins,
        model.draws,
        model.losses,
        model.points,
        model.last_place_streak,
        model.kind,
    )


def _account_row(model: AccountModel) -> AccountRow:
    return AccountRow(model.key, model.name, model.password_hash, model.role, model.created, model.skeleton)


def _row(model: TableModel) -> TableRow:
    return TableRow(
        id=model.id,
        config=model.config,
        status=model.status,
        created=model.created,
        updated=model.updated,
        summary=model.summary,
    )


def _ladder_entrant_row(model: LadderEntrantModel) -> LadderEntrantRow:
    return LadderEntrantRow(
        model.key,
        model.bot,
        model.owner,
        model.generation,
        model.name,
        dict(model.data),
        model.created,
        model.last_seen,
    )


def _ladder_match_row(model: LadderMatchModel) -> LadderMatchRow:
    return LadderMatchRow(model.id, model.status, model.day, dict(model.data), model.created, model.finished)


def _lease_row(model: LeaseModel) -> LeaseRow:
    return LeaseRow(model.key, model.node, model.url, model.expires)


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

    def write(self, writes: Sequence[Write]) -> None:
        """Apply several tables' new entries (and statuses and records) in one transaction, committed
        before this returns: all of them, or none (a used number or an unknown table is a
        ``StoreError``)."""
        now = _now()
        touched: dict[str, dict[str, Any]] = {}
        rows: list[dict[str, Any]] = []
        for write in writes:
            values = touched.setdefault(write.table_id, {})
            if write.status is not None:
                if write.status not in STATUSES:
                    raise StoreError(f"unknown table status {write.status!r} (table {write.table_id!r})")
                values["status"] = write.status
            if write.record is not None:
                values["record"] = write.record
            if write.summary is not None:
                values["summary"] = write.summary
            rows += [
                {"table_id": write.table_id, "number": number, "entry": entry, "created": now}
                for number, entry in write.entries
            ]
        try:
            with self._sessions.begin() as session:
                plain = [table_id for table_id, values in touched.items() if not values]
                if plain:  # tables only touched: one statement for them all
                    result = session.execute(
                        update(TableModel).where(TableModel.id.in_(plain)).values(updated=now)
                    )
                    if result.rowcount != len(plain):  # type: ignore[attr-defined]
                        raise StoreError(f"unknown table among {', '.join(sorted(plain))}")
                for table_id, values in touched.items():
                    if values:
                        self._touch(session, table_id, now, **values)
                if rows:
                    session.execute(insert(EventModel), rows)
        except IntegrityError as error:
            raise StoreError(f"a log entry number is already used: {error.orig}") from error

    @property
    def in_memory(self) -> bool:
        """Whether the database is SQLite in memory (one connection: no second thread may use it)."""
        return self.url.get_backend_name() == "sqlite" and self.url.database in (None, "", ":memory:")

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

    def waiting_since(self, cutoff: datetime) -> list[str]:
        """The tables still waiting for players that were created before ``cutoff``, oldest first."""
        query = (
            select(TableModel.id)
            .where(TableModel.status == "waiting", TableModel.created < cutoff)
            .order_by(TableModel.created, TableModel.id)
        )
        with self._sessions() as session:
            return list(session.scalars(query))

    def delete_waiting_table(self, table_id: str) -> bool:
        """Delete a table that is still waiting for players (its log, its lease): an expired one, no
        card dealt. Whether it was deleted (a table that started, or an unknown id, is left alone)."""
        with self._sessions.begin() as session:
            model = session.get(TableModel, table_id)
            if model is None or model.status != "waiting":
                return False
            session.execute(delete(EventModel).where(EventModel.table_id == table_id))
            session.execute(delete(LeaseModel).where(LeaseModel.key == TABLE_LEASE + table_id))
            session.delete(model)
        return True

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, None when there is none."""
        with self._sessions() as session:
            model = session.get(TableModel, table_id)
            return None if model is None else _row(model)

    # -- leases (several processes on one database: docs/server.md) ----------------------------

    def claim(self, key: str, node: str, url: str, now: datetime, until: datetime) -> LeaseRow:
        """Take or renew the lease ``key`` for ``node`` until ``until`` when it is free, expired by
        ``now`` or ``node``'s already; the lease as it stands after (another node's when it holds it)."""
        with self._sessions.begin() as session:
            taken = session.execute(
                update(LeaseModel)
                .where(LeaseModel.key == key, or_(LeaseModel.node == node, LeaseModel.expires <= now))
                .values(node=node, url=url, expires=until)
            )
            if taken.rowcount == 1:  # type: ignore[attr-defined]
                return LeaseRow(key, node, url, until)
            held = session.get(LeaseModel, key)
            if held is not None:
                return _lease_row(held)
        try:
            with self._sessions.begin() as session:
                session.add(LeaseModel(key=key, node=node, url=url, expires=until))
        except IntegrityError:  # another node took it at the same moment (and may have let it go)
            return self.lease(key) or self.claim(key, node, url, now, until)
        return LeaseRow(key, node, url, until)

    def renew(self, node: str, until: datetime) -> set[str]:
        """Extend every lease ``node`` holds to ``until``; the keys it holds."""
        with self._sessions.begin() as session:
            session.execute(update(LeaseModel).where(LeaseModel.node == node).values(expires=until))
            return set(session.scalars(select(LeaseModel.key).where(LeaseModel.node == node)))

    def release(self, node: str, keys: Collection[str] | None = None) -> None:
        """Give up ``node``'s leases (only ``keys`` if given)."""
        query = delete(LeaseModel).where(LeaseModel.node == node)
        if keys is not None:
            query = query.where(LeaseModel.key.in_(list(keys)))
        with self._sessions.begin() as session:
            session.execute(query)

    def lease(self, key: str) -> LeaseRow | None:
        """The lease ``key`` as stored (perhaps expired), None when nobody holds it."""
        with self._sessions() as session:
            model = session.get(LeaseModel, key)
            return None if model is None else _lease_row(model)

    def live_leases(self, prefix: str, now: datetime) -> list[LeaseRow]:
        """The leases whose key starts with ``prefix`` and that hold at ``now``, by key."""
        query = (
            select(LeaseModel)
            .where(LeaseModel.key.startswith(prefix, autoescape=True), LeaseModel.expires > now)
            .order_by(LeaseModel.key)
        )
        with self._sessions() as session:
            return [_lease_row(model) for model in session.scalars(query)]

    def unleased_tables(self, now: datetime) -> list[str]:
        """Waiting and running tables whose lease is missing or expired by ``now``, oldest first."""
        query = (
            select(TableModel.id)
            .outerjoin(LeaseModel, LeaseModel.key == literal(TABLE_LEASE) + TableModel.id)
            .where(
                TableModel.status.in_(["waiting", "running"]),
                or_(LeaseModel.key.is_(None), LeaseModel.expires <= now),
            )
            .order_by(TableModel.created, TableModel.id)
        )
        with self._sessions() as session:
            return list(session.scalars(query))

    def cluster_secret(self) -> str:
        """The secret the server processes of this database trust each other's forwarded requests by."""
        with self._sessions() as session:
            value = session.get(ClusterModel, "secret")
            if value is None:
                raise StoreError("the database has no cluster secret: migrate it (open it with Store)")
            return value.value

    # -- tournaments ---------------------------------------------------------------------------

    def create_tournament(
        self, tournament_id: str, name: str, data: dict[str, Any], director_hash: str, created: datetime
    ) -> None:
        """Store a new tournament; an id already taken is a ``StoreError``."""
        model = TournamentModel(
            id=tournament_id,
            name=name,
            phase=str(data.get("phase", "registration")),
            data=data,
            director_hash=director_hash,
            created=created,
            updated=created,
        )
        try:
            with self._sessions.begin() as session:
                session.add(model)
        except IntegrityError as error:
            raise StoreError(f"tournament {tournament_id!r} already exists") from error

    def save_tournament(self, tournament_id: str, data: dict[str, Any], phase: str) -> None:
        """Replace the tournament's state (committed before this returns)."""
        with self._sessions.begin() as session:
            result = session.execute(
                update(TournamentModel)
                .where(TournamentModel.id == tournament_id)
                .values(data=data, phase=phase, updated=_now())
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise StoreError(f"unknown tournament {tournament_id!r}")

    def delete_tournament(self, tournament_id: str) -> bool:
        """Delete a tournament (one not started: it has no tables); whether it was there."""
        with self._sessions.begin() as session:
            model = session.get(TournamentModel, tournament_id)
            if model is None:
                return False
            session.delete(model)
        return True

    def tournament(self, tournament_id: str) -> TournamentRow | None:
        """The tournament ``tournament_id``, None when there is none."""
        with self._sessions() as session:
            model = session.get(TournamentModel, tournament_id)
            return None if model is None else _tournament_row(model)

    def tournaments(self) -> list[TournamentRow]:
        """Every stored tournament, newest first."""
        query = select(TournamentModel).order_by(TournamentModel.created.desc(), TournamentModel.id)
        with self._sessions() as session:
            return [_tournament_row(model) for model in session.scalars(query)]

    # -- players and ratings -------------------------------------------------------------------

    def players(self, keys: Collection[str] | None = None, *, listed: bool = False) -> list[PlayerRow]:
        """The rated players (only those of ``keys`` if given; only accounts and bots if ``listed``),
        by key."""
        query = select(PlayerModel).order_by(PlayerModel.key)
        if keys is not None:
            query = query.where(PlayerModel.key.in_(list(keys)))
        if listed:
            query = query.where(PlayerModel.kind != "guest")
        with self._sessions() as session:
            return [_player_row(model) for model in session.scalars(query)]

    def player(self, key: str) -> PlayerRow | None:
        """The player of this case-folded name, None when never rated."""
        with self._sessions() as session:
            model = session.get(PlayerModel, key)
            return None if model is None else _player_row(model)

    def player_matches(
        self, key: str, limit: int | None = 20, *, since: datetime | None = None
    ) -> list[PlayerMatchRow]:
        """The player's rated matches (the last ``limit``; those rated from ``since`` on), newest first."""
        query = (
            select(PlayerMatchModel)
            .where(PlayerMatchModel.player_key == key)
            .order_by(PlayerMatchModel.at.desc(), PlayerMatchModel.table_id)
            .limit(limit)
        )
        if since is not None:
            query = query.where(PlayerMatchModel.at >= since)
        with self._sessions() as session:
            return [
                PlayerMatchRow(model.player_key, model.table_id, model.at, model.data)
                for model in session.scalars(query)
            ]

    def save_rating(
        self, table_id: str, players: Collection[PlayerRow], matches: Collection[PlayerMatchRow]
    ) -> bool:
        """Mark the table rated and store its players' new ratings and match lines, all in one
        transaction; ``False`` (and nothing written) when the table was rated already."""
        now = _now()
        with self._sessions.begin() as session:
            marked = session.execute(
                update(TableModel)
                .where(TableModel.id == table_id, TableModel.rated.is_(False))
                .values(rated=True)
            )
            if marked.rowcount != 1:  # type: ignore[attr-defined]
                self._require(session, table_id)
                return False
            for row in players:
                session.merge(
                    PlayerModel(
                        key=row.key,
                        name=row.name,
                        mu=row.mu,
                        sigma=row.sigma,
                        matches=row.matches,
                        wins=row.wins,
                        draws=row.draws,
                        losses=row.losses,
                        points=row.points,
                        last_place_streak=row.last_place_streak,
                        updated=now,
                        kind=row.kind,
                    )
                )
            session.flush()
            for line in matches:
                session.add(
                    PlayerMatchModel(player_key=line.key, table_id=line.table_id, at=line.at, data=line.data)
                )
        return True

    def unrated_tables(self) -> list[str]:
        """Finished tables not rated yet (the server rates them when it starts), oldest first."""
        query = (
            select(TableModel.id)
            .where(TableModel.status == "finished", TableModel.rated.is_(False))
            .order_by(TableModel.updated, TableModel.id)
        )
        with self._sessions() as session:
            return list(session.scalars(query))

    # -- accounts and sessions -------------------------------------------------------------------

    def create_account(self, row: AccountRow) -> AccountRow | None:
        """Store a new account: ``None`` once stored, else the account that holds its key or its
        skeleton already (nothing written). A player rated under that name before accounts existed
        is moved aside to ``guest:<key>`` in the same transaction: the account starts its own
        rating, and the guest's history is kept."""
        try:
            return self._create_account(row)
        except IntegrityError:  # the same name registered at the same moment
            return self.account(row.key) or row

    def _create_account(self, row: AccountRow) -> AccountRow | None:
        with self._sessions.begin() as session:
            taken = session.get(AccountModel, row.key)
            if taken is None and row.skeleton is not None:
                taken = session.scalars(
                    select(AccountModel).where(AccountModel.skeleton == row.skeleton).limit(1)
                ).first()
            if taken is not None:
                return _account_row(taken)
            session.add(AccountModel(**vars(row)))
            guest = session.get(PlayerModel, row.key)
            if guest is not None and guest.kind == "guest":
                aside = f"guest:{row.key}"
                if session.get(PlayerModel, aside) is None:
                    values = {
                        column.key: getattr(guest, column.key) for column in PlayerModel.__table__.columns
                    }
                    session.add(PlayerModel(**{**values, "key": aside}))
                    session.flush()
                    session.execute(
                        update(PlayerMatchModel)
                        .where(PlayerMatchModel.player_key == row.key)
                        .values(player_key=aside)
                    )
                    session.delete(guest)
        return None

    def account(self, key: str) -> AccountRow | None:
        """The account of this case-folded name."""
        with self._sessions() as session:
            model = session.get(AccountModel, key)
            return None if model is None else _account_row(model)

    def account_by_skeleton(self, skeleton: str) -> AccountRow | None:
        """The account whose name has this skeleton (the first by key, should two predate the rule)."""
        query = select(AccountModel).where(AccountModel.skeleton == skeleton).order_by(AccountModel.key)
        with self._sessions() as session:
            model = session.scalars(query.limit(1)).first()
            return None if model is None else _account_row(model)

    def fill_skeletons(self, skeleton: Callable[[str], str]) -> int:
        """Give every account without a skeleton the ``skeleton`` of its name; how many."""
        with self._sessions.begin() as session:
            models = list(session.scalars(select(AccountModel).where(AccountModel.skeleton.is_(None))))
            for model in models:
                model.skeleton = skeleton(model.name)
            return len(models)

    def accounts(self) -> list[AccountRow]:
        """Every account, by key."""
        with self._sessions() as session:
            return [
                _account_row(model)
                for model in session.scalars(select(AccountModel).order_by(AccountModel.key))
            ]

    def update_account(self, key: str, *, role: str | None = None, password_hash: str | None = None) -> bool:
        """Change an account's role or password hash; ``False`` for an unknown account."""
        values = {
            name: value
            for name, value in (("role", role), ("password_hash", password_hash))
            if value is not None
        }
        with self._sessions.begin() as session:
            result = session.execute(update(AccountModel).where(AccountModel.key == key).values(**values))
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def create_session(self, token_hash: str, key: str, created: datetime, expires: datetime) -> None:
        with self._sessions.begin() as session:
            session.add(
                SessionModel(token_hash=token_hash, account_key=key, created=created, expires=expires)
            )

    def session_account(self, token_hash: str, now: datetime) -> AccountRow | None:
        """The account signed in by the session of this hash, unless it expired (then it is deleted)."""
        with self._sessions.begin() as session:
            model = session.get(SessionModel, token_hash)
            if model is None:
                return None
            if model.expires <= now:
                session.delete(model)
                return None
            account = session.get(AccountModel, model.account_key)
            return None if account is None else _account_row(account)

    def end_sessions(self, key: str, *, keep: str | None = None) -> list[str]:
        """Delete every session of the account ``key`` but the one whose hash is ``keep``; the hashes
        of those deleted."""
        where = [SessionModel.account_key == key]
        if keep is not None:
            where.append(SessionModel.token_hash != keep)
        with self._sessions.begin() as session:
            hashes = list(session.scalars(select(SessionModel.token_hash).where(*where)))
            if hashes:
                session.execute(delete(SessionModel).where(SessionModel.token_hash.in_(hashes)))
            return hashes

    def live_sessions(self, hashes: Collection[str], now: datetime) -> set[str]:
        """Which of these session hashes still sign someone in (stored, not expired)."""
        if not hashes:
            return set()
        query = select(SessionModel.token_hash).where(
            SessionModel.token_hash.in_(list(hashes)), SessionModel.expires > now
        )
        with self._sessions() as session:
            return set(session.scalars(query))

    def delete_sessions(self, *, token_hash: str | None = None, key: str | None = None) -> int:
        """Delete one session (by its hash) or every session of an account; how many."""
        query = delete(SessionModel)
        if token_hash is not None:
            query = query.where(SessionModel.token_hash == token_hash)
        elif key is not None:
            query = query.where(SessionModel.account_key == key)
        else:
            raise ValueError("delete_sessions: name a token_hash or a key")
        with self._sessions.begin() as session:
            return int(session.execute(query).rowcount)  # type: ignore[attr-defined]

    # -- bot accounts ----------------------------------------------------------------------------

    def create_bot(self, account: AccountRow, bot: BotRow) -> AccountRow | None:
        """Store a new bot account (its ``accounts`` row and its ``bots`` row): ``None`` once stored,
        else the account that holds its key or its skeleton already (nothing written)."""
        try:
            with self._sessions.begin() as session:
                taken = session.get(AccountModel, account.key)
                if taken is None and account.skeleton is not None:
                    taken = session.scalars(
                        select(AccountModel).where(AccountModel.skeleton == account.skeleton).limit(1)
                    ).first()
                if taken is not None:
                    return _account_row(taken)
                session.add(AccountModel(**vars(account)))
                session.flush()
                session.add(
                    BotModel(
                        key=bot.key,
                        owner=bot.owner,
                        description=bot.description,
                        link=bot.link,
                        token_hash=bot.token_hash,
                        generation=bot.generation,
                        token_created=bot.token_created,
                    )
                )
            return None
        except IntegrityError:  # the same name taken at the same moment
            return self.account(account.key) or account

    def _bots(self, *where: Any) -> list[BotRow]:
        owner = aliased(AccountModel)
        query = (
            select(BotModel, AccountModel, owner)
            .join(AccountModel, AccountModel.key == BotModel.key)
            .join(owner, owner.key == BotModel.owner)
            .where(*where)
            .order_by(AccountModel.created, BotModel.key)
        )
        with self._sessions() as session:
            return [
                BotRow(
                    bot.key,
                    account.name,
                    bot.owner,
                    holder.name,
                    bot.description,
                    bot.link,
                    bot.token_hash,
                    bot.generation,
                    account.created,
                    bot.token_created,
                )
                for bot, account, holder in session.execute(query).all()
            ]

    def bots(self, owner: str) -> list[BotRow]:
        """The bot accounts ``owner`` (an account's key) owns, oldest first."""
        return self._bots(BotModel.owner == owner)

    def bot(self, key: str) -> BotRow | None:
        """The bot account of this key (``bot:<id>``)."""
        found = self._bots(BotModel.key == key)
        return found[0] if found else None

    def bot_by_token(self, token_hash: str) -> BotRow | None:
        """The bot account whose live API token has this hash."""
        found = self._bots(BotModel.token_hash == token_hash)
        return found[0] if found else None

    def update_bot(self, key: str, **values: Any) -> bool:
        """Change a bot's ``description``, ``link``, ``token_hash``, ``generation`` or ``token_created``;
        ``False`` for an unknown bot."""
        unknown = set(values) - {"description", "link", "token_hash", "generation", "token_created"}
        if unknown:
            raise ValueError(f"update_bot: no field {', '.join(sorted(unknown))}")
        with self._sessions.begin() as session:
            result = session.execute(update(BotModel).where(BotModel.key == key).values(**values))
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def delete_bot(self, key: str) -> bool:
        """Delete a bot account (its ``bots`` and ``accounts`` rows); ``False`` for an unknown bot."""
        with self._sessions.begin() as session:
            model = session.get(BotModel, key)
            if model is None:
                return False
            session.delete(model)
            session.flush()
            session.execute(delete(AccountModel).where(AccountModel.key == key))
            return True

    def live_bot_tokens(self, hashes: Collection[str]) -> set[str]:
        """Which of these API token hashes are still a bot's live token."""
        if not hashes:
            return set()
        query = select(BotModel.token_hash).where(BotModel.token_hash.in_(list(hashes)))
        with self._sessions() as session:
            return {value for value in session.scalars(query) if value is not None}

    # -- the bot ladder (docs/ladder.md) -------------------------------------------------------------

    def ladder_entrants(self) -> list[LadderEntrantRow]:
        """Every ladder entrant, oldest first."""
        query = select(LadderEntrantModel).order_by(LadderEntrantModel.created, LadderEntrantModel.key)
        with self._sessions() as session:
            return [_ladder_entrant_row(model) for model in session.scalars(query)]

    def save_ladder_entrant(self, row: LadderEntrantRow) -> None:
        """Add or replace a ladder entrant's row."""
        with self._sessions.begin() as session:
            session.merge(LadderEntrantModel(**vars(row)))

    def ladder_matches(self, status: str | None = None) -> list[LadderMatchRow]:
        """The ladder's matches (of ``status`` if given), in the order they were made."""
        query = select(LadderMatchModel).order_by(LadderMatchModel.created, LadderMatchModel.id)
        if status is not None:
            query = query.where(LadderMatchModel.status == status)
        with self._sessions() as session:
            return [_ladder_match_row(model) for model in session.scalars(query)]

    def save_ladder_match(self, row: LadderMatchRow, entrants: Sequence[LadderEntrantRow] = ()) -> None:
        """Add or replace a ladder match's row, and the rows of ``entrants`` (rated by it) in the same
        transaction."""
        with self._sessions.begin() as session:
            session.merge(LadderMatchModel(**vars(row)))
            for entrant in entrants:
                session.merge(LadderEntrantModel(**vars(entrant)))

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
