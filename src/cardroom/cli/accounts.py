"""``cardroom accounts``: the operator's side of the card room's accounts, on its database (the same
options as ``cardroom serve``): open an account, give it a role, reset its password, list them.
People open their own accounts on the web page (/account); the operator names the directors here."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.markup import escape
from rich.table import Table

from cardroom.cli.options import DatabaseUrlOption, DataFolderOption, open_console

if TYPE_CHECKING:
    from cardroom.server.accounts.accounts import Accounts, Role

app = typer.Typer(help="The card room's accounts: create one, give it a role, reset a password, list them.")

NameArgument = Annotated[str, typer.Argument(help="The account's name (any case).")]
RoleArgument = Annotated[str, typer.Argument(help="player, or director (creates and runs events).")]
PasswordStdin = Annotated[
    bool,
    typer.Option(
        "--password-stdin", help="Read the password from standard input's first line, not a prompt."
    ),
]


@contextmanager
def _accounts(
    database_url: str | None, data: DataFolderOption, *, create: bool = False
) -> Iterator[Accounts]:
    """The accounts of the card room's database (migrated to the newest schema, as the server does);
    an account refused is told, with the database it was looked for in, and ends the command. Only
    ``create`` makes a new SQLite database: the others refuse a data folder without one, naming it."""
    from cardroom.server.accounts.accounts import AccountError, Accounts
    from cardroom.server.api.app import default_data_dir
    from cardroom.server.storage.store import DATABASE_FILE, Store

    url = database_url or os.environ.get("DATABASE_URL", "").strip()
    if url:
        where = "the database at --database-url" if database_url else "the database at $DATABASE_URL"
    else:
        folder = (data if data is not None else default_data_dir()).expanduser().resolve()
        path = folder / DATABASE_FILE
        where = f"the data folder {folder}"
        if not create and not path.exists():
            _fail(
                f"no card room database in {where} (no {DATABASE_FILE} there): give the folder the server "
                "uses with --data (or $CARDROOM_DATA), or its --database-url"
            )
        folder.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{path}"
    store = Store(url)
    try:
        yield Accounts(store)
    except AccountError as error:
        _fail(f"{error.message} in {where}")
    finally:
        store.close()


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    password: str = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    return password


def _role(text: str) -> Role:
    from cardroom.server.accounts.accounts import ROLES

    if text not in ROLES:
        _fail(f"role: one of {', '.join(ROLES)}, got {text!r}")
    return "director" if text == "director" else "player"


def _fail(message: str) -> NoReturn:
    open_console().print(f"[red]{escape(message)}[/red]")
    raise typer.Exit(1)


@app.command("create")
def create_command(
    name: NameArgument,
    role: Annotated[str, typer.Option(help="player, or director (creates and runs events).")] = "player",
    password_stdin: PasswordStdin = False,
    database_url: DatabaseUrlOption = None,
    data: DataFolderOption = None,
) -> None:
    """Open an account (the password is asked twice, or read from standard input)."""
    chosen = _role(role)
    password = _password(password_stdin)
    with _accounts(database_url, data, create=True) as accounts:
        account = accounts.register(name, password, chosen)
    open_console().print(f"Account [bold]{escape(account.name)}[/bold] opened ({account.role}).")


@app.command("role")
def role_command(
    name: NameArgument,
    role: RoleArgument,
    database_url: DatabaseUrlOption = None,
    data: DataFolderOption = None,
) -> None:
    """Give an account a role: ``director`` creates and runs events; ``player`` takes it back."""
    chosen = _role(role)
    with _accounts(database_url, data) as accounts:
        account = accounts.set_role(name, chosen)
    open_console().print(f"{escape(account.name)} is now a {account.role}.")


@app.command("password")
def password_command(
    name: NameArgument,
    password_stdin: PasswordStdin = False,
    database_url: DatabaseUrlOption = None,
    data: DataFolderOption = None,
) -> None:
    """Set a new password for an account; every browser signed in to it is signed out."""
    password = _password(password_stdin)
    with _accounts(database_url, data) as accounts:
        accounts.set_password(name, password)
    open_console().print(f"The password of {escape(name)} is set; its sessions are ended.")


@app.command("list")
def list_command(database_url: DatabaseUrlOption = None, data: DataFolderOption = None) -> None:
    """Every account: its name, role (``bot`` for a bot account) and when it was opened."""
    from cardroom.server.tables.seats import is_bot_account

    with _accounts(database_url, data) as accounts:
        rows = accounts.store.accounts()
    table = Table("name", "role", "opened")
    for row in rows:
        role = "bot" if is_bot_account(row.key) else row.role
        table.add_row(escape(row.name), role, row.created.strftime("%Y-%m-%d %H:%M UTC"))
    open_console().print(table if rows else "No accounts yet.")
