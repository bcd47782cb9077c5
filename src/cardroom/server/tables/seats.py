"""Seat names and tokens: how a player's name is checked and what a table keeps of a seat's token.

A seat's token is a secret the table never stores: only its SHA-256 (:func:`token_hash`) is logged,
and a tournament's player and director tokens are kept the same way.
"""

from __future__ import annotations

import hashlib
import unicodedata

from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.config import MAX_NAME
from cardroom.server.tables.lookalikes import is_invisible


def token_hash(token: str) -> str:
    """What the table keeps of a seat token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def name_key(name: str) -> str:
    """A player's identity (a rated player's, an account's): the name, case-folded."""
    return name.strip().casefold()


def clean_name(name: object) -> str:
    """A player's name, a person's or a bot's: NFKC-normalised (full-width letters become plain
    ones), spaces at the ends removed, 1 to 40 characters of which none is a control, format
    (the bidirectional controls among them) or otherwise invisible character."""
    if not isinstance(name, str):
        raise ProtocolError.because("bad_message", "name_not_text", field="name", value=name)
    if any(unicodedata.category(char) == "Cs" for char in name):
        raise ProtocolError.because("bad_message", "lone_surrogate", field="name")
    text = unicodedata.normalize("NFKC", name).strip()
    if not text or len(text) > MAX_NAME:
        raise ProtocolError.because(
            "bad_message", "name_length", field="name", most=MAX_NAME, length=len(text)
        )
    shown_text(text)
    return text


def shown_text(text: str, field: str = "name") -> str:
    """``text`` as shown to everyone (a player's or a table's name), unchanged; a
    :class:`ProtocolError` naming ``field`` when it holds a control, format (the bidirectional
    controls among them) or otherwise invisible character, with which it could pose as another."""
    if any(unicodedata.category(char).startswith("C") for char in text):
        raise ProtocolError.because("bad_message", "control_characters", field=field)
    if any(is_invisible(char) for char in text):
        raise ProtocolError.because("bad_message", "invisible_characters", field=field)
    return text
