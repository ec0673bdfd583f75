"""The shared moves on the lattice (pyramid.moves) and the Move action, on hand-made positions."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid import geometry
from pyramid.moves import JUMPS, LONG_JUMPS, carry, edge_column, edge_slide, jump_targets, move_length, reach
from pyramid.rules import Move, exact_result
from pyramid.state import Cell, PyramidState


def test_the_jumps_are_ls_in_a_plane_parallel_to_a_face() -> None:
    assert len(set(JUMPS)) == 36 and len(set(LONG_JUMPS)) == 24
    for d in JUMPS:
        assert d.count(0) == 1 and sorted(map(abs, d)) in ([0, 1, 1], [0, 1, 2])
    assert {d for d in JUMPS if sorted(map(abs, d)) == [0, 1, 1] and sum(d) == 0} == set(geometry.NEIGHBOUR_STEPS)
    assert all(sorted(map(abs, d)) == [0, 1, 3] for d in LONG_JUMPS)


def test_only_jumps_within_a_layer_or_one_layer_up_or_down_are_ever_made() -> None:
    # every stable state reached by random building: the jumps that can be made change the layer by
    # 0 (arms 1 and 1), 1 (arms 2 and 1) or 2 (the long jump), never more
    rng = np.random.default_rng(3)
    made: set[tuple[int, int]] = set()
    for _ in range(60):
        occupied: set[tuple[int, int, int]] = set()
        for _ in range(int(rng.integers(5, 100))):
            slots = geometry.open_slots(occupied)
            occupied.add(slots[int(rng.integers(len(slots)))])
        for s in occupied:
            for t in jump_targets(occupied, s, long=True):
                made.add((abs(geometry.layer(t) - geometry.layer(s)), move_length(s, t)))
    assert made == {(0, 2), (1, 3), (2, 4)}


def test_a_die_alone_on_the_plate_jumps_to_its_in_layer_neighbours() -> None:
    assert jump_targets({(4, 2, 2)}, (4, 2, 2)) == sorted(
        geometry.neighbours((4, 2, 2)), key=geometry.SLOT_INDEX.__getitem__
    )
    assert jump_targets({(8, 0, 0)}, (8, 0, 0)) == [(7, 0, 1), (7, 1, 0)]


def test_a_jump_onto_dice_needs_the_die_behind_the_movement_plane() -> None:
    funnel = {(8, 0, 0), (7, 1, 0), (7, 0, 1)}
    # across: the die in (6, 1, 0) (layer 7) jumps along +i, -j into the funnel (7, 0, 0) of three base dice
    occupied = funnel | {(6, 2, 0), (6, 1, 1), (6, 1, 0)}
    assert (7, 0, 0) in jump_targets(occupied, (6, 1, 0))
    # the movement plane is k = 0; without the die behind it in k = 1 the die would slide off: no jump
    assert (7, 0, 0) not in jump_targets(occupied - {(7, 0, 1)}, (6, 1, 0))
    # up one layer: from the plate over (7, 1, 0), one step along +i and two along -j
    assert (7, 0, 0) in jump_targets(funnel | {(6, 2, 0)}, (6, 2, 0))
    assert (7, 0, 0) not in jump_targets({(8, 0, 0), (7, 1, 0), (6, 2, 0)}, (6, 2, 0))


def test_a_covered_die_is_blocked_and_the_top_of_a_little_pyramid_is_stuck() -> None:
    pyramid4 = set(geometry.small_pyramid(4, (7, 0, 0)))
    assert jump_targets(pyramid4, (8, 0, 0)) == []  # (7, 0, 0) rests on it
    # from the top: down one layer onto the plate over a ridge of its base (arms 1 and 2)
    assert jump_targets(pyramid4, (7, 0, 0)) == [(6, 0, 2), (6, 2, 0)]
    assert jump_targets(set(geometry.small_pyramid(10, (6, 0, 0))), (6, 0, 0)) == []
    # a die beside it on the plate steps around it, never into its slots
    assert jump_targets(pyramid4 | {(6, 2, 0)}, (6, 2, 0)) == [(5, 2, 1), (5, 3, 0), (6, 1, 1)]


def test_the_long_jump_climbs_two_layers() -> None:
    # the top of a 10-die corner pyramid is open; a die on the plate at (5, 3, 0) reaches it with arms 1 and 3
    ten = set(geometry.small_pyramid(10, (6, 0, 0))) - {(6, 0, 0)}
    assert (6, 0, 0) not in jump_targets(ten | {(5, 3, 0)}, (5, 3, 0))
    assert (6, 0, 0) in jump_targets(ten | {(5, 3, 0)}, (5, 3, 0), long=True)


@pytest.mark.parametrize(
    ("source", "target", "length"),
    [
        ((6, 0, 0), (5, 3, 0), 4),  # Diebylon: from the top of a 10-die corner pyramid onto the plate
        ((6, 0, 0), (4, 4, 0), 6),
        ((4, 2, 2), (3, 3, 2), 2),  # in one layer: always even
        ((4, 2, 2), (3, 2, 2), 1),  # one layer up onto its own column: never open, "you cannot move with a 1"
        ((4, 2, 2), (3, 1, 3), 3),  # one layer up elsewhere: odd
        ((4, 2, 2), (2, 2, 2), 2),  # two layers up
    ],
)
def test_move_length_fits_the_diebylon_examples(
    source: tuple[int, int, int], target: tuple[int, int, int], length: int
) -> None:
    assert move_length(source, target) == length
    assert move_length(source, target) % 2 == abs(geometry.layer(source) - geometry.layer(target)) % 2


def test_reach_from_the_top_of_a_ten_die_corner_pyramid_starts_with_a_four_or_a_six() -> None:
    ten = set(geometry.small_pyramid(10, (6, 0, 0)))
    lengths = {n for n in range(1, 7) if reach(ten, (6, 0, 0), n)}
    assert lengths == {4, 6}
    assert reach(ten, (7, 0, 0), 4) == []  # a die under another cannot move


def test_edge_slide_takes_the_bottom_die_to_the_top() -> None:
    twenty = {s: Cell("black") for s in geometry.small_pyramid(20, (5, 0, 0))}
    twenty.update({(6, 0, 0): Cell("red"), (7, 0, 0): Cell("green"), (8, 0, 0): Cell("blue")})
    column = edge_column(twenty, (8, 0, 0), 0)
    assert column == [(8, 0, 0), (7, 0, 0), (6, 0, 0), (5, 0, 0)]
    after = carry(twenty, edge_slide(column))
    colours = [after[s].colour for s in column]
    assert colours == ["green", "red", "black", "blue"]  # bottom to top: the edge slid down, blue on top
    assert set(after) == set(twenty) and geometry.is_stable(after)
    # an edge along +j of the same pyramid rises from (5, 3, 0)
    assert edge_column(twenty, (5, 3, 0), 1) == [(5, 3, 0), (5, 2, 0), (5, 1, 0), (5, 0, 0)]
    with pytest.raises(ValueError, match="two dice"):
        edge_slide([(8, 0, 0)])


def test_carry_refuses_a_taken_target_and_an_empty_source() -> None:
    cells = {(8, 0, 0): 1, (7, 1, 0): 2}
    assert carry(cells, [((8, 0, 0), (7, 0, 1))]) == {(7, 0, 1): 1, (7, 1, 0): 2}
    with pytest.raises(ValueError, match="taken"):
        carry(cells, [((8, 0, 0), (7, 1, 0))])
    with pytest.raises(ValueError, match="no die"):
        carry(cells, [((6, 2, 0), (7, 0, 1))])


def test_the_move_action_keeps_the_faces() -> None:
    state = PyramidState({(8, 0, 0): Cell("red", (1, 2, 3))})
    move = Move((((8, 0, 0), (7, 1, 0)),))
    after = exact_result(state, move, (6, 5, 4))
    assert after == PyramidState({(7, 1, 0): Cell("red", (1, 2, 3))})
    assert str(move) == "move (8, 0, 0) to (7, 1, 0)"
    assert Move(move.steps, name="jump") == move and str(Move(move.steps, name="jump")) == "jump"
