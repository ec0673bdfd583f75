"""The skill games as Gymnasium environments, the physics inside (the gymnasium extra).

``import pyramid.gymnasium`` registers ``pyramid/Faraday-v0``, ``pyramid/Coulomb-v0``, ``pyramid/Dune-v0``,
``pyramid/DiceMikado-v0`` and ``pyramid/Flickers-v0`` for ``gymnasium.make``. An episode is one game: the
agent plays seat 0, one action of its hand per step, performed in a PyBullet world that then settles; the
game judges the read-out of the poses, as in ``pyramid.play.Match``. Other seats (Flickers) are the
game's programmed hands, played between the agent's turns.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
except ModuleNotFoundError as err:  # one line naming the extra, as ``pyramid.cli.extras.load`` says it
    if (err.name or "").partition(".")[0] != "gymnasium":
        raise
    missing = "gymnasium is not installed; install the gymnasium extra: pip install -e '.[gymnasium]'"
    raise LookupError(missing) from None

from pyramid import geometry
from pyramid.agents.controller import Controller, reachable
from pyramid.agents.dice_hands import FlickHand
from pyramid.dice import EDGE, DieId
from pyramid.perception import Readout, Status
from pyramid.physics import actions
from pyramid.physics.actions import Blow, Flick, Lift, PhysicalAction, Tilt
from pyramid.physics.errors import ImpossibleStateError, NotAtRestError
from pyramid.physics.render import render
from pyramid.physics.settings import Physics
from pyramid.physics.stage import FLOOR_DEPTH, FLOOR_HALF_WIDTH, TABLE_HALF_WIDTH
from pyramid.physics.world import World
from pyramid.play import Match
from pyramid.skillgames.base import SkillGame, TurnEnd
from pyramid.skillgames.plate import Coulomb, Dune, Faraday, TimedPlateGame
from pyramid.skillgames.standing import LAYER_DICE, DiceMikado, pyramid_slots
from pyramid.skillgames.throwing import Flickers, on_plate

SETTLE_TIMEOUT = 3.0  # simulated seconds the world may take to come to rest after an action (as in Match)
MAX_STEPS = 500  # actions in an episode before the TimeLimit wrapper truncates it
# The room a die can be in: over the floor (100 m square, 0.75 m under the table top) and below 2 m. The
# hands' bounded parameters cannot send a die further: the hardest flick (0.02 N s) leaves at 4 m/s,
# which rises 0.8 m; flicked off the table, a die hops across the floor up to 9 m from the table's centre
# (examples/floor_probe.py).
ROOM_LOW = (-FLOOR_HALF_WIDTH, -FLOOR_HALF_WIDTH, -FLOOR_DEPTH)
ROOM_HIGH = (FLOOR_HALF_WIDTH, FLOOR_HALF_WIDTH, 2.0)
PLATE_REACH = 2 * geometry.SLAB_INRADIUS * EDGE  # metres from the plate's centre to its corners (0.159)
SEAT_HEIGHT = float(geometry.slot_centre((3, 3, 2))[2] * EDGE)  # a base die's centre above the table (m)
STATUS = {Status.SEATED: 1, Status.LYING: 2, Status.COCKED: 3}  # 0: the die is out of play


def box(low: Any, high: Any, shape: tuple[int, ...], dtype: Any = np.float64) -> spaces.Box:
    """A Box of ``shape`` whose bounds broadcast ``low`` and ``high`` (scalars or arrays along the last axis)."""
    return spaces.Box(
        np.broadcast_to(low, shape).astype(dtype), np.broadcast_to(high, shape).astype(dtype), dtype=dtype
    )


class SkillEnv(gym.Env[dict[str, Any], Any]):
    """A skill game as an environment: seat 0 acts through one hand's parameters, the physics answers.

    Observation (a Dict of Boxes), for the ``n`` dice the game sets out (in a fixed order):
      dice      (n, 7) float   each die's pose: position (m, inside the room the world has) and quaternion
      status    (n,)   int     0 out of play, 1 seated, 2 lying, 3 cocked (as the read-out sees it)
      on_plate  (n,)   int     1 while the die lies on the plate, not on the table
      slot      (n, 3) int     the slot a seated die sits in, (-1, -1, -1) for any other
      plate     (7,)   float   the plate's pose (at rest between actions)
      time_left (1,)   float   simulated seconds left in the turn (0 once the game's limit is passed)
      scores    (players,) float   each seat's score as the game keeps it
    and what each game shows besides (``extra_spaces``).
    Reward: the change in seat 0's score as the game judges it from the poses (signed so that more is
    better); the rewards of an episode add up to the game's final score of seat 0. Terminated: the
    game is over (its verdict, its time limit). Truncated: ``MAX_STEPS`` actions (``gymnasium.make``),
    or the world reached a state that cannot be (a die inside the table, a pose that is not a number:
    ``ImpossibleStateError``; or dice that never came to rest where the game needed them to,
    ``NotAtRestError``). Then ``info["impossible"]`` names the die, the simulated time and the cause,
    the observation is the last one before that action and the reward 0; ``step`` never raises for an
    action inside the action space. Call ``reset`` after either end.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "human"], "render_fps": 4}
    game_cls: ClassVar[type[SkillGame]]
    players: int = 1  # seats in the game; seat 0 is the agent's
    size: ClassVar[tuple[int, int]] = (480, 360)  # width, height of an rgb_array picture

    def __init__(self, render_mode: str | None = None, physics: Physics | None = None, **options: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.physics = physics or Physics()
        self.options = options
        self.game_cls.read_options(self.game_options(), self.players)  # a bad option refused here, not at reset
        self.dice_count = self.count_dice()
        self.game: SkillGame | None = None
        self.world: World | None = None
        self.match: Match | None = None
        self.dice: list[DieId] = []
        self.start = 0.0
        self.done_actions = 0
        self.value = 0.0
        self.last_end: TurnEnd | None = None
        self.impossible = ""  # why the episode was cut short: the world's error (see ``step``)
        self.last_observation: dict[str, np.ndarray] = {}
        self.viewer: Any = None
        n, p = self.dice_count, self.players
        lo, hi = self.score_bounds()
        self.observation_space = spaces.Dict(
            {
                "dice": box((*ROOM_LOW, -1, -1, -1, -1), (*ROOM_HIGH, 1, 1, 1, 1), (n, 7)),
                "status": box(0, 3, (n,), np.int64),
                "on_plate": box(0, 1, (n,), np.int64),
                "slot": box(-1, geometry.BASE_LAYER, (n, 3), np.int64),
                "plate": box(
                    (-TABLE_HALF_WIDTH, -TABLE_HALF_WIDTH, 0, -1, -1, -1, -1),
                    (TABLE_HALF_WIDTH, TABLE_HALF_WIDTH, 1, 1, 1, 1, 1),
                    (7,),
                ),
                "time_left": box(0.0, self.game_cls.time_limit, (1,)),
                "scores": box(lo, hi, (p,)),
                **self.extra_spaces(),
            }
        )

    # -- hooks ----------------------------------------------------------------------------------

    def count_dice(self) -> int:
        """How many dice the game sets out (the rows of the observation)."""
        return len(self.game_cls.start) if issubclass(self.game_cls, TimedPlateGame) else 0

    def score_bounds(self) -> tuple[float, float]:
        """The lowest and highest score a seat can have."""
        return 0.0, self.game_cls.time_limit

    def extra_spaces(self) -> dict[str, spaces.Space[Any]]:
        """Observation entries of what this game shows a player besides the poses."""
        return {}

    def extra_observation(self, readout: Readout) -> dict[str, np.ndarray]:
        """The values of ``extra_spaces`` now."""
        return {}

    def order_dice(self, world: World) -> list[DieId]:
        """The dice the observation follows, in their rows' order (set once the game has set them out)."""
        return world.dice

    def hand(self, action: Any, readout: Readout) -> PhysicalAction | str:
        """The project's action for ``action``, or why the hand cannot do it (nothing happens then)."""
        raise NotImplementedError

    def running_value(self, elapsed: float) -> float:
        """Seat 0's score while the game goes on, signed so that more is better."""
        return -elapsed

    def opponent(self, rng: np.random.Generator) -> Controller[Any] | None:
        """The programmed hand of the other seats, if the game has any."""
        return None

    def game_options(self) -> dict[str, Any]:
        """The game's options from the environment's keyword arguments."""
        return dict(self.options)

    # -- the episode -----------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        # Every random choice from the seeded generator: the game's, the hands' in the world, the other seats'.
        game_rng, world_rng, other_rng = self.np_random.spawn(3)
        self.close_world()
        self.game = self.game_cls(self.players, rng=game_rng, **self.game_options())
        self.world_rng = world_rng
        hand = self.opponent(other_rng)
        seats = [hand] * self.players if hand is not None else [_NoHand()] * self.players
        self.match = Match(self.game, seats, rng=world_rng, make_world=self.new_world, settle_timeout=SETTLE_TIMEOUT)
        self.last_end = None
        self.impossible = ""
        self.value = 0.0
        self.start_turn()
        self.value = self.current_value()
        self.show()
        self.last_observation = self.observe()
        return self.last_observation, self.info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        game, world = self.game, self.world
        if game is None or world is None:
            raise RuntimeError("call reset() before step()")
        if game.outcome is not None:
            raise RuntimeError(f"the game is over ({game.outcome.result()}): call reset()")
        if self.impossible:
            raise RuntimeError(f"the episode was cut short ({self.impossible}): call reset()")
        physical = self.hand(action, world.readout(require_rest=False))
        refused = physical if isinstance(physical, str) else ""
        try:
            if not isinstance(physical, str):
                try:
                    self.perform(world, physical)
                except ValueError as err:  # the hand cannot do it (too fast, no die there): checked before it moves
                    refused = str(err)
            if not refused:
                self.done_actions += 1
                self.judge()  # the other seats' turns too: their hands step the world
        except (ImpossibleStateError, NotAtRestError) as err:
            # The world (this turn's, or the next seat's) cannot go on: the episode ends here, and says why.
            self.impossible = f"{type(err).__name__}: {err}"
            info = self.info()  # which reads nothing of the broken world
            info["action"] = str(physical)
            info["impossible"] = self.impossible
            seen = {key: value.copy() for key, value in self.last_observation.items()}  # new arrays, as every step
            return seen, 0.0, False, True, info
        before, self.value = self.value, self.current_value()
        self.show()
        info = self.info()
        info["action"] = refused and f"refused: {refused}" or str(physical)
        self.last_observation = self.observe()
        return self.last_observation, self.value - before, game.outcome is not None, False, info

    def perform(self, world: World, action: PhysicalAction) -> None:
        """Carry out ``action`` and let the world come to rest; shown live in the window in human mode."""
        if self.viewer is None:
            actions.perform(world, action, self.world_rng)
            world.settle(timeout=SETTLE_TIMEOUT, raise_on_timeout=False)
            return
        from pyramid.ui.viewer import watching  # the view extra, loaded only for a window

        with watching(world, self.viewer):
            actions.perform(world, action, self.world_rng)
            world.settle(timeout=SETTLE_TIMEOUT, raise_on_timeout=False)

    def new_world(self) -> World:
        """A fresh world for a turn (the other seats' turns too)."""
        world = World(self.physics)
        if self.viewer is not None:
            self.viewer.world = world
        return world

    def start_turn(self) -> None:
        """Set out (or keep) the world for seat 0's turn, as ``Match.play_turn`` does, and judge it once."""
        game = self.game
        assert game is not None and self.match is not None
        if self.world is None or not game.shared_world:
            self.close_world()
            self.world = self.new_world()
            game.prepare(self.world)
            self.world.settle(timeout=SETTLE_TIMEOUT, raise_on_timeout=False)
            if not self.dice:
                self.dice = self.order_dice(self.world)
        game.begin_turn(self.world)
        self.world.settle(timeout=SETTLE_TIMEOUT, raise_on_timeout=False)
        self.start, self.done_actions = self.world.time, 0
        self.judge()

    def judge(self) -> None:
        """The game's verdict on the world now; at the end of the turn the other seats play, then seat 0 again."""
        game, world = self.game, self.world
        assert game is not None and world is not None and self.match is not None
        elapsed = world.time - self.start
        end = game.judge(world.readout(require_rest=False), elapsed)
        if end is None and elapsed >= game.time_limit:
            end = TurnEnd(False, f"time is up after {game.time_limit:g} s")
        if end is None:
            return
        game.end_turn(end, elapsed, self.done_actions)
        self.last_end = end
        while game.outcome is None and game.to_move != 0:
            self.match.world = self.world
            self.match.play_turn()
            self.world = self.match.world
        if game.outcome is None:
            self.start_turn()

    def current_value(self) -> float:
        game, world = self.game, self.world
        assert game is not None and world is not None
        if game.outcome is not None:
            score = game.outcome.scores[0]
            return -score if game.lower_wins else score
        return self.running_value(world.time - self.start)

    def observe(self) -> dict[str, np.ndarray]:
        world, game = self.world, self.game
        assert world is not None and game is not None
        readout = world.readout(require_rest=False)
        in_play, poses = world.poses()
        row = {die: n for n, die in enumerate(in_play)}
        n = self.dice_count
        dice = np.zeros((n, 7))
        dice[:, 6] = 1.0  # a die out of play: at the origin, unturned
        status = np.zeros(n, dtype=np.int64)
        plate = np.zeros(n, dtype=np.int64)
        slot = np.full((n, 3), -1, dtype=np.int64)
        for k, die in enumerate(self.dice):
            if die not in row:
                continue
            r = readout.dice[die]
            dice[k] = poses[row[die]]
            status[k] = STATUS[r.status]
            plate[k] = int(on_plate(r))
            if r.slot is not None:
                slot[k] = r.slot
        elapsed = world.time - self.start if game.outcome is None else game.time_limit
        return {
            "dice": dice,
            "status": status,
            "on_plate": plate,
            "slot": slot,
            "plate": world.plate_pose.astype(np.float64),
            "time_left": np.array([max(0.0, game.time_limit - elapsed)]),
            "scores": np.array(game.scores(), dtype=np.float64),
            **self.extra_observation(readout),
        }

    def info(self) -> dict[str, Any]:
        game = self.game
        assert game is not None and self.world is not None
        out: dict[str, Any] = {"elapsed": self.world.time - self.start, "scores": game.scores()}
        if self.last_end is not None:
            out["turn"] = self.last_end.note
        if game.outcome is not None:
            out["result"] = game.outcome.result()
            out["winners"] = game.outcome.winners
        return out

    # -- pictures --------------------------------------------------------------------------------

    def render(self) -> np.ndarray | None:  # type: ignore[override]
        """rgb_array: a picture (height, width, 3) uint8 from the software renderer; human: the window."""
        if self.render_mode == "rgb_array":
            assert self.world is not None, "call reset() before render()"
            width, height = self.size
            return render(self.world, width, height)
        if self.render_mode == "human":
            self.show()
        return None

    def show(self) -> None:
        """Open the window (human mode) on the world now, or draw it again."""
        if self.render_mode != "human" or self.world is None:
            return
        if self.viewer is None:
            from pyramid.cli.extras import require_window

            require_window()  # LookupError with what to do instead, without pyglet or a display
            from pyramid.ui.viewer import Viewer

            self.viewer = Viewer(self.world, title=f"pyramid: {self.game_cls.info.title}")
        self.viewer.world = self.world
        self.viewer.frame_world()
        self.viewer.frame(0.0)

    def close_world(self) -> None:
        if self.world is not None:
            self.world.close()
            self.world = None
        self.dice = []

    def close(self) -> None:
        self.close_world()
        if self.viewer is not None:
            self.viewer.close()
            self.viewer = None


class _NoHand(Controller[SkillGame]):
    """A seat nobody plays for the agent: seat 0's actions come through ``step``."""

    def act(self, game: SkillGame, readout: Readout, elapsed: float) -> PhysicalAction:
        raise RuntimeError("seat 0 is played through step()")


class HandParameters(SkillEnv):
    """An environment whose action is a hand's parameters: a Box of -1 to 1 per parameter, mapped linearly
    onto the range ``PARAMETERS`` gives it (name, lowest, highest, in the action's units)."""

    PARAMETERS: ClassVar[tuple[tuple[str, float, float], ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "PARAMETERS" in cls.__dict__:
            cls.action_space = spaces.Box(-1.0, 1.0, (len(cls.PARAMETERS),), dtype=np.float64)

    @classmethod
    def parameters(cls, action: Any) -> dict[str, float]:
        """The hand's parameters (by name, in their units) for an action; values beyond -1 to 1 are clipped."""
        a = np.clip(np.asarray(action, dtype=np.float64), -1.0, 1.0)
        return {name: lo + (float(x) + 1) / 2 * (hi - lo) for (name, lo, hi), x in zip(cls.PARAMETERS, a, strict=True)}

    @classmethod
    def action(cls, **parameters: float) -> np.ndarray:
        """The action (a point of the Box) for the hand's parameters by name, in their units."""
        if set(parameters) != {name for name, _, _ in cls.PARAMETERS}:
            raise ValueError(f"give every parameter of the hand: {', '.join(n for n, _, _ in cls.PARAMETERS)}")
        return np.array([2 * (parameters[name] - lo) / (hi - lo) - 1 for name, lo, hi in cls.PARAMETERS])


# -- the plate games: a tilt of the plate held in two hands, or a blow -----------------------------------


class PlateEnv(HandParameters):
    """The timed plate games: the score is the simulated seconds taken (the time limit for a failed turn);
    the game shows each die's goal slot, (-1, -1, -1) for a die in place."""

    def game_options(self) -> dict[str, Any]:
        if self.options:
            raise ValueError(f"{self.game_cls.info.title} takes no options here: one turn, one player")
        return {}

    def extra_spaces(self) -> dict[str, spaces.Space[Any]]:
        return {"goal": box(-1, geometry.BASE_LAYER, (self.dice_count, 3), np.int64)}

    def extra_observation(self, readout: Readout) -> dict[str, np.ndarray]:
        game = self.game
        assert isinstance(game, TimedPlateGame)
        goal = np.full((self.dice_count, 3), -1, dtype=np.int64)
        if game.outcome is None:
            goals = game.goal_slots(readout)
            for k, die in enumerate(self.dice):
                if die in goals:
                    goal[k] = goals[die]
        return {"goal": goal}


class TiltEnv(PlateEnv):
    """A tilt of the plate held in two hands, as the programmed tilt hand strokes (``Tilt`` with a pivot).

    Action (7,), each -1 to 1 over its range (``parameters``): the line the plate turns about, square to
    ``direction`` (degrees, -180 to 180; the side towards it goes down) through the point ``line_x``, ``line_y`` (m,
    in the plate's frame, at the height of a seated die's centre); the ``angle`` held (0 to 30 degrees) for 0.3 s;
    ``preset`` (-30 to 30 degrees), where the plate is first turned to relative to ``angle``, and ``ramp`` (0.05 to
    1 s), the time of the turn from there to ``angle``, speeding up for 9/10 of it and stopped short in the last
    1/10 (the tilt's speed: peak 2 |preset| / ramp); ``shake`` (0 to 2 mm at 10 Hz) while held. The hands lift the
    plate clear of the table in 0.45 s and turn it back in 0.4 s. A tilt faster than a hand can move the plate (4
    m/s, 500 m/s^2) is refused: nothing happens.
    """

    PARAMETERS = (
        ("direction", -180.0, 180.0),
        ("line_x", -PLATE_REACH, PLATE_REACH),
        ("line_y", -PLATE_REACH, PLATE_REACH),
        ("angle", 0.0, 30.0),
        ("preset", -30.0, 30.0),
        ("ramp", 0.05, 1.0),
        ("shake", 0.0, 0.002),
    )

    def hand(self, action: Any, readout: Readout) -> PhysicalAction | str:
        direction, x, y, angle, preset, ramp, shake = self.parameters(action).values()
        return Tilt.jolt(direction, angle, (x, y, SEAT_HEIGHT), preset, ramp, shake)


class FaradayEnv(TiltEnv):
    __doc__ = f"Faraday (3) as an environment.\n\n{TiltEnv.__doc__}"
    game_cls = Faraday


class CoulombEnv(TiltEnv):
    __doc__ = f"Coulomb (4) as an environment.\n\n{TiltEnv.__doc__}"
    game_cls = Coulomb


class DuneEnv(PlateEnv):
    """Dune (2) as an environment: a blow (``Blow``).

    Action (7,), each -1 to 1 over its range: the mouth at ``x``, ``y`` (m, within the plate's reach of its centre),
    ``z`` (0 to 10 cm above the table); the jet towards ``azimuth`` (-180 to 180 degrees) and ``elevation`` (-60 to
    30), at ``speed`` (0 to 40 m/s at the mouth) for ``duration`` (0.05 to 0.5 s). The breath wavers by 5 %.
    """

    game_cls = Dune
    PARAMETERS = (
        ("x", -PLATE_REACH, PLATE_REACH),
        ("y", -PLATE_REACH, PLATE_REACH),
        ("z", 0.0, 0.1),
        ("azimuth", -180.0, 180.0),
        ("elevation", -60.0, 30.0),
        ("speed", 0.0, 40.0),
        ("duration", 0.05, 0.5),
    )

    def hand(self, action: Any, readout: Readout) -> PhysicalAction | str:
        x, y, z, azimuth, elevation, speed, duration = self.parameters(action).values()
        return Blow((x, y, z), azimuth, elevation=elevation, speed=speed, duration=duration)


# -- Dice Mikado: which die to lift ---------------------------------------------------------------------


class DiceMikadoEnv(SkillEnv):
    """Dice Mikado (6) as an environment: which die to lift out (``Lift``).

    Option ``layers`` (2 to 9, default 9: 165 dice). The dice's rows follow the pyramid's slots
    (``pyramid_slots``): die ``k`` starts in slot ``k``. Action: Discrete(slots), the slot whose die a
    hand lifts out; only a die that shows an uncovered face, not the top, can be lifted (``grippable``
    in the observation, ``action_mask`` in the info): any other choice is refused and nothing happens.
    Reward: a die taken out, 1; the die whose lifting made the top fall is not counted (the game's rule).
    """

    game_cls = DiceMikado

    def __init__(self, render_mode: str | None = None, physics: Physics | None = None, layers: int = 9) -> None:
        self.slots = pyramid_slots(layers)
        self.action_space = spaces.Discrete(len(self.slots))
        super().__init__(render_mode, physics, layers=layers)

    def count_dice(self) -> int:
        return LAYER_DICE[int(self.options["layers"])]

    def score_bounds(self) -> tuple[float, float]:
        return 0.0, float(self.dice_count)

    def order_dice(self, world: World) -> list[DieId]:
        slot_die = world.readout(require_rest=False).slot_die
        return [slot_die[s] for s in self.slots]

    def grippable(self, readout: Readout) -> np.ndarray:
        game = self.game
        assert isinstance(game, DiceMikado)
        can = set(reachable(readout.pyramid, keep=game.top_slot)) if game.outcome is None else set()
        return np.array([s in can for s in self.slots], dtype=np.int8)

    def extra_spaces(self) -> dict[str, spaces.Space[Any]]:
        return {"grippable": box(0, 1, (len(self.slots),), np.int64)}

    def extra_observation(self, readout: Readout) -> dict[str, np.ndarray]:
        return {"grippable": self.grippable(readout).astype(np.int64)}

    def info(self) -> dict[str, Any]:
        assert self.world is not None
        if self.impossible:  # the episode was cut short: nothing to grip, and the world not to be read
            return {**super().info(), "action_mask": np.zeros(len(self.slots), dtype=np.int8)}
        return {**super().info(), "action_mask": self.grippable(self.world.readout(require_rest=False))}

    def hand(self, action: Any, readout: Readout) -> PhysicalAction | str:
        slot = self.slots[int(action)]
        if not self.grippable(readout)[int(action)]:
            return f"no die to grip in {slot}"
        return Lift(slot)

    def running_value(self, elapsed: float) -> float:
        game = self.game
        assert isinstance(game, DiceMikado) and self.world is not None
        return float(game.start_dice - len(self.world.dice))


# -- Flickers: the flick's aim and impulse -------------------------------------------------------------


class FlickersEnv(HandParameters):
    """Flickers (7) as an environment: a flick of the player's next die (``Flick``) against programmed flickers.

    Option ``players`` (2 or 3; the others are the programmed flick hand) and ``rounds`` (default 25). The dice's
    rows: seat 0's five, then each other seat's. The game says which die is flicked next (the first of seat 0's not
    on the plate). Action (4,), each -1 to 1 over its range: ``azimuth`` (-180 to 180 degrees; seat 0 sits at -x, so
    0 aims across the plate's centre), ``impulse`` (0 to 0.02 N s; 0.007 reaches the middle), ``elevation`` (0 to 60
    degrees) and ``height`` (-0.5 to 0.5 edges above the die's centre where the finger strikes). Reward: the change
    in seat 0's dice on the plate, also when the others knock them off. ``info["landed"]``: how far (m) from the plate's
    centre the agent's last flicked die came to rest (the plate's corners lie 0.159 m out), before a die that missed
    went back to its side.
    """

    game_cls = Flickers
    PARAMETERS = (("azimuth", -180.0, 180.0), ("impulse", 0.0, 0.02), ("elevation", 0.0, 60.0), ("height", -0.5, 0.5))

    def __init__(
        self, render_mode: str | None = None, physics: Physics | None = None, players: int = 2, rounds: int = 25
    ) -> None:
        if players not in (2, 3):
            raise ValueError(f"Flickers is played by 2 or 3, not {players}")
        self.players = players
        super().__init__(render_mode, physics, rounds=rounds)

    def count_dice(self) -> int:
        return 5 * self.players

    def score_bounds(self) -> tuple[float, float]:
        return 0.0, 5.0

    def order_dice(self, world: World) -> list[DieId]:
        game = self.game
        assert isinstance(game, Flickers)
        return [d for own in game.own for d in own]

    def opponent(self, rng: np.random.Generator) -> Controller[Any] | None:
        return FlickHand(rng)

    def hand(self, action: Any, readout: Readout) -> PhysicalAction | str:
        game = self.game
        assert isinstance(game, Flickers)
        azimuth, impulse, elevation, height = self.parameters(action).values()
        return Flick(game.next_die(readout), azimuth, impulse=impulse, elevation=elevation, height=height)

    def running_value(self, elapsed: float) -> float:
        game = self.game
        assert isinstance(game, Flickers)
        return game.count[0]

    def info(self) -> dict[str, Any]:
        game = self.game
        assert isinstance(game, Flickers)
        # Where the agent's last flick came to rest (m from the plate's centre; nan before the first): a die that
        # missed went back to its side before the observation, so this is the only word of how near it came.
        return {**super().info(), "landed": game.landed[0]}


ENVIRONMENTS: dict[str, type[SkillEnv]] = {
    "Faraday": FaradayEnv,
    "Coulomb": CoulombEnv,
    "Dune": DuneEnv,
    "DiceMikado": DiceMikadoEnv,
    "Flickers": FlickersEnv,
}


def env_id(name: str) -> str:
    """The Gymnasium id of an environment: ``pyramid/Faraday-v0``."""
    return f"pyramid/{name}-v0"


for _name, _cls in ENVIRONMENTS.items():
    if env_id(_name) not in gym.registry:
        gym.register(id=env_id(_name), entry_point=f"{__name__}:{_cls.__name__}", max_episode_steps=MAX_STEPS)
