"""Guandan rule sets: every rule that differs between sources is a named parameter.

A :class:`RuleSet` is a frozen value validated on construction; presets are values of it found by
name (:func:`preset`). Code branches on parameters, never on a preset's name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any, Final

from cardroom.cards import Rank


class ReturnLimit(Enum):
    """When the return card (还贡) must be at most the limit rank."""

    ALWAYS = "always"
    """Every return (docs/rules/competition.md#return-card:
    上游选择全手牌中任意一张牌点不得超过10的牌还给下游)."""
    TO_PARTNER = "to_partner"
    """Only a return to one's partner; a return to an opponent may be any card."""
    NEVER = "never"
    """Any card may be returned (docs/rules/huopin.md#return-card: 贏家還一張任意牌)."""


class DoubleTributeLead(Enum):
    """Who leads the first trick after a double tribute (双下)."""

    PAYER_TO_FIRST = "payer_to_first"
    """The one who gave to 上游 (docs/rules/competition.md#lead-after-tribute:
    還牌後，均由進貢給上游者首圈領出牌); with the larger tribute going to 上游, also the payer of the larger
    tribute (docs/rules/platform.md#lead-after-tribute)."""
    LAST_PLACE = "last_place"
    """The 下游, who finished last (docs/rules/huopin.md#lead-after-tribute: 最末家可先出牌)."""


class AceFailure(Enum):
    """What counts as a failure at A towards ``ace_failure_limit``."""

    FAILED_DEAL = "failed_deal"
    """Every deal at the team's own A that does not pass it."""
    OVERTHROWN = "overthrown"
    """Only a deal at the team's own A in which the other team takes 上游 and so takes the stage
    (docs/rules/classic.md#ace-failures:
    升到A時，被推翻，再上臺，又被推翻，第三次上臺又被推翻…倒退回第2級)."""


@dataclass(frozen=True)
class RuleSet:
    """The parameters of a Guandan rule set: plays, tribute, level-up and the match."""

    name: str = "competition"

    natural_straight_flush_is_straight: bool = False
    """Five natural cards of one suit in sequence may also be played as a plain straight (顺子).
    Off in the competition rules, as in the organisers' own engine: they are a straight flush only."""

    # --- the combination engine (plays); competition values by default, docs/rules/huopin.md in HUOPIN ---

    level_rank_high: bool = True
    """The level rank is lifted above A for singles, pairs, triples, full houses and bombs
    (docs/rules/competition.md#rank-order: 級牌大於A). Off in 火拚摜蛋 (docs/rules/huopin.md#rank-order),
    whose order is fixed: 從大至小以次為：大王、小王、2、A、K…3 (the ♥ level cards stay wild: 逢人配)."""

    two_high: bool = False
    """2 ranks above A (below the jokers, and below the level rank where that is lifted) for singles,
    pairs, triples, full houses and bombs (docs/rules/huopin.md#rank-order: 大王、小王、2、A、K、Q…3).
    Sequences keep the natural line A2345 … 10JQKA either way."""

    straight_lengths: tuple[int, int] = (5, 5)
    """Fewest and most ranks in a straight 顺子 (docs/rules/competition.md#straight: exactly five;
    docs/rules/huopin.md#straight: 任意五張或者5張以上點數相連的牌, at most 13 ranks with an ace at one end
    only). A straight flush is five cards in every rule set (docs/rules/huopin.md#straight-flush:
    相同花色的連續五張牌); a longer run of one suit is a plain straight."""

    tube_lengths: tuple[int, int] = (3, 3)
    """Fewest and most pairs in a 连对 (docs/rules/competition.md#tube: 三连对, exactly three;
    docs/rules/huopin.md#tube: 三對或者三對以上點數相連的牌)."""

    plate_lengths: tuple[int, int] = (2, 2)
    """Fewest and most triples in a 连三张 / 钢板 (docs/rules/competition.md#plate: two;
    docs/rules/huopin.md#plate: 二個或者二個以上點數相連的三張牌)."""

    airplanes: bool = False
    """飞机带翅膀 (docs/rules/huopin.md#airplane: 三順+同數量的一對牌 …
    所帶的一對牌，必須是連順；不允許出現：333444+6688): n consecutive triples (n as ``plate_lengths`` allows,
    at least 2) with n pairs whose ranks are themselves consecutive, of ranks other than the triples' (the
    wings are pairs of other ranks, as the pair of a full house is); compared by the top triple among
    airplanes of as many cards."""

    max_bomb_size: int = 10
    """The most cards in a bomb of one rank: 10 (eight natural cards and both ♥ level cards,
    docs/rules/competition.md#wild-cards); 12 in huopin (docs/rules/huopin.md#bomb: X相炸彈 … 4<=X<=12;
    the two big jokers may join as wild cards)."""

    three_jokers_bomb: bool = False
    """三王炸彈 (docs/rules/huopin.md#three-jokers: 任意三個王的牌型): any three jokers are a bomb (6★, the
    lowest of the 6★)."""

    chain_bomb_lengths: tuple[int, int] = (0, 0)
    """X相Y連環炸彈 (docs/rules/huopin.md#chain-bomb: Y組點數相連 (3<=Y<=6) 且牌數同為X的炸彈;
    小王不能出現在此牌型中): Y bombs of X cards each (X ≥ 4) on Y consecutive ranks, with Y in this range;
    ``(0, 0)``: none."""

    big_joker_wild: bool = False
    """The big joker is a second kind of wild card (docs/rules/huopin.md#big-joker:
    大王（包括兩個大王）和別的牌型一起出的時候，可以做任意一張滿足牌型需要的萬能牌。如果大王可以替代的牌存在一
    種以上的選擇的時候，則選擇大的牌型為優先。大王可以搭配小王一起出). Read as: played with at least one card
    that is not a big joker, each big joker may stand for any card, the small joker included
    (大王可以搭配小王一起出: 小王+大王 is a pair of small jokers) and itself; played alone or as a pair it is
    itself. 选择大的牌型为优先: a set of cards holding a big joker (with another card) is offered only in its
    largest readings, those that no other reading of the same cards beats (4567+大王 is 45678 only,
    777+大王大王 a bomb only). When a play holds only ♥ level cards and big jokers, the ♥ level cards are
    level cards."""

    bombs_by_stars: bool = False
    """Bombs compare by star level (docs/rules/huopin.md#bomb-order:
    同為炸彈的牌型，先按照星級比較大小；如果星級相同，則按照牌的數量比較大小，數量越少的越大；如果數量相同，則
    按照牌型中最大牌的點數比較大小): an X-card bomb is X★, a chained bomb X+Y★, three jokers 6★ (lowest of the
    6★), four jokers 7★ (highest of the 7★); a straight flush sits between 5★ and 6★ (our choice,
    docs/rules/huopin.md#bomb-order: the text is silent). Off: the competition ladder."""

    partner_rises: tuple[int, int, int] = (3, 2, 1)
    """Levels the 上游's team rises when the partner finishes 二游, 三游, 下游."""

    pass_ace_partner_place: int = 3
    """A team playing its own A wins the match (打过A) when it takes 上游 and the partner finishes
    no worse than this place (3: not 下游, docs/rules/competition.md#passing-ace: 必须同伴获得二游或三游)."""

    ace_failure_limit: int | None = None
    """After this many failed deals at its own A, a team goes back to level 2 (``None``: no limit)."""

    anti_tribute_big_jokers: int = 2
    """The paying side holding this many big jokers pays no tribute (抗贡)."""

    return_limit_rank: Rank = Rank.TEN
    """The return card may be at most this rank (2022 national trial rules: 10)."""

    return_limit: ReturnLimit = ReturnLimit.ALWAYS
    """When the limit binds."""

    return_limit_by_face_value: bool = False
    """Judge the limit by face value (a level card of rank ≤ 10 may be returned). Off: level cards
    rank above A and are never within the limit."""

    lead_passes_to_partner: bool = True
    """接风: when a player goes out and nobody beats the last play, the partner leads; off, the next
    player still in (the old rule)."""

    tie_extra_deal: bool = True
    """A match limited by deals that ends level plays one more deal (docs/rules/competition.md#tie-extra-deal:
    可加打一副牌)."""

    ace_failure: AceFailure = AceFailure.FAILED_DEAL
    """What counts towards ``ace_failure_limit``."""

    double_tribute_by_place: bool = False
    """In a double tribute 上游 takes the 下游's card and 二游 the 三游's
    (docs/rules/classic.md#double-tribute: 頭科吃大落的，二科吃二落的). Off: 上游 takes the larger card, equal
    cards by seat order (docs/rules/competition.md#tribute-double)."""

    small_jokers_exempt_payer: bool = False
    """A payer holding both small jokers pays no tribute; the other payer still does
    (docs/rules/classic.md#exemptions: 如果進貢一方，有一人摸到兩張副畫，則此人不用進貢，另一人仍然進貢)."""

    double_tribute_lead: DoubleTributeLead = DoubleTributeLead.PAYER_TO_FIRST
    """Who leads after a double tribute."""

    first_deal_on_stage: bool = False
    """The first deal's leader's team is 庄家, on stage, and the first deal plays its level
    (docs/rules/classic.md#first-deal-on-stage: 誰摸到這張牌，誰就先出牌，同時他所在的隊是莊家). Off: the
    first deal belongs to no team."""

    first_stage_without_rise: bool = False
    """A team taking 上游 that has never been on stage goes on stage at its level without rising
    (docs/rules/classic.md#first-stage: 乙方另一人無論在第一局中戰況如何也不升級，乙方第一次坐莊先從第2級開始;
    once it has played its own level, taking 上游 from off stage rises as usual:
    因為已經打過一次2級，本局升一級)."""

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a rule set needs a name")
        if len(self.partner_rises) != 3 or any(rise < 0 for rise in self.partner_rises):
            raise ValueError(f"partner_rises must be three levels ≥ 0, got {self.partner_rises!r}")
        if self.pass_ace_partner_place not in (2, 3, 4):
            raise ValueError(f"pass_ace_partner_place must be 2, 3 or 4, got {self.pass_ace_partner_place}")
        if self.ace_failure_limit is not None and self.ace_failure_limit < 1:
            raise ValueError(f"ace_failure_limit must be ≥ 1 or None, got {self.ace_failure_limit}")
        if self.anti_tribute_big_jokers not in (1, 2):
            raise ValueError(f"anti_tribute_big_jokers must be 1 or 2, got {self.anti_tribute_big_jokers}")
        if self.return_limit_rank.is_joker:
            raise ValueError("return_limit_rank must be a natural rank")
        self._check_play_parameters()

    def _check_play_parameters(self) -> None:
        """Validate the combination engine's parameters (called by ``__post_init__``)."""
        for name, low in (("straight_lengths", 3), ("tube_lengths", 2), ("plate_lengths", 2)):
            fewest, most = getattr(self, name)
            if not low <= fewest <= most <= 13:
                raise ValueError(f"{name} must be (fewest, most) with {low} ≤ fewest ≤ most ≤ 13")
        if not 4 <= self.max_bomb_size <= 12:
            raise ValueError(f"max_bomb_size must be 4…12, got {self.max_bomb_size}")
        fewest, most = self.chain_bomb_lengths
        if (fewest, most) != (0, 0) and not 2 <= fewest <= most <= 13:
            raise ValueError(
                "chain_bomb_lengths must be (0, 0) or (fewest, most) with 2 ≤ fewest ≤ most ≤ 13"
            )
        if ((fewest, most) != (0, 0) or self.three_jokers_bomb) and not self.bombs_by_stars:
            raise ValueError("chained and three-joker bombs are placed by star level: set bombs_by_stars")

    @cached_property
    def extended_plays(self) -> bool:
        """Whether any play parameter differs from the competition's: such a rule set's plays come from
        :mod:`cardroom.guandan.extended` (and stay with the pure engine; docs/performance.md)."""
        return (
            self.two_high
            or not self.level_rank_high
            or self.big_joker_wild
            or self.bombs_by_stars
            or self.airplanes
            or self.three_jokers_bomb
            or self.max_bomb_size != 10
            or self.straight_lengths != (5, 5)
            or self.tube_lengths != (3, 3)
            or self.plate_lengths != (2, 2)
            or self.chain_bomb_lengths != (0, 0)
        )

    def to_dict(self) -> dict[str, Any]:
        """The parameters as JSON-ready values (for records): ranks as letters, enums as their values."""
        return {item.name: _to_json(getattr(self, item.name)) for item in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> RuleSet:
        """Read parameters written by :meth:`to_dict` (missing ones take their defaults); an unknown
        name or a value of the wrong type raises ``ValueError`` naming the parameter."""
        known = {item.name for item in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown rule-set parameters: {', '.join(unknown)}")
        defaults = cls()
        converted: dict[str, Any] = {}
        for name, value in values.items():
            try:
                converted[name] = _from_json(getattr(defaults, name), value)
            except (TypeError, ValueError) as error:
                raise ValueError(f"bad value for rule-set parameter {name}: {error}") from None
        return cls(**converted)


def _to_json(value: object) -> object:
    if isinstance(value, Rank):
        return value.letter
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def _integer(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _from_json(default: object, value: object) -> object:
    """A JSON value converted to the type of the parameter's default."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {value!r}")
        return value
    if isinstance(default, Rank):
        if isinstance(value, str):
            return Rank.from_letter(value)
        return Rank(_integer(value))
    if isinstance(default, Enum):
        return type(default)(value)
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, got {value!r}")
        return tuple(_integer(item) for item in value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {value!r}")
        return value
    if value is None and default is None:
        return None
    return _integer(value)


COMPETITION: Final = RuleSet()
"""Tournament Guandan: the Huai'an competition rules (docs/rules/competition.md), kept by the 2022 national
trial rules."""

CLASSIC: Final = RuleSet(
    name="classic",
    pass_ace_partner_place=2,
    ace_failure_limit=3,
    ace_failure=AceFailure.OVERTHROWN,
    double_tribute_by_place=True,
    small_jokers_exempt_payer=True,
    first_deal_on_stage=True,
    first_stage_without_rise=True,
)
"""The older house rules of “摜蛋”的打法 (docs/rules/classic.md): 庄家 on stage, A needs 头科 + 二科, three
times thrown off stage at A sends a team back to 2; see docs/rulesets.md."""

PLATFORM: Final = RuleSet(name="platform", partner_rises=(4, 2, 1), ace_failure_limit=3)
"""Online Guandan of 掼蛋方法规则 (docs/rules/platform.md): 双下 earns +4 (奖励多晋一级); three failed deals
at A send a team back to 2; rating points and titles in :mod:`cardroom.guandan.platform_points`."""

HUOPIN: Final = RuleSet(
    name="huopin",
    level_rank_high=False,
    two_high=True,
    straight_lengths=(5, 13),
    tube_lengths=(3, 13),
    plate_lengths=(2, 13),
    airplanes=True,
    max_bomb_size=12,
    three_jokers_bomb=True,
    chain_bomb_lengths=(3, 6),
    big_joker_wild=True,
    bombs_by_stars=True,
    return_limit=ReturnLimit.NEVER,
    double_tribute_lead=DoubleTributeLead.LAST_PLACE,
)
"""火拼掼蛋 (docs/rules/huopin.md): long sequences, airplanes with wings, bombs of up to 12 cards, three-joker
and chained bombs compared by stars, the big joker as a second wild card, 2 above A (see docs/plays.md);
any card may be returned, and the 下游 leads after a double tribute (docs/rulesets.md). Its per-deal
score is :mod:`cardroom.guandan.huopin_score`."""

PRESETS: Final[dict[str, RuleSet]] = {rules.name: rules for rules in (COMPETITION, CLASSIC, PLATFORM, HUOPIN)}


def preset(name: str) -> RuleSet:
    """The preset of that name; a ``KeyError`` lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise KeyError(f"unknown rule set {name!r}; known: {known}") from None
