"""Guandan as an OpenSpiel Python game (docs/rl.md, "OpenSpiel"): importing this module registers
``python_cardroom_guandan`` so that ``pyspiel.load_game("python_cardroom_guandan")`` works.

Four players (partners 0 & 2 and 1 & 3), imperfect information, explicit chance: each deal is dealt
card by card (108 chance nodes; outcome = card type 0–53, seat 0 receives the first 27 cards, seat 1 the
next 27, …), and the first deal's leader is one more chance node (outcomes 54–57: seats 0–3). Player
actions are the indices of the fixed action table (:mod:`cardroom.rl.actions`). Zero-sum: a team's
reward goes to both partners and its negative to both opponents.

Parameters: ``rules`` (a preset name with the competition plays: ``competition``, ``classic``,
``platform``), ``max_deals`` (the game ends after that many deals, or when the match ends; default 1)
and ``reward`` (``deal``: the sum of the deals' rises; ``match``: ±1 for the match's winners, 0 when the
deals run out level). The information-state and observation tensors are both the encoding of
:mod:`cardroom.rl.encoding` (its recent-history part is bounded, so the tensor is not perfect recall;
the information-state *string* is: the seat's dealt hand and every event it has seen).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from cardroom.cards import ALL_CARDS, Card, format_cards, sort_cards
from cardroom.guandan.deal import HAND_SIZE, Event
from cardroom.guandan.match import Match, MatchPhase
from cardroom.guandan.observation import Observation
from cardroom.rl.actions import (
    ACTION_TABLE,
    NUM_ACTIONS,
    IllegalActionError,
    Mask,
    action_of,
    legal_action_mask,
)
from cardroom.rl.encoding import OBSERVATION_SIZE, SLICES, card_planes, encode_observation
from cardroom.rl.render import render_text
from cardroom.rl.session import REWARDS, reward_scale, rules_of, team_rewards

SHORT_NAME: Final = "python_cardroom_guandan"
DEFAULTS: Final[dict[str, Any]] = {"rules": "competition", "max_deals": 1, "reward": "deal"}
DECK_SIZE: Final = 108
LEADER_BASE: Final = len(ALL_CARDS)
"""Chance outcomes ``LEADER_BASE + seat`` choose the first deal's leader."""
DEAL_LENGTH: Final = DECK_SIZE + 1 + 4 + 4 * DECK_SIZE
"""A bound on the moves of one deal: 108 cards dealt, the leader, two tributes and two returns, and at
most 108 plays each followed by at most three passes."""

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="cardroom Guandan",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=DEFAULTS,
)


class GuandanGame(pyspiel.Game):  # type: ignore[misc] # pyspiel has no type information
    """The game: its parameters and the bounds OpenSpiel needs."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**DEFAULTS, **(params or {})}
        self.rules = rules_of(str(values["rules"]))
        self.max_deals = int(values["max_deals"])
        self.reward = str(values["reward"])
        if self.max_deals < 1:
            raise ValueError(f"max_deals must be at least 1, got {self.max_deals}")
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {self.reward!r}")
        bound = reward_scale(self.rules, self.reward) * (self.max_deals if self.reward == "deal" else 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=LEADER_BASE + 4,
            num_players=4,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=self.max_deals * DEAL_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params or {})

    def new_initial_state(self) -> GuandanState:
        """A match before its first card is dealt."""
        return GuandanState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> GuandanObserver:
        """The observer behind the state's tensors and strings."""
        return GuandanObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class GuandanState(pyspiel.State):  # type: ignore[misc] # pyspiel has no type information
    """A match in progress: cards being dealt (chance), or a seat to act."""

    def __init__(self, game: GuandanGame) -> None:
        super().__init__(game)
        self.match = Match(game.rules, max_deals=game.max_deals)
        self.max_deals = game.max_deals
        self.reward = game.reward
        self.dealt: list[int] = []
        """Card types dealt so far in the deal being dealt."""
        self.team_returns = [0.0, 0.0]
        self.over = False
        self._observations: dict[int, Observation] = {}
        self._masks: dict[int, Mask] = {}

    # -- the pyspiel API -------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.match.current_player
        if self.match.phase is MatchPhase.DEALING or seat is None:
            return int(pyspiel.PlayerId.CHANCE)
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return [int(index) for index in np.flatnonzero(self.mask(player))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if len(self.dealt) < DECK_SIZE:
            dealt = Counter(self.dealt)
            left = DECK_SIZE - len(self.dealt)
            return [(index, (2 - dealt[index]) / left) for index in range(LEADER_BASE) if dealt[index] < 2]
        return [(LEADER_BASE + seat, 0.25) for seat in range(4)]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            if action >= LEADER_BASE:
                self._start_deal(action - LEADER_BASE)
                return
            self.dealt.append(action)
            if len(self.dealt) == DECK_SIZE and not self.match.needs_leader:
                self._start_deal(None)
            return
        match = self.match
        seat = match.current_player
        assert seat is not None
        if not 0 <= action < NUM_ACTIONS or not self.mask(seat)[action]:
            raise IllegalActionError(f"action {action} is not legal for seat {seat} now")
        chosen = action_of(action, self.observation(seat), check=False)
        deals = len(match.summaries)
        match.apply(chosen)
        self._forget()
        rewards = team_rewards(match, deals, self.reward)
        self.team_returns[0] += rewards[0]
        self.team_returns[1] += rewards[1]
        if match.is_over or len(match.summaries) >= self.max_deals:
            self.over = True

    def _start_deal(self, leader: int | None) -> None:
        hands = [
            sort_cards(ALL_CARDS[index] for index in self.dealt[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
            for seat in range(4)
        ]
        self.match.deal(hands, leader)
        self.dealt = []
        self._forget()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if action >= LEADER_BASE:
                return f"leader: seat {action - LEADER_BASE}"
            return f"deal {ALL_CARDS[action]}"
        return ACTION_TABLE[action].label

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        return [self.team_returns[player % 2] for player in range(4)]

    def __str__(self) -> str:
        text = render_text(self.match)
        if self.match.phase is MatchPhase.DEALING:
            text += f"\ndealing: {len(self.dealt)} of {DECK_SIZE} cards"
        return text

    # -- views -----------------------------------------------------------------------------------

    def observation(self, player: int) -> Observation:
        """``match.observation(player)``, remembered until the next action."""
        observation = self._observations.get(player)
        if observation is None:
            observation = self._observations[player] = self.match.observation(player)
        return observation

    def mask(self, player: int) -> Mask:
        """``legal_action_mask`` of the player's observation, remembered until the next action."""
        mask = self._masks.get(player)
        if mask is None:
            mask = self._masks[player] = legal_action_mask(self.observation(player))
        return mask

    def _forget(self) -> None:
        self._observations.clear()
        self._masks.clear()

    def dealt_to(self, player: int) -> tuple[Card, ...]:
        """The cards dealt so far to ``player`` in the deal being dealt."""
        start = player * HAND_SIZE
        return sort_cards(ALL_CARDS[index] for index in self.dealt[start : start + HAND_SIZE])

    def encode(self, player: int) -> npt.NDArray[np.float32]:
        """The encoding of the player's observation (while dealing: the cards dealt to it so far)."""
        vector = encode_observation(self.observation(player))
        if self.match.phase is MatchPhase.DEALING and not self.over:
            vector[SLICES["hand"]] = card_planes(self.dealt_to(player))
        return vector

    def observation_text(self, player: int) -> str:
        """What the player sees now, as text."""
        view = self.observation(player)
        lines = [
            f"seat {player}, {view.phase.value}, level {view.level.letter}, "
            f"levels {view.levels[0].letter}/{view.levels[1].letter}",
            f"hand: {format_cards(view.hand)}",
            "counts: " + " ".join(str(count) for count in view.card_counts),
        ]
        if self.match.phase is MatchPhase.DEALING and not self.over:
            lines[1] = f"dealt so far: {format_cards(self.dealt_to(player))}"
        if view.previous is not None:
            lines.append(f"to beat: {view.previous.describe()} by seat {view.previous_seat}")
        if view.current_player is not None:
            lines.append(f"to act: seat {view.current_player}")
        return "\n".join(lines)

    def history_text(self, player: int) -> str:
        """Everything the player has seen, in order (perfect recall)."""
        lines = [f"seat {player}"]
        for number, deal in enumerate(self.match.deals, start=1):
            lines.append(
                f"deal {number} at level {deal.level.letter}: {format_cards(deal.dealt_hands[player])}"
            )
            lines += [_event_text(event) for event in deal.events if event.visible_to(player)]
            if deal.leader is not None:
                lines.append(f"leader {deal.leader}")
        if self.match.phase is MatchPhase.DEALING and not self.over:
            lines.append(f"dealing: {format_cards(self.dealt_to(player))}")
        return "\n".join(lines)


def _event_text(event: Event) -> str:
    parts = [event.kind.value]
    if event.seat is not None:
        parts.append(str(event.seat))
    if event.card is not None:
        parts.append(str(event.card))
    if event.play is not None:
        parts.append(event.play.describe())
    if event.to is not None:
        parts.append(f"to {event.to}")
    if event.place is not None:
        parts.append(f"place {event.place}")
    return " ".join(parts)


class GuandanObserver:
    """OpenSpiel's observer: the encoding as ``tensor`` (``dict`` holds its named parts) and the
    observation or, for perfect recall, the whole seen history as a string."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own observation (public and its private information) is provided")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        self.dict = {name: self.tensor[part] for name, part in SLICES.items()}

    def set_from(self, state: GuandanState, player: int) -> None:
        self.tensor[:] = state.encode(player)

    def string_from(self, state: GuandanState, player: int) -> str:
        return state.history_text(player) if self.perfect_recall else state.observation_text(player)


pyspiel.register_game(GAME_TYPE, GuandanGame)


__all__ = ["DEFAULTS", "GAME_TYPE", "SHORT_NAME", "GuandanGame", "GuandanObserver", "GuandanState"]
