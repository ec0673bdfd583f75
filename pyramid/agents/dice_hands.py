"""The other programmed hands: Mikado, flick, throw, ladle, a person, malice, fowl, stacker, mount."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from pyramid import geometry
from pyramid.agents.controller import Controller, reachable, weakened
from pyramid.agents.plate_hands import azimuth_to
from pyramid.agents.terminal import TypedMoveError
from pyramid.agents.typed_hands import hand_help, hand_verbs, read_hand
from pyramid.dice import EDGE
from pyramid.geometry import Slot
from pyramid.perception import Readout, Status
from pyramid.physics import hands
from pyramid.physics.actions import Attach, Flick, Lift, PhysicalAction, Pour, Pull, Shake, Throw, Wait
from pyramid.skillgames.base import DiceInHand, SkillGame
from pyramid.skillgames.more import ROLL_DROP, Emag, MaliciousPleasure, VainGuineaFowl, die_top, tower_spot
from pyramid.skillgames.mount import Mounting
from pyramid.skillgames.standing import DiceMikado
from pyramid.skillgames.throwing import DishingUp, Flickers, HideAway, Trulla
from pyramid.units import SET_DROP


class MikadoHand(Controller[DiceMikado]):
    """A Mikado player: lifts one reachable die per action, chosen by ``strategy``.

    ``random``: any reachable die. ``bottom``: the lowest reachable die (the base first), at random
    among equals. ``careful``: never leave a die with fewer than two of its supports (friction holds a
    die on two, see design.md), keep off the pyramid's edges (a pulled edge die drags the edge above
    it, up to the top), then the lowest; it lifts at half speed.
    """

    plays = (DiceMikado,)

    STRATEGIES = ("random", "bottom", "careful")

    def __init__(self, rng: np.random.Generator, strategy: str = "careful") -> None:
        if strategy not in self.STRATEGIES:
            raise ValueError(f"unknown Mikado strategy {strategy!r}; choose from {', '.join(self.STRATEGIES)}")
        self.rng = rng
        self.strategy = strategy
        self.name = f"mikado-{strategy}"

    def act(self, game: DiceMikado, readout: Readout, elapsed: float) -> PhysicalAction:
        """Lift the chosen die."""
        top = game.top_slot
        state = readout.pyramid
        options = reachable(state, keep=top)
        if not options:
            return Wait(0.5)
        if self.strategy == "random":
            return Lift(options[int(self.rng.integers(len(options)))])
        if self.strategy == "careful":
            # Fewest dice left on fewer than two supports, off the edges that lead up to the top, then the lowest.
            def risk(s: Slot) -> tuple[int, int, int]:
                edge = top is not None and sorted(a - b for a, b in zip(s, top, strict=True))[1] == 0
                return (weakened(state, s), int(edge), -geometry.layer(s))

            best = min(risk(s) for s in options)
            calm = [s for s in options if risk(s) == best]
            return Lift(calm[int(self.rng.integers(len(calm)))], speed=0.04)
        low = max(geometry.layer(s) for s in options)
        lowest = [s for s in options if geometry.layer(s) == low]
        return Lift(lowest[int(self.rng.integers(len(lowest)))])


# --- the plate: tilting and shaking (Faraday, Coulomb) ---------------------------------------------


# Azimuths (degrees, plate at rest) along which a die seated in a funnel can climb out: the cube axes
# +i, +j, +k projected onto the plate.
class FlickHand(Controller[Flickers]):
    """Flicks the player's next die from the table edge towards the plate's centre (Flickers)."""

    name = "flick"
    plays = (Flickers,)

    def __init__(self, rng: np.random.Generator, impulse: float = 0.007) -> None:
        self.rng = rng
        self.impulse = impulse

    def act(self, game: Flickers, readout: Readout, elapsed: float) -> PhysicalAction:
        """Flick the die the game offers next, aimed at the plate's centre with a little scatter."""
        die: int = game.next_die(readout)
        here = np.array(readout.dice[die].position)
        heading = azimuth_to(here, np.zeros(3)) + float(self.rng.normal(0, 4))
        impulse = self.impulse * float(np.clip(1 + self.rng.normal(0, 0.1), 0.5, 1.5))
        return Flick(die, heading, impulse=impulse, elevation=20.0)


class ThrowHand(Controller[HideAway | DishingUp]):
    """Throws the player's next die at the point the game names, from the height and distance it names."""

    name = "throw"
    plays = (HideAway, DishingUp)

    def __init__(self, rng: np.random.Generator, scatter: float = 0.08) -> None:
        self.rng = rng
        self.scatter = scatter

    def act(self, game: HideAway | DishingUp, readout: Readout, elapsed: float) -> PhysicalAction:
        """Throw at the game's suggested target from a random side."""
        die, target, height = game.next_throw(readout, self.rng)
        return Throw(
            die, target, height=height, distance=0.1, azimuth=float(self.rng.uniform(0, 360)), scatter=self.scatter
        )


LADLE_CLEARANCE = 0.005  # metres: the least gap between the dice in the ladle and any die under it


def ladle_height(readout: Readout, target: tuple[float, float], bowl: float) -> float:
    """The lowest height (m) to hold a ladle of radius ``bowl`` over ``target`` so that it touches no die.

    The dice in a poured ladle sit at or above its height (``Pour``), the lowest reaching half a
    diagonal below it; every die on the plate within the bowl's reach (its radius and a die's half
    diagonal) must stay ``LADLE_CLEARANCE`` below that.
    """
    reach = bowl + EDGE * math.sqrt(3) / 2
    tops = [die_top(r) for r in readout.dice.values() if math.dist(r.position[:2], target) <= reach and r.on_plate]
    return max(tops, default=0.0) + EDGE * math.sqrt(3) / 2 + LADLE_CLEARANCE


class LadleHand(Controller[Trulla]):
    """Fills the ladle with as many dice as the game allows and pours them over the pyramid's centre, held
    ``height`` m above the table (12 cm), or higher where the dice under it reach up (``ladle_height``:
    over the top two layers of the pyramid), so that the ladle never touches the pyramid."""

    name = "ladle"
    plays = (Trulla,)

    def __init__(self, rng: np.random.Generator, count: int = 6, height: float = 0.12) -> None:
        self.rng = rng
        self.count = count
        self.height = height

    def act(self, game: Trulla, readout: Readout, elapsed: float) -> PhysicalAction:
        """Pour a ladleful above the plate, a little off centre."""
        dice: list[int] = game.ladleful(self.count)
        spot = self.rng.normal(0, 0.015, size=2)
        target = (float(spot[0]), float(spot[1]))
        height = max(self.height, ladle_height(readout, target, Pour.bowl))
        return Pour(tuple(dice), target, height=height, azimuth=float(self.rng.uniform(0, 360)))


class HumanHand(Controller[SkillGame]):
    """A person at the terminal types an action, e.g. ``tilt 180 12``, ``blow 0 0 0.03 90 20``, ``lift 8 0 0``.

    ``?`` (or ``help``) lists the game's actions with their numbers and the values they may take; an action
    that cannot be done (a die not in play, a slot with no die, an angle past 80 deg) is refused with the
    reason and asked again (``pyramid.agents.typed_hands``).
    """

    name = "human"
    person = True

    def __init__(self, ask: Callable[[str], str] = input, show: Callable[[str], None] = print) -> None:
        self.ask = ask
        self.show = show

    def act(self, game: SkillGame, readout: Readout, elapsed: float) -> PhysicalAction:
        """The action the person types; asks again on bad input."""
        self.show(f"{elapsed:.2f} s into the turn; pyramid {readout.notation()}; {len(readout.dice)} dice in play")
        for r in readout.dice.values():
            place = f"slot {r.slot}" if r.slot else r.status.value
            pos = ", ".join(f"{100 * c:.1f}" for c in r.position)
            self.show(f"  die {r.die:3d} {r.colour:<5} at ({pos}) cm, {place}{'' if r.on_plate else ', off the plate'}")
        verbs = ", ".join(hand_verbs(game))
        while True:
            text = self.ask(f"player {game.to_move}, your action ({verbs}; ? lists them with their numbers): ")
            command = text.strip().lower()
            if command in ("?", "help"):
                self.show(hand_help(game, readout))
                continue
            if command == "stop" and isinstance(game, DiceInHand):
                game.stop()
                return Wait(0.0)
            try:
                return read_hand(text, game, readout)
            except TypedMoveError as err:
                self.show(str(err))


# --- setting dice down by hand (Malicious Pleasure, The Vain Guinea Fowl) ----------------------------


def set_down(die: int, point: tuple[float, float, float]) -> Throw:
    """A die let go from a hand held still at ``point`` (no push, no spin): it drops into what lies below."""
    return Throw(die, (point[0], point[1]), height=point[2], distance=0.0, spin=0.0, scatter=0.0)


class MaliceHand(Controller[MaliciousPleasure]):
    """Malicious Pleasure: throws the turn's die from the game's height, then sets down the dice it earns.

    A die is set down as a player sets one into a funnel: held corner-down, the faces up drawn at random, let go
    by a trembling hand (``held_release``). Let go turned at random (``hold`` False), a rounded die mostly rolls
    on out of the funnel: over 12 nudged starts of the test's turn no set-down came to rest beside the throw,
    against 8 of 12 with the box; held, both seat.
    """

    name = "malice"
    plays = (MaliciousPleasure,)

    def __init__(
        self,
        rng: np.random.Generator,
        scatter: float = 0.1,
        hold: bool = True,
        tremor_mm: float = 0.5,
        tremor_deg: float = 2.0,
    ) -> None:
        check_tremor(tremor_mm, tremor_deg)
        self.rng = rng
        self.scatter = scatter
        self.hold = hold
        self.tremor_mm = tremor_mm
        self.tremor_deg = tremor_deg

    def act(self, game: MaliciousPleasure, readout: Readout, elapsed: float) -> PhysicalAction:
        """The throw at the start of the turn; afterwards one set-down into the game's open funnel."""
        if game.thrown is None:
            die, target, height = game.next_throw(readout, self.rng)
            azimuth = float(self.rng.uniform(0, 360))
            return Throw(die, target, height=height, distance=0.1, azimuth=azimuth, scatter=self.scatter)
        die, point = game.next_set_down()
        if not self.hold:
            return set_down(die, point)
        up = geometry.ALL_UP_FACES[int(self.rng.integers(len(geometry.ALL_UP_FACES)))]
        rotation = geometry.seated_rotation(up)
        return held_release(die, np.array(point), rotation, self.rng, self.tremor_mm, self.tremor_deg)


class FowlHand(Controller[VainGuineaFowl]):
    """The Vain Guinea Fowl: lifts out wrong dice, jiggles loose dice, else rolls the next die.

    A die showing a wrong number on a side is lifted out to be rolled again; if dice rest on it (a
    later roll jostled it), those are lifted first, from the top. Rolls go into funnels no loose die
    lies in; when loose dice block every open funnel, the hand jiggles the plate again (three times
    at most), then rolls onto them.

    A roll goes into the lowest open funnel of the coat, let go ``ROLL_DROP`` (2 cm) above its seat
    without push or spin. With ``hold`` the hand holds the die the way that funnel needs: corner
    down, the bird's numbers towards its sides (``game.dressing``), turned from it only by the hand's
    tremor (a normal angle of ``tremor_deg`` degrees about a random axis, and a miss of ``tremor_mm`` mm
    each way); the funnel mostly keeps the die as it was held (20 of 24 drops into base funnels from
    2 cm, measured). Without ``hold`` the die leaves the hand turned at random.
    """

    plays = (VainGuineaFowl,)

    JIGGLES = 3  # jiggles in a row for loose dice that block every open funnel, before rolling onto them

    def __init__(
        self, rng: np.random.Generator, hold: bool = True, tremor_mm: float = 0.5, tremor_deg: float = 2.0
    ) -> None:
        check_tremor(tremor_mm, tremor_deg)
        self.rng = rng
        self.hold = hold
        self.tremor_mm = tremor_mm
        self.tremor_deg = tremor_deg
        self.name = "fowl" if hold else "fowl-random"
        self._shaken: set[int] = set()
        self._jiggles = 0  # jiggles in a row with every open funnel blocked

    def act(self, game: VainGuineaFowl, readout: Readout, elapsed: float) -> PhysicalAction:
        """One lift, shake (once for each die newly loose) or roll."""
        free = set(readout.pyramid.free_slots())
        wrong = game.wrong(readout)
        if wrong:
            # A wrong die is lifted out; one that dice rest on (a later roll jostled it) is uncovered first.
            above = covering(readout.pyramid, wrong)
            lift = [s for s in wrong if s in free] or sorted(s for s in above if s in free)
            if lift:
                return Lift(lift[0], speed=0.04)
        loose = set(game.loose(readout))
        if loose - self._shaken:
            self._shaken |= loose
            return Shake(0.001, 8.0, 0.3, float(self.rng.uniform(0, 360)))
        roll = game.next_roll(readout)
        if roll is None and loose and self._jiggles < self.JIGGLES:
            # Loose dice lie in every open funnel: jiggle them again, a few times.
            self._jiggles += 1
            return Shake(0.001, 8.0, 0.3, float(self.rng.uniform(0, 360)))
        roll = roll or game.next_roll(readout, clear=False)  # then roll onto them: the die may knock them in
        if roll is None:
            return Wait(0.2)
        self._jiggles = 0
        die, slot = roll
        seat = geometry.slot_centre(slot) * EDGE + np.array([0.0, 0.0, ROLL_DROP])
        if not self.hold:
            return set_down(die, (float(seat[0]), float(seat[1]), float(seat[2])))
        return held_release(
            die, seat, geometry.seated_rotation(game.dressing(slot)), self.rng, self.tremor_mm, self.tremor_deg
        )


def covering(state: Any, slots: list[Slot]) -> set[Slot]:
    """The occupied slots that rest on ``slots``, directly or through other dice."""
    out: set[Slot] = set()
    todo = list(slots)
    while todo:
        for above in geometry.resting_on(todo.pop()):
            if above in state and above not in out:
                out.add(above)
                todo.append(above)
    return out


def check_tremor(tremor_mm: float, tremor_deg: float) -> None:
    """ValueError unless a hand's tremor is >= 0 mm and >= 0 degrees."""
    if tremor_mm < 0 or tremor_deg < 0:
        raise ValueError(f"a hand's tremor is >= 0 mm and >= 0 degrees, got {tremor_mm} mm, {tremor_deg} deg")


def held_release(
    die: int, point: np.ndarray, rotation: np.ndarray, rng: np.random.Generator, tremor_mm: float, tremor_deg: float
) -> Throw:
    """Let ``die`` go at ``point`` (3,), held turned by ``rotation`` (3, 3), as a trembling hand does.

    The release point misses by a normal error of ``tremor_mm`` mm on each horizontal axis; the die
    turns from ``rotation`` by a normal angle of ``tremor_deg`` degrees about a random axis.
    """
    miss = rng.normal(0.0, tremor_mm / 1000, size=2)
    axis = rng.normal(size=3)
    wobble = hands.axis_angle_quat(axis / np.linalg.norm(axis), math.radians(float(rng.normal(0.0, tremor_deg))))
    quat = geometry.matrix_to_quat(geometry.quat_to_matrix(wobble)[0] @ rotation)
    orientation = (float(quat[0]), float(quat[1]), float(quat[2]), float(quat[3]))
    x, y, z = float(point[0] + miss[0]), float(point[1] + miss[1]), float(point[2])
    return Throw(die, (x, y), height=z, distance=0.0, spin=0.0, scatter=0.0, orientation=orientation)


class StackHand(Controller[Emag]):
    """Emag: stacks the hand's dice by ``strategy``, with the seeded tremor of a real hand.

    ``tower``: a tower face on face on the plate's one flat spot big enough for a die, a corner of the
    slab beyond the corner funnel (``skill_more.tower_spot``): the first die flat there, its diagonal
    along the corner's bisector, each next one flat on the highest die, held the same way and let go
    1 mm above its top face, aimed at its centre moved back towards the tower's foot (its lowest die,
    as it lies) by half the top die's offset from it (at most 2 mm), so that the dice above stay over
    the foot. It stops when the tower leans: its highest die tilted more than 1.5 degrees, or its
    centre more than 1.5 mm off the foot (a tower that leans further mostly falls while it settles).
    ``pyramid``: a corner-down pyramid around the centre funnel, the largest the hand can fill (20
    dice: 4 layers), layer by layer: each die held in the lattice's orientation and let go 1 mm above
    its seat, into the lowest open seat (nearest the middle first) whose three supports the world
    shows seated and that no loose die blocks. It stops when no seat is open.

    The tremor: every release point misses by a normal error of ``tremor_mm`` mm (standard deviation,
    each horizontal axis), and the die leaves the hand turned from the pose meant by a normal angle of
    ``tremor_deg`` degrees (standard deviation) about a random axis.
    """

    plays = (Emag,)

    STRATEGIES = ("pyramid", "tower")
    DROP = SET_DROP  # metres between the die and what it is set on, at release
    LEAN, LEAN_DEG = 0.0015, 1.5  # a tower whose top die is this far (m) off its foot, or tilted (degrees), leans

    def __init__(
        self, rng: np.random.Generator, strategy: str = "pyramid", tremor_mm: float = 0.5, tremor_deg: float = 2.0
    ) -> None:
        if strategy not in self.STRATEGIES:
            raise ValueError(f"unknown stacking strategy {strategy!r}; choose from {', '.join(self.STRATEGIES)}")
        check_tremor(tremor_mm, tremor_deg)
        self.rng = rng
        self.strategy = strategy
        self.tremor_mm = tremor_mm
        self.tremor_deg = tremor_deg
        self.name = "stack" if strategy == "pyramid" else f"stack-{strategy}"
        self._turn = -1
        self._plan: list[Slot] = []

    def act(self, game: Emag, readout: Readout, elapsed: float) -> PhysicalAction:
        """One set-down by the strategy, or stop."""
        if self._turn != len(game.records):
            self._turn = len(game.records)
            size = max((n for n in geometry.SMALL_PYRAMID_LAYERS if n <= len(game.hand)), default=1)
            self._plan = geometry.small_pyramid(size, geometry.small_pyramid_apexes(size)["centre"])
        if not game.hand:
            return Wait(0.1)
        choice = self._tower(readout) if self.strategy == "tower" else self._pyramid(readout)
        if choice is None:
            game.stop()
            return Wait(0.1)
        point, rotation = choice
        return held_release(game.next_die(), point, rotation, self.rng, self.tremor_mm, self.tremor_deg)

    def _tower(self, readout: Readout) -> tuple[np.ndarray, np.ndarray] | None:
        spot = np.array(tower_spot(0))
        corner = geometry.slab_corners()[0]
        # Flat, the die's diagonal along the corner's bisector: a quarter turn's half about the vertical.
        rotation = geometry.quat_to_matrix(
            hands.axis_angle_quat(np.array([0.0, 0.0, 1.0]), math.radians(45.0) + math.atan2(corner[1], corner[0]))
        )[0]
        if not readout.dice:
            return spot + np.array([0.0, 0.0, self.DROP]), rotation
        top = max(readout.dice.values(), key=lambda r: r.position[2])
        foot = np.array(min(readout.dice.values(), key=lambda r: r.position[2]).position)  # where it stands
        here = np.array(top.position)
        if (
            top.status is not Status.LYING
            or top.tilt > self.LEAN_DEG
            or np.linalg.norm(here[:2] - foot[:2]) > self.LEAN
        ):
            return None
        back = 0.5 * (foot[:2] - here[:2])
        back *= min(1.0, 0.002 / max(float(np.linalg.norm(back)), 1e-12))
        return np.array([here[0] + back[0], here[1] + back[1], here[2] + EDGE + self.DROP]), rotation

    def _pyramid(self, readout: Readout) -> tuple[np.ndarray, np.ndarray] | None:
        seated = set(readout.pyramid)
        loose = [np.array(r.position) for r in readout.dice.values() if r.status is not Status.SEATED]
        middle = np.mean([geometry.slot_centre(s) for s in self._plan], axis=0)

        def open_seat(slot: Slot) -> bool:
            if slot in seated:
                return False
            held = geometry.layer(slot) == geometry.BASE_LAYER or all(s in seated for s in geometry.supports(slot))
            centre = geometry.slot_centre(slot) * EDGE
            return held and all(float(np.linalg.norm(centre - p)) > EDGE for p in loose)

        seats = [s for s in self._plan if open_seat(s)]
        if not seats:
            return None
        slot = min(
            seats, key=lambda s: (-geometry.layer(s), float(np.linalg.norm(geometry.slot_centre(s) - middle[:3])))
        )
        point = geometry.slot_centre(slot) * EDGE + np.array([0.0, 0.0, self.DROP])
        return point, geometry.seated_rotation((1, 2, 3))


# --- pulling dice out and mounting more on them (Mount(a)ing) ---------------------------------------


def _shift(cell: tuple[int, int, int], axis: int, by: int) -> tuple[int, int, int]:
    out = list(cell)
    out[axis] += by
    return (out[0], out[1], out[2])


class MountHand(Controller[Mounting]):
    """Mount(a)ing: on each face of the pyramid in turn, pulls the inner dice of the base row ``depth`` m
    out, sets dice on the balconies they make, then coats the face row by row up to the top.

    The plan for a face (lattice axis f, the face where the pyramid's f coordinate is least): pull the
    base row's dice but its two corners along +f; then the cells one step outside the face, lowest row
    first, each when its three supports hold a die (read from the world: a die within 0.75 edges of
    the support's cell; a pulled die stands in for the cell outside its slot). A pulled die found back
    in its slot is pulled again (once). When no cell of any face can be filled it stops.
    """

    name = "mount"
    plays = (Mounting,)

    def __init__(self, rng: np.random.Generator, depth: float = 0.008, scatter: float = 0.0003) -> None:
        self.rng = rng
        self.depth = depth
        self.scatter = scatter
        self._turn = -1
        self._pulls: list[tuple[int, tuple[int, int, int]]] = []
        self._cells: list[tuple[int, int, int]] = []
        self._tries: dict[tuple[int, int, int], int] = {}

    def _plan(self, game: Mounting) -> None:
        apex, n = game.apex, game.layers
        self._pulls, self._cells, self._tries = [], [], {}
        for f in range(3):
            a, b = (x for x in range(3) if x != f)
            for p in range(1, n - 1):
                rel = [0, 0, 0]
                rel[a], rel[b] = p, n - 1 - p
                self._pulls.append((f, (apex[0] + rel[0], apex[1] + rel[1], apex[2] + rel[2])))
            for total in range(n - 2, 1, -1):  # the rows outside the face, lowest first
                for p in range(1, total):
                    rel = [0, 0, 0]
                    rel[f], rel[a], rel[b] = -1, p, total - p
                    self._cells.append((apex[0] + rel[0], apex[1] + rel[1], apex[2] + rel[2]))

    def act(self, game: Mounting, readout: Readout, elapsed: float) -> PhysicalAction:
        """The next pull or set-down of the plan, or stop when nothing more can be mounted."""
        if self._turn != len(game.records):
            self._turn = len(game.records)
            self._plan(game)
        centres = {d: -geometry.plate_to_cube(np.array(r.position) / EDGE) for d, r in readout.dice.items()}
        points = np.array(list(centres.values())) if centres else np.zeros((0, 3))

        def near(cell: tuple[int, int, int], within: float) -> bool:
            return bool(len(points)) and float(np.linalg.norm(points - np.array(cell), axis=1).min()) < within

        # A pull first: each planned one once, again if the die slid back into its slot.
        for f, slot in self._pulls:
            tries = self._tries.get(slot, 0)
            die = readout.slot_die.get(slot)
            back = die is not None and readout.dice[die].seat_error < 0.15
            face_free = _shift(slot, f, -1) not in readout.pyramid
            if back and face_free and tries < 2:
                self._tries[slot] = tries + 1
                return Pull(slot, distance=self.depth, axis=f, speed=0.03)
        # Then the lowest empty cell whose three supports hold dice.
        for cell in self._cells:
            if near(cell, 0.5):
                continue
            if all(near(_shift(cell, axis, 1), 0.75) for axis in range(3)) and game.hand:
                return Attach(game.next_die(), cell, scatter=self.scatter)
        game.stop()
        return Wait(0.1)
