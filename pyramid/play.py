"""Match: the one place where the world, the read-out, a game and its players meet.

Each turn: the player to move chooses among the legal actions; the world performs the action (or,
in fast mode, the state changes exactly); the read-out of the poses is what the game applies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from pyramid import geometry
from pyramid.agents.players import Player
from pyramid.rules import Action, Game, Outcome, Place, Remove, RemoveColumn, exact_result
from pyramid.state import Cell, PyramidState

if TYPE_CHECKING:
    from pyramid.agents import Controller
    from pyramid.physics.world import World
    from pyramid.skillgames.base import SkillGame, TurnRecord

DROP = 0.002  # metres: a placed die is released this far above its funnel


class Match:
    """A game played by ``players`` (one per seat), physically in ``world`` or exactly when it is None."""

    def __init__(
        self,
        game: Game,
        players: Sequence[Player],
        world: World | None = None,
        rng: np.random.Generator | None = None,
        log: Callable[[str], None] | None = None,
        drop: float = DROP,
    ) -> None:
        if len(players) != game.players:
            raise ValueError(f"{game.info.title} was set up for {game.players} players, got {len(players)}")
        self.game = game
        self.players = list(players)
        self.world = world
        self.rng = rng if rng is not None else game.rng
        self.log = log
        self.drop = drop
        self.slot_die: dict[geometry.Slot, int] = {}
        self.turns = 0
        self._events_seen = 0
        if world is not None and game.state:
            self.slot_die = world.build(game.state)
            self._settle_and_observe(None)

    def _say(self, text: str) -> None:
        if self.log is not None:
            self.log(text)

    def _flush_events(self) -> None:
        for event in self.game.events[self._events_seen :]:
            self._say(f"      {event}")
        self._events_seen = len(self.game.events)

    def _settle_and_observe(self, action: Action | None) -> PyramidState:
        assert self.world is not None
        self.world.settle()  # a world that never comes to rest raises NotAtRestError: no reading
        readout = self.world.readout()
        self.slot_die = dict(readout.slot_die)
        if action is None:
            self.game.observe(readout.pyramid)
        return readout.pyramid

    def perform(self, action: Action) -> PyramidState:
        """Carry out ``action``: exactly in fast mode, physically otherwise; returns the state read back."""
        up = geometry.ALL_UP_FACES[int(self.rng.integers(24))]
        if self.world is None:
            return exact_result(self.game.state, action, up)
        if isinstance(action, Place):
            die = self.world.assign_dice(PyramidState({action.slot: Cell(action.colour)}))[action.slot]
            self.world.place(die, action.slot, action.up or up, drop=self.drop)
        elif isinstance(action, Remove | RemoveColumn):
            slots = action.slots if isinstance(action, RemoveColumn) else (action.slot,)
            for slot in slots:
                if slot in self.slot_die:
                    self.world.remove(self.slot_die.pop(slot))
        return self._settle_and_observe(action)

    def step(self) -> Action:
        """One action by the player to move, performed and applied."""
        game = self.game
        seat = game.to_move
        action = self.players[seat].choose(game, game.legal_actions())
        observed = self.perform(action)
        game.apply(action, observed)
        self.turns += 1
        scores = " ".join(f"{s:g}" for s in game.scores())
        self._say(f"{self.turns:4d}. player {seat} ({self.players[seat].name}): {action}   [{scores}]")
        if isinstance(action, Place) and action.slot not in observed:
            self._say(f"      the die did not come to rest in {action.slot}")
        self._flush_events()
        return action

    def run(self) -> Outcome:
        """Play to the end and return the outcome."""
        self._flush_events()
        while self.game.outcome is None:
            self.step()
        return self.game.outcome


class SkillMatch:
    """A skill game played physically: each turn the player's controller acts until the game judges the turn over.

    The loop of a turn: read the world -> the game judges (going on, done, failed) -> the controller
    chooses a physical action (``pyramid.physics.actions``) -> the world performs it and the dice settle (the
    settling counts as the turn's time) -> read again. Turns stop at the game's ``time_limit`` of
    simulated seconds. ``make_world`` builds a fresh world for each turn, or one for the whole game
    when the game's dice stay on the plate between turns (``shared_world``).
    """

    def __init__(
        self,
        game: SkillGame,
        players: Sequence[Controller],
        make_world: Callable[[], World],
        rng: np.random.Generator,
        log: Callable[[str], None] | None = None,
        settle_timeout: float = 3.0,
        max_actions: int = 400,
    ) -> None:
        if len(players) != game.players:
            raise ValueError(f"{game.info.title} was set up for {game.players} players, got {len(players)}")
        self.game = game
        self.players = list(players)
        self.make_world = make_world
        self.rng = rng
        self.log = log
        self.settle_timeout = settle_timeout
        self.max_actions = max_actions
        self.world: World | None = None
        self._events_seen = 0

    def _say(self, text: str) -> None:
        if self.log is not None:
            self.log(text)

    def _flush_events(self) -> None:
        for event in self.game.events[self._events_seen :]:
            self._say(f"      {event}")
        self._events_seen = len(self.game.events)

    def play_turn(self) -> TurnRecord:
        """One player's turn, from the set-up to the game's verdict."""
        from pyramid.physics.actions import Lift, perform
        from pyramid.skillgames.base import TurnEnd

        game = self.game
        if self.world is None or not game.shared_world:
            if self.world is not None:
                self.world.close()
            self.world = self.make_world()
            game.prepare(self.world)
            self.world.settle(timeout=self.settle_timeout, raise_on_timeout=False)
        world, seat = self.world, game.to_move
        game.begin_turn(world)
        world.settle(timeout=self.settle_timeout, raise_on_timeout=False)
        player = self.players[seat]
        start, actions = world.time, 0
        self._say(f"turn {len(game.records) + 1}: player {seat} ({player.name})")
        while True:
            elapsed = world.time - start
            end = game.judge(world.readout(require_rest=False), elapsed)
            if end is None and elapsed >= game.time_limit:
                end = TurnEnd(False, f"time is up after {game.time_limit:g} s")
            if end is None and actions >= self.max_actions:
                end = TurnEnd(False, f"{actions} actions without an end")
            if end is not None:
                break
            action = player.act(game, world.readout(require_rest=False), elapsed)
            actions += 1
            if isinstance(action, Lift) and not game.lifts_dice_out:
                # The game keeps track of its dice: none may leave play by a hand.
                self._say(f"   refused: {action}: no die is lifted out in {game.info.title}")
                continue
            perform(world, action, self.rng)
            world.settle(timeout=self.settle_timeout, raise_on_timeout=False)
            self._say(f"   {world.time - start:7.2f} s  {action}")
        self._flush_events()
        record = game.end_turn(end, world.time - start, actions)
        verdict = "done" if end.success else "failed"
        self._say(f"   -> {verdict}: {end.note} ({record.time:.2f} s simulated, {actions} actions)")
        return record

    def run(self) -> Outcome:
        """Play every turn to the end and return the outcome."""
        while self.game.outcome is None:
            self.play_turn()
        return self.game.outcome
