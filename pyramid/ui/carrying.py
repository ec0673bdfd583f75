"""The carrying hand of the free table: a left-drag picks a die up, Q and E turn it, R rolls it, letting go
while the mouse moves throws it. Driven by ``pyramid.ui.hands``; the world's ``hold`` does the carrying.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.dice import DieId
from pyramid.physics.hands import HAND_SPEED

if TYPE_CHECKING:
    from pyramid.physics.world import World

CARRY_LIFT = 0.03  # metres: how far above where it lay a carried die is held
TURN = 90.0  # degrees: Q and E turn a carried die a quarter about the vertical (its top face stays up)
STEP = 1 / 60  # seconds: the hand moves once a picture


class Carrier:
    """A hand that carries one die towards the point under the mouse (``aim``: the camera ray through it)."""

    def __init__(
        self, world: Callable[[], World], aim: Callable[[], tuple[np.ndarray, np.ndarray]], rng: np.random.Generator
    ) -> None:
        self.world = world
        self.aim = aim
        self.rng = rng
        self.die: DieId | None = None
        self.height = 0.0  # metres: the height the die is carried at
        self.hand: np.ndarray | None = None  # where the hand holds it now (3,)

    def pick_up(self, die: DieId) -> None:
        """Take ``die``: from the next step on it is held ``CARRY_LIFT`` above where it lies."""
        world = self.world()
        self.die, self.hand = die, None
        self.height = float(world.poses()[1][world.dice.index(die), 2]) + CARRY_LIFT

    def step(self) -> None:
        """The hand moves towards the point under the mouse at the carrying height, for 1/60 s.

        It moves at most ``HAND_SPEED`` (m/s), the fastest the hand's throw allows, so a quick flick
        of the mouse throws the die hard but not absurdly; released, the die keeps the hand's velocity.
        """
        if self.die is None:
            return
        world, die = self.world(), self.die
        if die not in world.dice:
            self.die = self.hand = None
            world.hold(None)
            return
        origin, direction = self.aim()
        hand = self.hand if self.hand is not None else world.poses()[1][world.dice.index(die), :3].copy()
        if direction[2] < -1e-6:
            wanted = origin + (self.height - origin[2]) / direction[2] * direction
            way = wanted - hand
            reach = HAND_SPEED * STEP
            distance = float(np.linalg.norm(way))
            hand = hand + (way if distance <= reach else way * (reach / distance))
        self.hand = hand
        world.hold(die, hand)
        world.step(STEP)

    def let_go(self) -> tuple[DieId, float] | None:
        """Open the hand: the die flies on with the hand's velocity (a throw) or drops. The die and its speed (m/s)."""
        if self.die is None:
            return None
        world, die = self.world(), self.die
        self.die = self.hand = None
        speed = float(np.linalg.norm(world.velocities()[world.dice.index(die), :3])) if die in world.dice else 0.0
        world.hold(None)
        return die, speed

    def turn(self, degrees: float) -> None:
        """Turn the carried die ``degrees`` about the vertical (Q: +90, E: -90), still in the hand."""
        if self.die is None or self.die not in self.world().dice:
            return
        world = self.world()
        quat = world.poses()[1][world.dice.index(self.die), 3:]
        self._regrip((Rotation.from_euler("z", degrees, degrees=True) * Rotation.from_quat(quat)).as_quat())

    def roll(self) -> None:
        """Roll the carried die in the hand: it shows one of its 24 ways up, drawn at random."""
        if self.die is None or self.die not in self.world().dice:
            return
        up = geometry.ALL_UP_FACES[int(self.rng.integers(len(geometry.ALL_UP_FACES)))]
        self._regrip(geometry.matrix_to_quat(geometry.orientation_matrix(up)))

    def _regrip(self, quat: np.ndarray) -> None:
        """The hand sets the die in itself turned to ``quat`` (x, y, z, w) and grips it again, where it holds it."""
        assert self.die is not None
        world, die = self.world(), self.die
        position = self.hand if self.hand is not None else world.poses()[1][world.dice.index(die), :3]
        world.remove(die, pull=False)
        world.throw(die, tuple(float(v) for v in position), orientation=tuple(float(v) for v in quat))
        world.hold(die, position)
