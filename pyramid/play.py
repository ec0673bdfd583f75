"""Match: the one loop where the world, the read-out, a game and its players meet, for every kind of game.

The game says what comes next (``phase``). DECIDE: the player to move chooses among the legal actions;
on the pyramid the world performs the choice (or, in fast mode, the state changes exactly) and the
read-out of the poses is what the game applies. CHANCE: the world rolls the dice the game asks for
(thrown on the table, or drawn in fast mode). PHYSICAL: the player's hands act in the world until
the game, reading the poses, judges the turn over. The CLI, the window and experiments all run this.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numpy as np

from pyramid import geometry
from pyramid.agents.controller import Controller
from pyramid.agents.players import Player
from pyramid.agents.seats import make_seat
from pyramid.physics import actions
from pyramid.physics.roller import FastRoller, PhysicalRoller, Roller
from pyramid.physics.settings import Physics
from pyramid.physics.world import World
from pyramid.rules import (
    Action,
    Game,
    GameBase,
    Move,
    Outcome,
    Phase,
    Place,
    Remove,
    RemoveColumn,
    Rolled,
    exact_result,
)
from pyramid.skillgames.base import SkillGame, TurnEnd, TurnRecord
from pyramid.state import Cell, PyramidState
from pyramid.units import PLACE_DROP


class Match:
    """``game`` played by ``players`` (one per seat), physically or exactly.

    - Board games play in ``world`` (built from the game's state), or exactly when it is None.
    - Skill games play physically only: ``make_world`` builds a fresh world for each turn, or one
      for the whole game when its dice stay on the plate between turns (``shared_world``). A turn
      stops at the game's ``time_limit`` (simulated seconds) or after ``max_actions``.
    - Table games ask ``roller`` for their dice (thrown on the table, or drawn).
    """

    def __init__(
        self,
        game: GameBase,
        players: Sequence[Player | Controller],
        world: World | None = None,
        rng: np.random.Generator | None = None,
        log: Callable[[str], None] | None = None,
        drop: float = PLACE_DROP,
        *,
        make_world: Callable[[], World] | None = None,
        roller: Roller | None = None,
        settle_timeout: float = 3.0,
        max_actions: int = 400,
    ) -> None:
        if len(players) != game.players:
            raise ValueError(f"{game.info.title} was set up for {game.players} players, got {len(players)}")
        if isinstance(game, SkillGame) and make_world is None:
            raise ValueError(f"{game.info.title} is a game of physical skill: it has no fast mode")
        self.game = game
        self.players = list(players)
        self.world = world
        self.make_world = make_world
        self.rng = rng if rng is not None else game.rng
        self.roller = roller if roller is not None else FastRoller(self.rng)
        self.log = log
        self.drop = drop
        self.settle_timeout = settle_timeout
        self.max_actions = max_actions
        self.slot_die: dict[geometry.Slot, int] = {}
        self.turns = 0
        self._resumed: float | None = None  # seconds of a saved turn already gone (``resume_turn``)
        self._events_seen = 0
        # A table game's messages are its own lines; the pyramid's games indent theirs under the turn.
        self._indent = "" if game.kind == "table" else "      "
        if world is not None and isinstance(game, Game) and game.state:
            self.slot_die = world.build(game.state)
            self._settle_and_observe(None)

    # -- the loop ------------------------------------------------------------------------------

    def run(self) -> Outcome:
        """Play to the end and return the outcome."""
        self._flush_events()
        while self.game.outcome is None:
            self.advance()
        return self.game.outcome

    def advance(self) -> None:
        """One step of whatever the game waits for: a decision, a roll or a physical turn."""
        phase = self.game.phase()
        if phase is Phase.DECIDE:
            self.step()
        elif phase is Phase.CHANCE:
            self.roll()
        elif phase is Phase.PHYSICAL:
            self.play_turn()

    def _say(self, text: str) -> None:
        if self.log is not None:
            self.log(text)

    def _flush_events(self) -> None:
        for event in self.game.events[self._events_seen :]:
            self._say(f"{self._indent}{event}")
        self._events_seen = len(self.game.events)

    def _seat(self, seat: int) -> Any:
        return self.players[seat]

    # -- decisions -----------------------------------------------------------------------------

    def step(self) -> Any:
        """One choice by the player to move, carried out and applied."""
        game = self.game
        if not isinstance(game, Game):
            self._flush_events()
            seat = game.to_move
            choice = self._seat(seat).choose(game, game.legal_actions())
            game.apply(choice)  # type: ignore[attr-defined]
            self._flush_events()
            return choice
        seat = game.to_move
        action = self._seat(seat).choose(game, game.legal_actions())
        observed = self.perform(action)
        game.apply(action, observed)
        self.turns += 1
        scores = " ".join(f"{s:g}" for s in game.scores())
        self._say(f"{self.turns:4d}. player {seat} ({self.players[seat].name}): {game.told(action)}   [{scores}]")
        if isinstance(action, Place) and action.slot not in observed:
            self._say(f"      the die did not come to rest in {action.slot}")
        self._flush_events()
        return action

    def _settle_and_observe(self, action: Action | None) -> PyramidState:
        assert self.world is not None and isinstance(self.game, Game)
        self.world.settle()  # a world that never comes to rest raises NotAtRestError: no reading
        readout = self.world.readout()
        self.slot_die = dict(readout.slot_die)
        if action is None:
            self.game.observe(readout.pyramid)
        return readout.pyramid

    def perform(self, action: Action) -> PyramidState:
        """Carry out a board game's ``action``: exactly in fast mode, physically otherwise; the state read back."""
        assert isinstance(self.game, Game)
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
        elif isinstance(action, Move):
            self._carry(action, up)
        return self._settle_and_observe(action)

    def _carry(self, move: Move, up: geometry.UpFaces) -> None:
        """A hand carries ``move``'s dice: lifts them top first, sets them down lowest first, faces kept."""
        assert self.world is not None and isinstance(self.game, Game)
        held = []
        for source, target in sorted(move.steps, key=lambda step: geometry.layer(step[0])):
            if source in self.slot_die:
                die = self.slot_die.pop(source)
                self.world.remove(die)
                held.append((die, self.game.state[source].up or up, target))
        for die, faces, target in sorted(held, key=lambda h: -geometry.layer(h[2])):
            self.world.place(die, target, faces, drop=self.drop)

    # -- chance --------------------------------------------------------------------------------

    def roll(self) -> Rolled:
        """The dice a table game asks for, rolled by the world (or drawn), applied to the game."""
        game = self.game
        self._flush_events()
        request = game.chance()  # type: ignore[attr-defined]
        rolled = Rolled(tuple(self.roller.roll(request.dice)))
        game.apply(rolled)  # type: ignore[attr-defined]
        self._flush_events()
        return rolled

    # -- physical turns ------------------------------------------------------------------------

    def resume_turn(self, world: World, elapsed: float) -> None:
        """Go on with a skill game's turn saved ``elapsed`` s in: ``world`` is its world as it was then (the game
        as saved, with the turn begun); the next ``play_turn`` sets nothing out and its clock starts at ``elapsed``."""
        if not isinstance(self.game, SkillGame):
            raise ValueError(f"{self.game.info.title} has no physical turns to resume")
        if self.world is not None and self.world is not world:
            self.world.close()
        self.world, self._resumed = world, elapsed

    def play_turn(self) -> TurnRecord:
        """One player's turn of a skill game, from the set-up to the game's verdict."""
        game = self.game
        assert isinstance(game, SkillGame) and self.make_world is not None
        resumed, self._resumed = self._resumed, None
        if resumed is None and (self.world is None or not game.shared_world):
            if self.world is not None:
                self.world.close()
            self.world = self.make_world()
            game.prepare(self.world)
            self.world.settle(timeout=self.settle_timeout, raise_on_timeout=False)
        assert self.world is not None
        world, seat = self.world, game.to_move
        if resumed is None:
            game.begin_turn(world)
            world.settle(timeout=self.settle_timeout, raise_on_timeout=False)
        player = self._seat(seat)
        start, done = world.time - (resumed or 0.0), 0
        again = f", resumed {resumed:.3g} s in" if resumed is not None else ""
        self._say(f"turn {len(game.records) + 1}: player {seat} ({player.name}){again}")
        while True:
            elapsed = world.time - start
            end = game.judge(world.readout(require_rest=False), elapsed)
            if end is None and elapsed >= game.time_limit:
                end = TurnEnd(False, f"time is up after {game.time_limit:g} s")
            if end is None and done >= self.max_actions:
                end = TurnEnd(False, f"{done} actions without an end")
            if end is not None:
                break
            action = player.act(game, world.readout(require_rest=False), elapsed)
            done += 1
            if isinstance(action, actions.Lift) and not game.lifts_dice_out:
                # The game keeps track of its dice: none may leave play by a hand.
                self._say(f"   refused: {action}: no die is lifted out in {game.info.title}")
                continue
            try:
                actions.perform(world, action, self.rng)  # through the module: a recorder may wrap it
            except ValueError as err:
                if not (isinstance(player, Controller) and player.person):
                    raise
                # The world checks an action before it moves anything: a person is told why and asked again.
                done -= 1
                self._say(f"   refused: {action}: {err}; the turn goes on")
                continue
            world.settle(timeout=self.settle_timeout, raise_on_timeout=False)
            self._say(f"   {world.time - start:7.2f} s  {action}")
        self._flush_events()
        record = game.end_turn(end, world.time - start, done)
        verdict = "done" if end.success else "failed"
        self._say(f"   -> {verdict}: {end.note} ({record.time:.2f} s simulated, {done} actions)")
        return record

    def close(self) -> None:
        """Close the worlds the match played in, if any: the pyramid's and the dice table's."""
        if self.world is not None:
            self.world.close()
            self.world = None
        if isinstance(self.roller, PhysicalRoller):
            self.roller.world.close()


def start_match(
    game_cls: type[GameBase],
    kinds: Sequence[str],
    seed: int,
    *,
    fast: bool = False,
    options: dict[str, Any] | None = None,
    log: Callable[[str], None] | None = None,
    physics: Physics | None = None,
) -> Match:
    """A match of ``game_cls`` between the players named by ``kinds``, every random choice from ``seed``.

    Board and skill games draw from separate streams: the game from ``[seed, 1]``, seat ``n`` from
    ``[seed, 2, n]``, the world's choices from ``seed`` (board) or ``[seed, 3]`` (skill). A table
    game, its players and its dice share one generator from ``seed``. ``fast``: exact placement
    and drawn dice, no physics (skill games have no fast mode). ``physics``: the worlds' settings
    (default ``Physics()``).
    """
    settings = physics or Physics()
    options = dict(options or {})
    if game_cls.kind == "table":
        rng = np.random.default_rng(seed)
        names = [f"{kind}{n}" for n, kind in enumerate(kinds, start=1)]
        seats = [make_seat(kind, rng, game_cls, name) for kind, name in zip(kinds, names, strict=True)]
        table = game_cls(len(kinds), rng=rng, names=names, **options)  # type: ignore[call-arg]
        roller: Roller = FastRoller(rng) if fast else PhysicalRoller(World(settings, plate=False), rng)
        return Match(table, seats, rng=rng, log=log, roller=roller)
    game = game_cls(len(kinds), rng=np.random.default_rng([seed, 1]), **options)
    seats = [make_seat(kind, np.random.default_rng([seed, 2, n]), game_cls) for n, kind in enumerate(kinds)]
    if game_cls.kind == "skill":
        if fast:
            raise ValueError(f"{game_cls.info.title} is a game of physical skill: it has no fast mode")
        return Match(game, seats, rng=np.random.default_rng([seed, 3]), log=log, make_world=lambda: World(settings))
    return Match(game, seats, world=None if fast else World(settings), rng=np.random.default_rng(seed), log=log)


G = TypeVar("G", bound=GameBase)


def play_game(
    game_cls: type[G],
    kinds: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
    log: Callable[[str], None] | None = None,
    *,
    fast: bool = False,
    physics: Physics | None = None,
) -> G:
    """Play ``game_cls`` to its end with the named players and ``seed`` (see ``start_match``); the finished game."""
    match = start_match(game_cls, kinds, seed, fast=fast, options=options, log=log, physics=physics)
    try:
        match.run()
    finally:
        match.close()
    return cast(G, match.game)
