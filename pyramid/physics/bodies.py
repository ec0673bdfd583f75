"""The dice in the engine and how they are read: the base of ``World`` (see ``pyramid.physics.world``).

It holds the state every part of the world shares (the engine client, the dice's bodies, the plate's
pose) and reads poses and velocities back; stepping, the hands and building sit on top of it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid.dice import DICE, DieId
from pyramid.physics import riding, stage
from pyramid.physics.bullet import BulletClient
from pyramid.physics.die_shape import die_scales, die_volume, make_die_shape, shape_margin
from pyramid.physics.region import Region
from pyramid.physics.riding import Carriage
from pyramid.physics.settings import Physics

Vector = Sequence[float] | np.ndarray  # a point, direction, velocity or quaternion


@dataclass(eq=False)
class Observer:
    """A callback due every ``period`` engine steps (see ``World.observe``)."""

    period: int
    callback: Callable[[], object]
    due: int | Fraction = 0


class Bodies:
    """The shared state of a world and its read-outs of the engine; ``World.__post_init__`` fills it in."""

    physics: Physics
    plate: bool
    client: BulletClient
    _ticks: int | Fraction  # engine steps taken (a sub-step counts its part): the clock
    _observers: list[Observer]  # called as simulated time passes (see ``observe``)
    _bodies: dict[DieId, int]
    _at_rest: bool
    _asleep: bool
    _plate_bodies: list[int]
    _plate_pose: np.ndarray
    _ride: float
    _finger: tuple[int, int] | None  # the pressing fingertip's body and joint (see ``press``)
    _grip: tuple[DieId, int, int] | None  # the die a hand carries, the hand, the joint (``hold``)
    _plate_velocity: tuple[Vector, Vector]
    _plate_moving: bool  # the hand moves the plate: it has a mass (see ``_plate_mass``)
    _plate_moved: bool  # the plate moved since the last hold test: hold nothing
    _plate_jolted: bool  # the plate moved too hard to carry dice since the last hold test: hold nothing
    _region: Region | None  # local physics: which dice are held still (None: every die is simulated)
    _carriage: Carriage | None  # local physics while the hand moves the plate: the held dice it carries
    _apart: set[DieId]  # held dice that meet neither the plate nor each other (since a carriage; see ``_rejoin``)
    _gravity: np.ndarray  # (3,) m/s^2, world frame
    _stepped: list[int]  # dice simulated, summed over steps; steps (see ``count_steps``)
    _before: tuple[list[DieId], np.ndarray] | None  # the last step's checked dice and their velocities (``checks``)
    _read: tuple[int, list[DieId], np.ndarray, np.ndarray] | None  # after the last step: ``moves``, dice, poses, speeds
    _die_shape: int  # the collision shape every die of the nominal size shares
    _sized: dict[DieId, tuple[int, float]]  # with a size spread: each die's own shape and mass, made at its first spawn
    _jitter: np.random.Generator | None  # nudges every die put in (``Physics.jitter``), or None
    _die_visual: int
    _textures: dict[str, int]

    @property
    def dice(self) -> list[DieId]:
        """The dice in play, by number."""
        return sorted(self._bodies)

    @property
    def asleep(self) -> bool:
        """Whether every die sleeps now (``sleep``): nothing moves until something wakes them."""
        return self._asleep

    @property
    def at_rest(self) -> bool:
        """Whether the last settle found every die at rest and nothing has happened since."""
        return self._at_rest

    def _body(self, die: DieId) -> int:
        try:
            return self._bodies[die]
        except KeyError:
            raise ValueError(f"die {die} is not in play") from None

    def _raw_poses(self, dice: Iterable[DieId]) -> np.ndarray:
        get = self.client.getBasePositionAndOrientation
        return np.array([sum(map(tuple, get(self._bodies[d])), ()) for d in dice]).reshape(-1, 7)

    def poses(self) -> tuple[list[DieId], np.ndarray]:
        """The dice in play and their poses (n, 7): position (metres) and quaternion (x, y, z, w)."""
        dice = self.dice
        return dice, self._raw_poses(dice)

    def velocities(self) -> np.ndarray:
        """Linear (m/s) and angular (rad/s) velocity (n, 6) of the dice in play, in ``dice`` order."""
        return self._raw_velocities(self.dice)

    def _raw_velocities(self, dice: Iterable[DieId]) -> np.ndarray:
        get = self.client.getBaseVelocity
        return np.array([sum(map(tuple, get(self._bodies[d])), ()) for d in dice]).reshape(-1, 6)

    @property
    def plate_pose(self) -> np.ndarray:
        """The plate's pose (7,): position of its underside centre and quaternion (x, y, z, w)."""
        return self._plate_pose.copy()

    @property
    def die_mass(self) -> float:
        """Mass of one die of the nominal size in kilograms (a rounded die weighs what its rounded volume does)."""
        ph = self.physics
        return ph.density * die_volume(ph)

    def _shape_and_mass(self, die: DieId) -> tuple[int, float]:
        """The collision shape and the mass (kg) of ``die``: the shared ones, or with a size spread its own."""
        ph = self.physics
        if not ph.size_spread:
            return self._die_shape, self.die_mass
        if die not in self._sized:
            scale = float(die_scales(ph)[die])
            self._sized[die] = (make_die_shape(self.client, ph, scale), ph.density * die_volume(ph, scale))
        return self._sized[die]

    def _spawn(self, die: DieId, position: Vector, orientation: Vector, nudge: bool = True) -> int:
        """Give ``die`` a body at ``position`` and ``orientation``, nudged by the jitter if on (not when restoring)."""
        _check_die(die)
        if die in self._bodies:
            raise ValueError(f"die {die} is already in play")
        c, ph = self.client, self.physics
        if self._jitter is not None and nudge:
            position, orientation = nudged(self._jitter, position, orientation)
        shape, mass = self._shape_and_mass(die)
        body = c.createMultiBody(
            mass,
            shape,
            self._die_visual,
            basePosition=list(position),
            baseOrientation=list(orientation),
            useMaximalCoordinates=ph.maximal_coordinates,
        )
        c.changeDynamics(
            body,
            -1,
            lateralFriction=ph.friction_die,
            restitution=ph.restitution_die,
            rollingFriction=ph.rolling_friction,
            spinningFriction=ph.spinning_friction,
            # Continuous collision detection: a die flung fast must not tunnel through the table.
            ccdSweptSphereRadius=0.4 * ph.edge,
            frictionAnchor=int(ph.friction_anchor),
        )
        margin = shape_margin(ph)
        if margin is not None:
            c.changeDynamics(body, -1, collisionMargin=margin)
        if self._textures:
            c.changeVisualShape(body, -1, textureUniqueId=self._textures[DICE[die].colour])
        self._bodies[die] = body
        if self._apart:
            c.setCollisionFilterGroupMask(body, -1, riding.SIMULATED_GROUP, -1)  # it meets the held dice
        if self._region is not None:
            self._region.activated([die], np.array([[*position, *orientation]], dtype=float))
        self._changed()
        return body

    def dress(self) -> None:
        """Give every die its colour's texture in PyBullet's own pictures (``render``, its window), and every die put in
        from now on: loaded once, when first drawn so (most worlds never are)."""
        if self._textures:
            return
        self._textures = stage.load_die_textures(self.client, self.physics)
        for die, body in self._bodies.items():
            self.client.changeVisualShape(body, -1, textureUniqueId=self._textures[DICE[die].colour])

    def _changed(self) -> None:
        self._at_rest = False
        if self._asleep:
            # A new or vanished body touches the sleeping island: let Bullet wake what it reaches.
            self._asleep = False

    def _plate_mass(self, moving: bool) -> None:
        """Give the plate a mass while the hand moves it, and none while it stands still.

        The contact solver uses a body's velocity only if the body has a mass (see
        ``stage.make_plate``); standing still, the plate is static again: dice resting on it then
        form islands of their own, and held dice touching it are not tested against it.
        """
        if moving != self._plate_moving:
            for body in self._plate_bodies:
                self.client.changeDynamics(body, -1, mass=stage.PLATE_MASS if moving else 0.0)
            self._plate_moving = moving


def _check_die(die: DieId) -> None:
    """ValueError unless ``die`` numbers a die of the set."""
    if not (isinstance(die, int | np.integer) and 0 <= die < len(DICE)):
        raise ValueError(f"die {die!r} is not in the set (0..{len(DICE) - 1})")


JITTER_SHIFT = 1e-9  # m: the standard deviation of a jittered die's nudge along each axis
JITTER_TURN = 1e-9  # rad: and of its turn about each axis


def jitter_seed(physics: Physics) -> int | None:
    """The seed of the nudges: ``physics.jitter``, else the environment's PYRAMID_JITTER, else None (off)."""
    if physics.jitter is not None:
        return physics.jitter
    text = os.environ.get("PYRAMID_JITTER", "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise ValueError(f"PYRAMID_JITTER must be a seed (a whole number >= 0) or empty, got {text!r}")
    return int(text)


def nudged(rng: np.random.Generator, position: Vector, orientation: Vector) -> tuple[list[float], list[float]]:
    """``position`` (3,) and quaternion ``orientation`` (4,) moved and turned by a seeded hair (``JITTER_*``)."""
    shift = rng.normal(0.0, JITTER_SHIFT, size=3)
    turn = Rotation.from_rotvec(rng.normal(0.0, JITTER_TURN, size=3))
    quat = (turn * Rotation.from_quat(np.asarray(orientation, dtype=float))).as_quat()
    return (np.asarray(position, dtype=float) + shift).tolist(), quat.tolist()
