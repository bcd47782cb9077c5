"""A throwaway PostgreSQL server for tests: its own cluster in a temporary folder, gone afterwards.

``postgres_cluster`` (session) runs ``initdb`` and ``pg_ctl`` (found on PATH or in
``/usr/lib/postgresql/*/bin``; ``scripts/install-postgres.sh`` installs them) on a free port, as a
non-root user when the tests run as root (PostgreSQL refuses root). ``postgres_url`` (per test) gives a
fresh, empty database on it. ``own_postgres_cluster`` (per test) is a server of the test's own, which
it may stop and start again (``stop_server``, ``start_server``). Without PostgreSQL the tests that use
them skip, naming why, unless ``CARDROOM_REQUIRE_POSTGRES=1`` is set: then they fail.

Use them in a test module by binding them there: ``postgres_cluster = postgres.postgres_cluster``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import psycopg
import pytest

from tests.ports import free_port

REQUIRE = "CARDROOM_REQUIRE_POSTGRES"
"""Set to 1 (CI) to turn a missing PostgreSQL into a failure instead of a skip."""

SUPERUSER = "cardroom"
_databases = itertools.count(1)


class PostgresUnavailableError(RuntimeError):
    """No PostgreSQL server could be started here (the message says why)."""


def find_bin_dir() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, else the newest ``/usr/lib/postgresql/*/bin``."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    candidates = [path.parent for path in Path("/usr/lib/postgresql").glob("*/bin/initdb")]
    candidates = [folder for folder in candidates if (folder / "pg_ctl").exists()]
    if not candidates:
        raise PostgresUnavailableError("initdb/pg_ctl not found on PATH or in /usr/lib/postgresql/*/bin")
    return max(candidates, key=lambda folder: _version_key(folder.parent.name))


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def server_user() -> pwd.struct_passwd | None:
    """The account to run the server as: None (ourselves) unless we are root, then postgres or nobody."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresUnavailableError("running as root and neither a 'postgres' nor a 'nobody' account exists")


class PostgresCluster:
    """One running PostgreSQL server in a temporary folder, trust authentication on 127.0.0.1 only."""

    def __init__(self) -> None:
        self.bin_dir = find_bin_dir()
        self.user = server_user()
        self.root = Path(tempfile.mkdtemp(prefix="cardroom-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 0
        if self.user is not None:
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)

    def _run(self, *args: str, timeout: float = 60) -> None:
        user = self.user
        try:
            subprocess.run(
                args,
                cwd=self.root,
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"},
                user=None if user is None else user.pw_uid,
                group=None if user is None else user.pw_gid,
                extra_groups=None if user is None else [],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                check=True,
                timeout=timeout,
            )
        except subprocess.CalledProcessError as error:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PostgresUnavailableError(
                f"{Path(args[0]).name} failed ({error.returncode}): {error.stderr.strip()[-2000:]}\n{log}"
            ) from error
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PostgresUnavailableError(f"{Path(args[0]).name} could not run: {error}") from error

    def start(self) -> None:
        """``initdb`` a UTF-8 cluster and start it on a free port (retrying if another process took it)."""
        self._run(
            str(self.bin_dir / "initdb"),
            "--pgdata",
            str(self.data),
            "--username",
            SUPERUSER,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--no-locale",
            "--no-sync",
        )
        for attempt in range(3):
            self.port = free_port()
            try:
                self.start_server()
                return
            except PostgresUnavailableError:
                if attempt == 2:
                    raise

    def start_server(self) -> None:
        """Start the server on its port (again, after :meth:`stop_server`: its databases as they were)."""
        options = (
            f"-p {self.port} -k {shlex.quote(str(self.root))} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            str(self.bin_dir / "pg_ctl"),
            "start",
            "--pgdata",
            str(self.data),
            "--log",
            str(self.log),
            "--wait",
            "--timeout",
            "30",
            "-o",
            options,
        )

    def stop_server(self) -> None:
        """Stop the server as an operator would (``pg_ctl stop``, fast: every client cut off, what
        was committed kept) and keep its folder, for :meth:`start_server`."""
        self._run(str(self.bin_dir / "pg_ctl"), "stop", "--pgdata", str(self.data), "-m", "fast", "-w")

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(
                    str(self.bin_dir / "pg_ctl"), "stop", "--pgdata", str(self.data), "-m", "immediate", "-w"
                )
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server, as a user of the card room would write it."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url(name)


def unavailable(reason: str) -> NoReturn:
    """Skip (or, with ``CARDROOM_REQUIRE_POSTGRES=1``, fail) the test that needs PostgreSQL."""
    message = f"PostgreSQL is not available: {reason}"
    if os.environ.get(REQUIRE, "") == "1":
        pytest.fail(f"{message} ({REQUIRE}=1 makes this a failure)", pytrace=False)
    pytest.skip(f"{message} (scripts/install-postgres.sh installs it; {REQUIRE}=1 makes this a failure)")


@contextlib.contextmanager
def running_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL server started for the block, stopped and deleted after it (skips without one)."""
    try:
        cluster = PostgresCluster()
    except PostgresUnavailableError as error:
        unavailable(str(error))
    try:
        cluster.start()
    except PostgresUnavailableError as error:
        cluster.stop()
        unavailable(str(error))
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """One PostgreSQL server for the whole test session, stopped and deleted at its end."""
    with running_cluster() as cluster:
        yield cluster


@pytest.fixture
def own_postgres_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL server for one test, which the test may stop and start again."""
    with running_cluster() as cluster:
        yield cluster


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    """A fresh empty database for one test: its ``postgresql://`` URL."""
    return postgres_cluster.create_database(f"test_{os.getpid()}_{next(_databases)}")
