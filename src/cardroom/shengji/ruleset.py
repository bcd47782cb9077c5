"""Shengji (升级 / Tractor) rule sets: every rule players dispute is a named parameter.

:class:`ShengjiRules` is a frozen value validated on construction; its defaults are the rules of 打升級
as docs/rules/shengji.md reads them: the seven-level ladder 2, 5, 10, J, Q, K, A with the must-play stops 2, J
and A, and the result table of 40 points a level. Presets are values of it found by name (:func:`preset`):
``shengji`` (the default), ``shengji_all_ranks`` (every rank 2…A, common practice) and
``shengji_second_table`` (打升級's second result table). Code branches on parameters, never on a
preset's name. The arithmetic lives in :mod:`cardroom.shengji.scoring`, the match in
:mod:`cardroom.shengji.match`; docs/rulesets.md ("Shengji") links the rule of each parameter
(docs/rules/shengji.md).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from cardroom.cards import NATURAL_RANKS, Rank

ScoreTable = tuple[tuple[int, int], ...]
"""Rows of (the lowest score of the row, levels risen), by increasing score."""


@dataclass(frozen=True)
class ShengjiRules:
    """The parameters of a Shengji rule set: declaring, the kitty, tricks, the result table and levels."""

    name: str = "shengji"

    # --- the result table (升級標準); the score is the attackers' (抓分方) ---

    dealer_table: ScoreTable = ((0, 3), (5, 2), (40, 1))
    """Scores below the take-over score: the dealers (庄家) rise (seed: 0分 對方升三級；5—35分 對方升二級；
    40—75分 對方升一級). A score below the first row (after a penalty) reads as the first row."""

    attacker_table: ScoreTable = ((80, 0), (120, 1), (160, 2), (200, 3))
    """From the first row's score the attackers take over (上台, 倒庄) and rise by the row. 打升級 gives
    three tables. Default, its rule of 40 points a level (以 40 分為一個等級抓分方升相應等級; 80—115分 倒庄),
    as docs/rules/shengji.md#result-table reads it: 120–155 +1, 160–195 +2, 200+ +3. Its first paragraph then
    writes 大於等於 120 小於 160 ，抓分方升 12級 (garbled) and 大於等於 160 小於 200 ，抓分方連升 3級 (not
    modelled). Its second table, 二、升級標準: 120—145分 升二級；150分以上 升三級, is ``((80, 0), (120, 2),
    (150, 3))``, the
    ``shengji_second_table`` preset."""

    max_rise: int = 3
    """The most levels one deal can give (seed: 比賽中每局最高升級為三級 … 最多連升三級)."""

    # --- the kitty (底牌) and penalties ---

    kitty_single_multiplier: int = 2
    """Attackers winning the last trick (摳底) with a single add the kitty's points × this (seed: 底牌的分牌
    至少要加倍加到抓分方的得分中)."""

    kitty_pair_factor: int = 2
    """Each pair of the last trick's unit multiplies again (seed: 包含一對牌…按4倍計算，如果有二連對
    （拖拉機），則要按8倍計算，依此類推，每多一對…分數再加倍): ×2 single, ×4 pair, ×8 two-pair tractor,
    ×16 …"""

    kitty_throw_as_single: bool = True
    """A last trick led as a throw (甩牌) counts as a single (seed: 甩牌摳底按單摳計。如用兩張紅桃10和1張紅桃9
    甩牌摳底均為單摳). Off: by its unit with the most pairs."""

    failed_throw_penalty: int = 10
    """Points a failed throw gives the other side (seed: 否則將以出錯牌論處，罰10分給對方): added to the
    attackers' score when a dealer fails, taken from it when an attacker fails."""

    # --- declaring (叫主, 定主, 翻主) ---

    self_overturn: bool = False
    """The current declarer may overturn its own declaration (自反, listed in 打升級's 亮牌規則). Off:
    the later, explicit sentence: 自已叫主后本人不能再翻主 (only reinforcing, 自保 / 定主, is its own)."""

    big_jokers_over_small: bool = True
    """A pair of big jokers overturns a pair of small jokers (common practice; 打升級 says only 只能用一對
    小王或大王翻主). Off: the first joker pair stands (以先出現者為準)."""

    # --- tricks ---

    skip_level_in_tractor: bool = True
    """The ranks either side of the level rank are adjacent in a tractor (seed, at level 10: JJ99 is a
    拖拉機, JJ1010 is not). Read by the trick-play core."""

    # --- levels and the match ---

    levels: tuple[Rank, ...] = (Rank.TWO, Rank.FIVE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
    """The level ladder, lowest first; a team starts at the first and wins by passing the last (打过A).
    Default, 打升級's seven levels (升級牌為：2、5、10、J、Q、K、A七個級別): one level of the result table
    is one step along them. Common practice elsewhere plays every rank 2…A (``shengji_all_ranks``)."""

    must_play: tuple[Rank, ...] = (Rank.TWO, Rank.JACK, Rank.ACE)
    """Levels a rise stops at (必打): default 打升級's 其中逢2、J、A級必須打. 打升級 names no other
    stops, for either ladder."""

    reset_level: Rank | None = Rank.JACK
    """At this level, attackers winning the last trick with a card of it send the dealers back to the
    first level (seed: 莊家打J級時，對家用J牌摳底，莊家重新從2級開始). ``None``: no reset."""

    top_level_last_trick: bool = True
    """At the top level the dealers pass it only by also winning the last trick with a card of it (seed:
    打A，俗稱帶帽子，最後出牌時以A最大為勝利). Off: keeping the deal at A passes it."""

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a rule set needs a name")
        for table_name in ("dealer_table", "attacker_table"):
            table: ScoreTable = getattr(self, table_name)
            if not table or any(len(row) != 2 for row in table):
                raise ValueError(f"{table_name} must be rows of (lowest score, levels)")
            scores = [score for score, _ in table]
            if scores != sorted(set(scores)):
                raise ValueError(f"{table_name} scores must increase, got {scores}")
            if any(rise < 0 for _, rise in table):
                raise ValueError(f"{table_name} rises must be ≥ 0")
        if self.dealer_table[-1][0] >= self.attacker_table[0][0]:
            raise ValueError("dealer_table scores must stay below the take-over score (attacker_table[0])")
        if self.max_rise < 1:
            raise ValueError(f"max_rise must be ≥ 1, got {self.max_rise}")
        if self.kitty_single_multiplier < 1 or self.kitty_pair_factor < 1:
            raise ValueError("kitty multipliers must be ≥ 1")
        if self.failed_throw_penalty < 0:
            raise ValueError(f"failed_throw_penalty must be ≥ 0, got {self.failed_throw_penalty}")
        if len(self.levels) < 2 or list(self.levels) != sorted(set(self.levels)):
            raise ValueError("levels must be at least two increasing ranks")
        if any(level.is_joker for level in self.levels):
            raise ValueError("levels must be natural ranks")
        if not set(self.must_play) <= set(self.levels):
            raise ValueError("must_play levels must be on the level ladder")
        if self.reset_level is not None and self.reset_level not in self.levels:
            raise ValueError("reset_level must be on the level ladder")

    @property
    def take_over_score(self) -> int:
        """The lowest attackers' score that takes the deal over (80)."""
        return self.attacker_table[0][0]

    @property
    def first_level(self) -> Rank:
        return self.levels[0]

    @property
    def top_level(self) -> Rank:
        return self.levels[-1]

    def to_dict(self) -> dict[str, Any]:
        """The parameters as JSON-ready values (for records): ranks as letters, tables as lists."""
        return {item.name: _to_json(getattr(self, item.name)) for item in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> ShengjiRules:
        """Read parameters written by :meth:`to_dict` (missing ones take today's defaults: a record
        written by :meth:`to_dict` holds them all, so a later change of default leaves it as it was); an
        unknown name or a value of the wrong type raises ``ValueError`` naming the parameter."""
        fields = {item.name: item for item in dataclasses.fields(cls)}
        unknown = sorted(set(values) - set(fields))
        if unknown:
            raise ValueError(f"unknown rule-set parameters: {', '.join(unknown)}")
        defaults = cls()
        converted: dict[str, Any] = {}
        for name, value in values.items():
            try:
                converted[name] = _from_json(name, getattr(defaults, name), value)
            except (TypeError, ValueError) as error:
                raise ValueError(f"bad value for rule-set parameter {name}: {error}") from None
        return cls(**converted)


def _to_json(value: object) -> object:
    if isinstance(value, Rank):
        return value.letter
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    return value


def _integer(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _rank(value: object) -> Rank:
    rank = Rank.from_letter(value) if isinstance(value, str) else Rank(_integer(value))
    if rank.is_joker:
        raise ValueError(f"expected a natural rank, got {value!r}")
    return rank


def _list(value: object) -> list[object]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"expected a list, got {value!r}")
    return list(value)


_RANK_OR_NONE: Final = {"reset_level"}
_RANK_LISTS: Final = {"levels", "must_play"}
_TABLES: Final = {"dealer_table", "attacker_table"}


def _from_json(name: str, default: object, value: object) -> object:
    """A JSON value converted to the parameter's type."""
    if name in _RANK_OR_NONE:
        return None if value is None else _rank(value)
    if name in _RANK_LISTS:
        return tuple(_rank(item) for item in _list(value))
    if name in _TABLES:
        rows = [_list(row) for row in _list(value)]
        if any(len(row) != 2 for row in rows):
            raise ValueError("expected rows of [score, levels]")
        return tuple((_integer(row[0]), _integer(row[1])) for row in rows)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {value!r}")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {value!r}")
        return value
    return _integer(value)


SHENGJI: Final = ShengjiRules()
"""docs/rules/shengji.md: the 40-point result table, ×2/×4/×8 kitty, the seven levels 2, 5, 10, J,
Q, K, A with the must-play stops 2, J and A, the J reset and the A on the last trick."""

ALL_RANKS: Final = ShengjiRules(name="shengji_all_ranks", levels=NATURAL_RANKS)
"""Every rank 2…A a level, as common practice elsewhere plays; the rest as ``shengji``. The must-play
stops stay 打升級's 2, J and A: 打升級 names no other stops for this ladder."""

SECOND_TABLE: Final = ShengjiRules(name="shengji_second_table", attacker_table=((80, 0), (120, 2), (150, 3)))
"""打升級's second result table (二、升級標準: 120—145分 升二級；150分以上 升三級) on the default
seven-level ladder; the rest as ``shengji``."""

ALL_RANKS_SECOND_TABLE: Final = dataclasses.replace(
    ALL_RANKS, name="shengji_all_ranks_second_table", attacker_table=SECOND_TABLE.attacker_table
)
"""Both choices away from the default: every rank a level and 打升級's second result table."""

PRESETS: Final[dict[str, ShengjiRules]] = {
    rules.name: rules for rules in (SHENGJI, ALL_RANKS, SECOND_TABLE, ALL_RANKS_SECOND_TABLE)
}
"""The two choices players dispute, crossed: the ladder (打升級's seven levels, or every rank) and
the result table (40 points a level, or 打升級's second table)."""


def preset(name: str) -> ShengjiRules:
    """The preset of that name; a ``KeyError`` lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise KeyError(f"unknown Shengji rule set {name!r}; known: {known}") from None


__all__ = [
    "ALL_RANKS",
    "ALL_RANKS_SECOND_TABLE",
    "PRESETS",
    "SECOND_TABLE",
    "SHENGJI",
    "ScoreTable",
    "ShengjiRules",
    "preset",
]
