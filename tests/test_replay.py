"""Recorded matches played back: a skill game's moves replayed in fresh worlds end as the match did. No window."""

from __future__ import annotations

import numpy as np

from pyramid.agents.seats import make_hand
from pyramid.physics.world import World
from pyramid.play import Match
from pyramid.registry import find_game
from pyramid.skillgames.base import SkillGame
from pyramid.skillgames.mount import Mounting
from pyramid.ui.replay import Recorder, ReplayHand


def _record_and_replay(number: int, kinds: list[str], options: dict[str, str], seed: int = 4):  # type: ignore[no-untyped-def]
    """Play a skill game with programmed seats, recording their moves, then replay the moves in fresh worlds
    as the window's Enter does; returns (game, last world) for the match and for the replay."""

    def play(seats):  # type: ignore[no-untyped-def]
        game = find_game(number, SkillGame)(len(kinds), rng=np.random.default_rng([seed, 1]), **options)
        players = [Recorder(p) for p in seats]
        match = Match(game, players, make_world=World, rng=np.random.default_rng([seed, 3]))
        match.run()
        return game, match.world, players

    played, world, recorders = play([make_hand(k, np.random.default_rng([seed, 2, n])) for n, k in enumerate(kinds)])
    replayed, replay_world, _ = play([ReplayHand(r.moves) for r in recorders])
    return (played, world), (replayed, replay_world)


def test_a_replay_of_mounting_sets_down_the_dice_of_the_fresh_hand_and_stops_where_the_player_stopped() -> None:
    # Four layers, a hand of two: the hand pulls dice out and mounts both, then the hand is empty.
    (played, world), (replayed, replay_world) = _record_and_replay(8, ["mount"], {"layers": "4", "dice": "2"})
    assert isinstance(played, Mounting) and isinstance(replayed, Mounting)
    assert "the hand is empty" in played.records[0].end.note and played.records[0].end.value == 2
    assert replayed.hand == [], "the replay took the mounted dice out of the fresh game's hand"
    assert [(r.end, r.actions) for r in replayed.records] == [(r.end, r.actions) for r in played.records]
    mounted = replayed.mounted_dice(replay_world.readout(require_rest=False))
    assert set(mounted) == set(replayed.handed) and set(replayed.handed) <= set(replay_world.dice)
    world.close()
    replay_world.close()
    # Three layers: no balcony holds a die, the programmed hand stops by word; the replay stops there too.
    (played, world), (replayed, replay_world) = _record_and_replay(8, ["mount"], {"layers": "3", "dice": "2"})
    assert "the player stopped" in played.records[0].end.note
    assert [(r.end, r.actions) for r in replayed.records] == [(r.end, r.actions) for r in played.records]
    world.close()
    replay_world.close()


def test_a_replay_of_trulla_pours_the_dice_of_the_fresh_hands_until_they_are_empty() -> None:
    (played, world), (replayed, replay_world) = _record_and_replay(16, ["ladle", "ladle"], {"dice": "6", "rounds": "3"})
    assert played.outcome is not None and sum(map(len, played.hand)) < 2, "the match poured (almost) every die"
    assert replayed.hand == played.hand, "the replay took the poured dice out of the fresh hands as the match did"
    assert replayed.outcome == played.outcome
    assert [(r.player, r.end) for r in replayed.records] == [(r.player, r.end) for r in played.records]
    on_plate = {d for d, r in replay_world.readout(require_rest=False).dice.items() if r.on_plate}
    assert on_plate == {d for d, r in world.readout(require_rest=False).dice.items() if r.on_plate}
    world.close()
    replay_world.close()
