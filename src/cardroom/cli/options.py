"""What the commands share: the open_console, options read and checked (a level, a rule set, a bot, Ray),
and the competition's logging."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import typer
from rich.console import Console

from cardroom.arena.ray_backend import LOCAL, RayUnavailableError, import_ray
from cardroom.bots import BOTS
from cardroom.cards import NotationError, Rank
from cardroom.guandan.ruleset import RuleSet, preset
from cardroom.records.render import plural
from cardroom.shengji.ruleset import PRESETS as SHENGJI_PRESETS
from cardroom.shengji.ruleset import ShengjiRules

RayFlag = Annotated[
    bool,
    typer.Option("--ray", help="Play on a local Ray instance started for the run (extra cardroom\\[ray])."),
]
RayAddress = Annotated[
    str | None,
    typer.Option(help="Play on the Ray cluster at this address (HOST:PORT, ray://HOST:10001 or auto)."),
]


def open_console() -> Console:
    """Rich's console for a command's output: lines wrap at the terminal's width, and not at all when
    the output is a pipe or a file (where Rich would wrap at 80 columns)."""
    made = Console()
    made.soft_wrap = not made.is_terminal
    return made


def level_of(text: str) -> Rank:
    """A level rank option, 2…A."""
    try:
        rank = Rank.from_letter(text)
    except NotationError as error:
        raise typer.BadParameter(str(error)) from None
    if rank.is_joker:
        raise typer.BadParameter("the level is a rank from 2 to A")
    return rank


def guandan_rules(name: str) -> RuleSet:
    """A Guandan rule-set preset option (``--rules``)."""
    try:
        return preset(name)
    except KeyError as error:
        raise typer.BadParameter(str(error.args[0]), param_hint="--rules") from None


def shengji_rules(name: str) -> ShengjiRules:
    """A Shengji rule-set preset option (``--rules``)."""
    if name not in SHENGJI_PRESETS:
        raise typer.BadParameter(
            f"unknown Shengji rule set {name!r}; available: {', '.join(sorted(SHENGJI_PRESETS))}",
            param_hint="--rules",
        )
    return SHENGJI_PRESETS[name]


def bot_name(name: str, option: str, bots: Mapping[str, object] = BOTS, game: str = "") -> str:
    """A bot option: one of ``bots`` (the Guandan bots by default; ``game`` names the others)."""
    if name not in bots:
        raise typer.BadParameter(
            f"unknown {game}bot {name!r}; available: {', '.join(sorted(bots))}", param_hint=option
        )
    return name


def ray_address_of(ray: bool, ray_address: str | None) -> str | None:
    """The Ray address ``--ray`` / ``--ray-address`` ask for (``None``: no Ray), checking Ray imports."""
    address = ray_address or (LOCAL if ray else None)
    if address is not None:
        try:
            import_ray()
        except RayUnavailableError as error:
            hint = "--ray-address" if ray_address else "--ray"
            raise typer.BadParameter(str(error), param_hint=hint) from None
    return address


def competition_logging(verbose: bool) -> None:
    """Log the competition server's and client's progress to stderr (once, however often called)."""
    import logging
    import sys

    class StderrHandler(logging.Handler):
        """Writes to the ``sys.stderr`` of the moment (a test runner may swap it)."""

        def emit(self, record: logging.LogRecord) -> None:
            try:
                sys.stderr.write(self.format(record) + "\n")
            except Exception:  # logging must never break the command
                self.handleError(record)

    logger = logging.getLogger("cardroom.competition")
    if not any(getattr(handler, "name", None) == "cardroom-cli" for handler in logger.handlers):
        handler = StderrHandler()
        handler.name = "cardroom-cli"
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO if verbose else logging.WARNING)


__all__ = [
    "RayAddress",
    "RayFlag",
    "bot_name",
    "competition_logging",
    "guandan_rules",
    "level_of",
    "open_console",
    "plural",
    "ray_address_of",
    "shengji_rules",
]
