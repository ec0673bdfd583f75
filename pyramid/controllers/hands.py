"""The other programmed hands: Mikado, flick, throw, ladle, a person, malice, fowl, stacker, mount."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pyramid import geometry
from pyramid.actions import Attach, Blow, Flick, Lift, PhysicalAction, Pour, Pull, Shake, Throw, Tilt, Wait
from pyramid.controllers.base import EDGE, Controller, reachable, weakened
from pyramid.controllers.plate import azimuth_to
from pyramid.geometry import Slot
from pyramid.perception import Readout


class MikadoHand(Controller):
    """A Mikado player: lifts one reachable die per action, chosen by ``strategy``.

    ``random``: any reachable die. ``bottom``: the lowest reachable die (the base first), at random
    among equals. ``careful``: never leave a die with fewer than two of its supports (friction holds a
    die on two, see design.md), keep off the pyramid's edges (a pulled edge die drags the edge above
    it, up to the top), then the lowest; it lifts at half speed.
    """

    STRATEGIES = ("random", "bottom", "careful")

    def __init__(self, rng: np.random.Generator, strategy: str = "careful") -> None:
        if strategy not in self.STRATEGIES:
            raise ValueError(f"unknown Mikado strategy {strategy!r}; choose from {', '.join(self.STRATEGIES)}")
        self.rng = rng
        self.strategy = strategy
        self.name = f"mikado-{strategy}"

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """Lift the chosen die."""
        top = getattr(game, "top_slot", None)
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
class FlickHand(Controller):
    """Flicks the player's next die from the table edge towards the plate's centre (Flickers)."""

    name = "flick"

    def __init__(self, rng: np.random.Generator, impulse: float = 0.007) -> None:
        self.rng = rng
        self.impulse = impulse

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """Flick the die the game offers next, aimed at the plate's centre with a little scatter."""
        die: int = game.next_die(readout)
        here = np.array(readout.dice[die].position)
        heading = azimuth_to(here, np.zeros(3)) + float(self.rng.normal(0, 4))
        impulse = self.impulse * float(np.clip(1 + self.rng.normal(0, 0.1), 0.5, 1.5))
        return Flick(die, heading, impulse=impulse, elevation=20.0)


class ThrowHand(Controller):
    """Throws the player's next die at the point the game names, from the height and distance it names."""

    name = "throw"

    def __init__(self, rng: np.random.Generator, scatter: float = 0.08) -> None:
        self.rng = rng
        self.scatter = scatter

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """Throw at the game's suggested target from a random side."""
        die, target, height = game.next_throw(readout, self.rng)
        return Throw(
            die, target, height=height, distance=0.1, azimuth=float(self.rng.uniform(0, 360)), scatter=self.scatter
        )


class LadleHand(Controller):
    """Fills the ladle with as many dice as the game allows and pours them over the pyramid's centre."""

    name = "ladle"

    def __init__(self, rng: np.random.Generator, count: int = 6) -> None:
        self.rng = rng
        self.count = count

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """Pour a ladleful above the plate, a little off centre."""
        dice: list[int] = game.ladleful(self.count)
        spot = self.rng.normal(0, 0.015, size=2)
        return Pour(tuple(dice), (float(spot[0]), float(spot[1])), height=0.12, azimuth=float(self.rng.uniform(0, 360)))


class HumanHand(Controller):
    """A person at the terminal types an action, e.g. ``tilt 180 12``, ``blow 0 0 0.03 90 20``, ``lift 8 0 0``."""

    name = "human"
    HELP = (
        "actions: tilt AZIMUTH ANGLE [HOLD SHAKE_M] | shake AMPLITUDE_M [FREQ DURATION AZIMUTH] | "
        "blow X Y Z AZIMUTH SPEED [DURATION] | flick DIE AZIMUTH [IMPULSE] | throw DIE X Y [HEIGHT] | "
        "lift I J K | pull I J K [DISTANCE_M AXIS] | attach DIE I J K | stop | wait SECONDS"
        "   (metres, degrees, seconds)"
    )

    def __init__(self, ask: Callable[[str], str] = input, show: Callable[[str], None] = print) -> None:
        self.ask = ask
        self.show = show

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """The action the person types; asks again on bad input."""
        self.show(f"{elapsed:.2f} s into the turn; pyramid {readout.notation()}; {len(readout.dice)} dice in play")
        for r in readout.dice.values():
            place = f"slot {r.slot}" if r.slot else r.status.value
            pos = ", ".join(f"{100 * c:.1f}" for c in r.position)
            self.show(f"  die {r.die:3d} {r.colour:<5} at ({pos}) cm, {place}{'' if r.on_plate else ', off the plate'}")
        while True:
            text = self.ask(self.HELP + "\n> ")
            if text.strip().lower() == "stop" and hasattr(game, "stop"):
                game.stop()
                return Wait(0.0)
            try:
                return parse_action(text)
            except ValueError as err:
                self.show(f"not understood: {err}")


def parse_action(text: str) -> PhysicalAction:
    """A physical action from a typed line (see ``HumanHand.HELP``); ValueError if it cannot be read."""
    words = text.split()
    if not words:
        raise ValueError("empty line")
    verb, nums = words[0].lower(), [float(w) for w in words[1:]]
    arity = {
        "tilt": (2, 4),
        "shake": (1, 4),
        "blow": (5, 6),
        "flick": (2, 3),
        "throw": (3, 4),
        "lift": (3, 3),
        "pull": (3, 5),
        "attach": (4, 4),
        "wait": (1, 1),
    }
    if verb not in arity:
        raise ValueError(f"unknown action {verb!r}")
    low, high = arity[verb]
    if not low <= len(nums) <= high:
        raise ValueError(f"{verb} takes {low} to {high} numbers, got {len(nums)}")
    if verb == "tilt":
        return Tilt(nums[0], nums[1], hold=nums[2] if len(nums) > 2 else 0.5, shake=nums[3] if len(nums) > 3 else 0.0)
    if verb == "shake":
        return Shake(*nums)
    if verb == "blow":
        return Blow((nums[0], nums[1], nums[2]), nums[3], speed=nums[4], duration=nums[5] if len(nums) > 5 else 0.4)
    if verb == "flick":
        return Flick(int(nums[0]), nums[1], *(nums[2:]))
    if verb == "throw":
        return Throw(int(nums[0]), (nums[1], nums[2]), *(nums[3:]))
    if verb == "lift":
        return Lift((int(nums[0]), int(nums[1]), int(nums[2])))
    if verb == "pull":
        slot = (int(nums[0]), int(nums[1]), int(nums[2]))
        return Pull(slot, nums[3] if len(nums) > 3 else 0.006, int(nums[4]) if len(nums) > 4 else None)
    if verb == "attach":
        return Attach(int(nums[0]), (int(nums[1]), int(nums[2]), int(nums[3])))
    return Wait(nums[0])


# --- setting dice down by hand (Malicious Pleasure, The Vain Guinea Fowl) ----------------------------


def set_down(die: int, point: tuple[float, float, float]) -> Throw:
    """A die let go from a hand held still at ``point`` (no push, no spin): it drops into what lies below."""
    return Throw(die, (point[0], point[1]), height=point[2], distance=0.0, spin=0.0, scatter=0.0)


class MaliceHand(Controller):
    """Malicious Pleasure: throws the turn's die from the game's height, then sets down the dice it earns."""

    name = "malice"

    def __init__(self, rng: np.random.Generator, scatter: float = 0.1) -> None:
        self.rng = rng
        self.scatter = scatter

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """The throw at the start of the turn; afterwards one set-down into the game's open funnel."""
        if game.thrown is None:
            die, target, height = game.next_throw(readout, self.rng)
            azimuth = float(self.rng.uniform(0, 360))
            return Throw(die, target, height=height, distance=0.1, azimuth=azimuth, scatter=self.scatter)
        die, point = game.next_set_down()
        return set_down(die, point)


class FowlHand(Controller):
    """The Vain Guinea Fowl: lifts out a die showing a wrong number, jiggles loose dice, else rolls the next die."""

    name = "fowl"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._shaken: set[int] = set()

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """One lift, shake (once for each die newly loose) or roll."""
        free = set(readout.pyramid.free_slots())
        wrong = [s for s in game.wrong(readout) if s in free]
        if wrong:
            return Lift(wrong[0], speed=0.04)
        loose = set(game.loose(readout))
        if loose - self._shaken:
            self._shaken |= loose
            return Shake(0.001, 8.0, 0.3, float(self.rng.uniform(0, 360)))
        roll = game.next_roll(readout)
        if roll is None:
            return Wait(0.2)
        die, point = roll
        return set_down(die, point)


class StackHand(Controller):
    """Emag: sets the next die down on top of the highest die, a little off its centre at random."""

    name = "stack"

    def __init__(self, rng: np.random.Generator, wobble: float = 0.002) -> None:
        self.rng = rng
        self.wobble = wobble

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """One set-down where the game says the top is."""
        die, (x, y, z) = game.next_set_down(readout)
        dx, dy = self.rng.normal(0.0, self.wobble, size=2)
        return set_down(die, (x + float(dx), y + float(dy), z))


# --- pulling dice out and mounting more on them (Mount(a)ing) ---------------------------------------


def _shift(cell: tuple[int, int, int], axis: int, by: int) -> tuple[int, int, int]:
    out = list(cell)
    out[axis] += by
    return (out[0], out[1], out[2])


class MountHand(Controller):
    """Mount(a)ing: on each face of the pyramid in turn, pulls the inner dice of the base row ``depth`` m
    out, sets dice on the balconies they make, then coats the face row by row up to the top.

    The plan for a face (lattice axis f, the face where the pyramid's f coordinate is least): pull the
    base row's dice but its two corners along +f; then the cells one step outside the face, lowest row
    first, each when its three supports hold a die (read from the world: a die within 0.75 edges of
    the support's cell; a pulled die stands in for the cell outside its slot). A pulled die found back
    in its slot is pulled again (once). When no cell of any face can be filled it stops.
    """

    name = "mount"

    def __init__(self, rng: np.random.Generator, depth: float = 0.008, scatter: float = 0.0003) -> None:
        self.rng = rng
        self.depth = depth
        self.scatter = scatter
        self._turn = -1
        self._pulls: list[tuple[int, tuple[int, int, int]]] = []
        self._cells: list[tuple[int, int, int]] = []
        self._tries: dict[tuple[int, int, int], int] = {}

    def _plan(self, game: Any) -> None:
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

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
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
