"""The bot registry: bots by name, and bots added by the ``cardroom.bots`` entry points (imported only
when first made)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import EntryPoint

import pytest

from cardroom.bots import BOTS, RandomBot, base, make_bot


def test_unknown_names_list_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"unknown bot 'nobody'; known: .*heuristic.*random"):
        make_bot("nobody")


def test_entry_point_bots_are_made_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry point names a bot; registering it imports nothing, making it loads the class; a name
    already registered is not replaced."""
    points = [
        EntryPoint("plugged", "cardroom.bots.random_bot:RandomBot", base.ENTRY_POINTS),
        EntryPoint("random", "cardroom.bots.heuristic:HeuristicBot", base.ENTRY_POINTS),
    ]
    monkeypatch.setattr(base, "entry_points", lambda group: [p for p in points if p.group == group])
    monkeypatch.setitem(BOTS, "random", BOTS["random"])
    monkeypatch.delitem(BOTS, "plugged", raising=False)
    base.register_plugins()
    try:
        assert isinstance(make_bot("plugged", 1), RandomBot)
        assert isinstance(make_bot("random", 1), RandomBot)
    finally:
        BOTS.pop("plugged", None)


def test_the_dmc_bot_is_registered_without_importing_it() -> None:
    """The package's own entry point: in a fresh interpreter ``dmc`` is a known name once the bots are
    imported, and cardroom.rl (the layer above) is still not imported."""
    script = (
        "import sys, cardroom.bots as bots; "
        "print('dmc' in bots.BOTS, any(name.startswith('cardroom.rl') for name in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["True", "False"]
