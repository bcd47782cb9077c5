"""Shared helpers of the record tests: the data folder and a fresh copy of the legal record."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from cardroom.records import read_record

DATA = Path(__file__).parent / "data"
_LEGAL = read_record(DATA / "legal.json")


@pytest.fixture
def legal() -> dict[str, Any]:
    """``data/legal.json``: a legal two-deal match (seed 1), the second deal opening with a tribute."""
    return copy.deepcopy(_LEGAL)
