"""The seeded demo: a deal's four hands, then every legal lead of one hand grouped by kind."""

from __future__ import annotations

import random
from itertools import groupby

from rich.console import Console
from rich.table import Table

from cardroom.cards import Card, Rank, Suit
from cardroom.guandan import PlayKind, legal_leads, rank_order
from cardroom.guandan.match import shuffled_hands
from cardroom.guandan.rankplays import rank_leads
from cardroom.guandan.ruleset import COMPETITION, RuleSet

_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}


def _show(card: Card, level: Rank) -> str:
    if card.suit is None:
        return "[bold red]大王[/]" if card.rank == Rank.BIG_JOKER else "[bold]小王[/]"
    text = f"{_SYMBOLS[card.suit]}{'10' if card.rank == Rank.TEN else card.rank.letter}"
    if card.rank == level:
        style = "bold magenta" if card.suit is Suit.HEARTS else "bold yellow"
        return f"[{style}]{text}[/]"
    return f"[red]{text}[/]" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else text


def hand_by_level(hand: tuple[Card, ...], level: Rank, rules: RuleSet = COMPETITION) -> list[Card]:
    """A hand sorted as players hold it: by the rule set's order of ranks at this level, then suit."""
    return sorted(hand, key=lambda card: (rank_order(card.rank, level, rules), card.index))


def run_demo(seed: int, level: Rank, seat: int, console: Console, rules: RuleSet = COMPETITION) -> None:
    """Deal with ``random.Random(seed)`` and print the hands and every lead of ``seat``."""
    hands, _ = shuffled_hands(random.Random(seed))
    console.print(
        f"[bold]Guandan deal ({rules.name} rules), seed {seed}, level {level.letter}[/] "
        f"(♥{level.letter} wild cards in magenta, level cards in yellow)"
    )
    for number, hand in enumerate(hands):
        cards = " ".join(_show(card, level) for card in hand_by_level(hand, level, rules))
        console.print(f"seat {number}: {cards}")
    hand = hands[seat]
    leads = legal_leads(hand, level, rules)
    ranked = rank_leads(hand, level, rules)
    console.print(f"\n[bold]Seat {seat}: {len(leads)} legal leads[/] ({len(ranked)} at the rank level)")
    table = Table("kind", "count", "plays", show_lines=True)
    for kind, group in groupby(
        sorted(leads, key=lambda play: (play.kind, play.key)), key=lambda play: play.kind
    ):
        plays = list(group)
        shown = (
            " ".join(_show(card, level) for card in hand_by_level(play.cards, level, rules)) for play in plays
        )
        table.add_row(_kind_name(kind), str(len(plays)), " · ".join(shown))
    console.print(table)


def _kind_name(kind: PlayKind) -> str:
    return kind.name.lower().replace("_", " ") + {
        PlayKind.FULL_HOUSE: " 三带二",
        PlayKind.STRAIGHT: " 顺子",
        PlayKind.TUBE: " 三连对",
        PlayKind.PLATE: " 钢板",
        PlayKind.BOMB: " 炸弹",
        PlayKind.STRAIGHT_FLUSH: " 同花顺",
        PlayKind.FOUR_JOKERS: " 天王炸",
        PlayKind.AIRPLANE: " 飞机带翅膀",
        PlayKind.THREE_JOKERS: " 三王炸",
        PlayKind.CHAIN_BOMB: " 连环炸弹",
    }.get(kind, "")
