"""Knights / Knatsch: the rule book's combination examples and its example turns on scripted dice, full games."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pytest
from table_scripts import ScriptedRoller, Table, drive

from pyramid.agents.players import Player, RandomPlayer
from pyramid.agents.table_players import OptimalPlayer, TableHumanPlayer
from pyramid.cli.games import rules_text, show_rules
from pyramid.cli.play import play
from pyramid.physics.roller import FastRoller
from pyramid.play import Match
from pyramid.registry import find_game
from pyramid.tablegames import knights_cards as kc
from pyramid.tablegames import knights_dp as kd
from pyramid.tablegames.base import Decision, TableGame
from pyramid.tablegames.knights import Knights


@dataclass
class ScriptedPlayer:
    """Answers with the option starting with each prepared text."""

    name: str
    answers: list[str] = field(default_factory=list)

    def answer(self, decision: Decision) -> int:
        want = self.answers.pop(0)
        return next(k for k, text in enumerate(decision.options) if text.startswith(want))


def _card(kind: str, label: str = "") -> kc.Card:
    return next(c for c in kc.make_deck() if c.kind == kind and c.label == label)


def _table(names: str, throws: list[list[int]]) -> tuple[Table[Knights], list[ScriptedPlayer]]:
    players = [ScriptedPlayer(n) for n in names]
    game = Knights(rng=np.random.default_rng(0), names=list(names))
    for knight, colour in zip(game.knights, kc.COLOURS, strict=False):
        knight.cards = [_card("castle", colour)]
    return Table(game, players, ScriptedRoller(throws)), players


@dataclass
class WatchingPlayer:
    """Plays as the strong player and keeps every decision it was put."""

    seen: list[Decision] = field(default_factory=list)

    def answer(self, decision: Decision) -> int:
        self.seen.append(decision)
        return OptimalPlayer().answer(decision)


def _random(name: str, rng: np.random.Generator) -> RandomPlayer:
    player = RandomPlayer(rng)
    player.name = name
    return player


def test_lookup() -> None:
    assert find_game("knatsch", TableGame) is Knights and find_game("Knights", TableGame) is Knights


def test_combinations_as_in_the_rule_book() -> None:
    card = (3, 3, 2)  # three red 3s and a yellow 2
    assert kc.best_result([4, 4, 4, 1, 6, 6]) > card  # three 4s
    assert kc.best_result([3, 3, 3, 4, 6, 6]) > card  # three 3s and a 4
    assert kc.best_result([1, 1, 1, 1, 6, 6]) > card  # four 1s
    assert not kc.best_result([3, 3, 3, 2, 1, 6]) > card  # the kicker must be higher, not equal
    assert not kc.best_result([3, 3, 3, 1, 6, 6]) > card
    assert kc.best_result([6, 6, 6, 6, 5, 5]) < card  # sixes count for nothing
    assert kc.best_result([2, 2, 1], extra=(2,)) == (3, 2, 1)  # a die card 2 makes a duet a trio
    assert kc.best_result([5, 5, 5, 5, 2, 6]) > kc.KING and not kc.best_result([5, 5, 5, 5, 1, 6]) > kc.KING
    deck = kc.make_deck()
    assert len(deck) == 48 and sum(c.kind == "castle" for c in deck) == 16
    assert sum(c.kind == "tournament" for c in deck) == 9 and sum(c.special for c in deck) == 23


def test_any_dice_may_be_kept() -> None:
    # Against 3-3-3+2 (three 3s, kicker 2), holding 1,2,3,3,5,5 with two rolls to go: keeping 3,3,5,5
    # wins 251/324 (a 3 or a 5 in two dice, else again, a lone die, or 5,5 and two dice after two sixes),
    # the best one-number keep (5,5) 69925/93312.
    target = (3, 3, 2)
    assert Fraction(kd.keep_chance((3, 3, 5, 5), 2, target, 2)).limit_denominator(6**8) == Fraction(251, 324)
    assert Fraction(kd.keep_chance((5, 5), 4, target, 2)).limit_denominator(6**8) == Fraction(69925, 93312)
    one_number = max(kd.keep_chance((w,) * n, 6 - n, target, 2) for w, n in [(1, 1), (2, 1), (3, 2), (5, 2)])
    assert round(kd.keep_chance((3, 3, 5, 5), 2, target, 2), 3) == 0.775 and round(one_number, 3) == 0.749
    # The game offers every keep (35 parts of the hand, and stop) and the strong player keeps 3,3,5,5.
    watcher = WatchingPlayer()
    game = Knights(rng=np.random.default_rng(0), names=["A", "B"])
    result = drive(game.roll_for(0, target, 3, "a castle"), ScriptedRoller([[1, 2, 3, 3, 5, 5], [4, 5]]), [watcher])
    assert result == (3, 5, 4)
    decision = watcher.seen[0]
    assert len(decision.options) == 36 and decision.options[0].startswith("stop")
    assert decision.options[-1] == "roll all 6 dice" and "keep 1,3,5 and roll 3 dice" in decision.options
    assert decision.values is not None
    values = dict(zip(decision.options, decision.values(), strict=True))
    assert values["keep 3,3,5,5 and roll 2 dice"] == pytest.approx(251 / 324, abs=1e-12)
    assert values["keep 5,5 and roll 4 dice"] == pytest.approx(69925 / 93312, abs=1e-12)
    assert values["stop with 5-5+3"] == 0.0
    assert decision.options[OptimalPlayer().answer(decision)] == "keep 3,3,5,5 and roll 2 dice"
    card = rules_text(Knights)
    assert "never helps" not in card and "every\n    multiset" in card and "251/324" in card


def _monte_carlo(target: kc.Result, rolls: int, extra: tuple[int, ...], games: int, seed: int) -> tuple[float, float]:
    """How often the strong player, rolling through the game itself, beats ``target``; the binomial standard error."""
    rng = np.random.default_rng(seed)
    game = Knights(rng=rng, names=["A", "B"])
    deck = kc.make_deck()
    game.knights[0].cards += [next(c for c in deck if c.kind == "die" and c.label == str(v)) for v in extra]
    assert game.knights[0].die_cards() == tuple(sorted(extra))
    roller, player = FastRoller(rng), OptimalPlayer()
    wins = sum(drive(game.roll_for(0, target, rolls, "a card"), roller, [player]) > target for _ in range(games))
    p = kd.fresh_chance(target, rolls, extra)
    return wins / games, float(np.sqrt(p * (1 - p) / games))


@pytest.mark.parametrize(("target", "rolls", "extra"), [((3, 3, 2), 3, ()), (kc.KING, 3, (5,)), ((3, 4, 5), 4, ())])
def test_exact_odds_agree_with_the_game(target: kc.Result, rolls: int, extra: tuple[int, ...]) -> None:
    # The strong player's capture odds are exact under optimal keeps: the game played 1500 times agrees
    # within four binomial standard errors.
    observed, error = _monte_carlo(target, rolls, extra, 1500, seed=11)
    assert observed == pytest.approx(kd.fresh_chance(target, rolls, extra), abs=4 * error)


@pytest.mark.slow
@pytest.mark.parametrize(("target", "rolls", "extra"), [((3, 3, 2), 3, ()), (kc.KING, 3, ()), ((2, 5, 3), 3, (1, 4))])
def test_exact_odds_agree_with_the_game_long(target: kc.Result, rolls: int, extra: tuple[int, ...]) -> None:
    observed, error = _monte_carlo(target, rolls, extra, 40_000, seed=12)
    assert observed == pytest.approx(kd.fresh_chance(target, rolls, extra), abs=4 * error)


def test_optimal_keeps_beat_one_number_keeps() -> None:
    # The exact odds are never below those of keeping one number (the old rule), and above them for 3-3-3+2.
    for target in [(3, 3, 2), (3, 5, 4), kc.KING]:
        for hand in [(1, 2, 3, 3, 5, 5), (2, 2, 4, 4, 5), (1, 1, 5, 5)]:
            best = kd.hand_chance(hand, target, 2)
            singles = [kd.keep_chance((w,) * hand.count(w), len(hand) - hand.count(w), target, 2) for w in set(hand)]
            assert best >= max(singles) - 1e-12
    assert kd.hand_chance((1, 2, 3, 3, 5, 5), (3, 3, 2), 2) > 0.77


def test_odds_of_a_target_are_computed_once_and_then_looked_up() -> None:
    # The strong player asks for the same odds again and again in play: the tables are built once per
    # target (speed is measured in ``pyramid bench``, not asserted here).
    kd.hand_values.cache_clear()
    kd.keep_values.cache_clear()
    first = kd.fresh_chance((4, 4, 3), 4, (2, 3))
    built = kd.hand_values.cache_info().misses + kd.keep_values.cache_info().misses
    assert built > 0
    for _ in range(100):
        assert kd.fresh_chance((4, 4, 3), 4, (2, 3)) == first
    assert kd.hand_values.cache_info().misses + kd.keep_values.cache_info().misses == built


def test_example_castle_from_a_stack() -> None:
    # Anna puts a card under, announces a castle, keeps her two 5s through two rolls and makes three 5s.
    table, (anna, bob) = _table("AB", [[5, 5, 6, 6, 2, 1], [6, 3], [5]])
    game = table.game
    castle = _card("castle", "white")
    game.stacks = [[_card("stack"), castle], [_card("tournament")]]
    anna.answers = ["put the top card of stack 1", f"{castle} from stack 1", "keep 5,5 and", "keep 5,5 and"]
    table.run(game.turn(0))
    assert castle in game.knights[0].cards and game.stacks[0] == [_card("stack")]


def test_example_special_card_then_another_try() -> None:
    # Bob takes a special card at the first roll, tries again for Anna's special card, stops when hopeless.
    table, (anna, bob) = _table("AB", [[2, 2, 2, 2, 1, 3], [6, 6, 6, 6, 1, 3]])
    game = table.game
    catapult, champion = _card("catapult"), _card("tournament champion")
    game.knights[0].cards.append(champion)
    game.stacks = [[catapult, _card("castle", "green")], [_card("tournament")]]
    bob.answers = [f"{catapult} from stack 1", "stop", f"{champion} from A", "stop"]
    table.run(game.turn(1))
    assert catapult in game.knights[1].cards and champion in game.knights[0].cards


def test_example_castle_attack_defended() -> None:
    # Chris beats Bob's castle (1-1-1+3) after three rolls; Bob rolls three times, beats her and keeps it.
    throws = [[4, 4, 4, 2, 1, 3], [1, 2, 1], [5, 6, 6]]  # Chris: 4-4-4+5
    throws += [[5, 5, 1, 2, 3, 6], [4, 2, 1], [5, 5, 3]]  # Bob: 5-5-5-5+3
    table, (anna, bob, chris) = _table("ABC", throws)
    game = table.game
    bobs = next(c for c in kc.make_deck() if c.kind == "castle" and c.combo == (3, 1, 3))
    game.knights[1].cards.append(bobs)
    game.stacks = [[_card("stack")], [_card("catapult")]]
    chris.answers = [f"{bobs} from B", "keep 4,4,4 and", "keep 4,4,4 and"]
    bob.answers = ["keep 5,5 and", "keep 5,5 and"]
    table.run(game.turn(2))
    assert bobs in game.knights[1].cards and len(game.knights[2].cards) == 1
    assert not table.roller.throws and any("B defends with 5-5-5-5+3" in e for e in game.events)


def test_example_tournament() -> None:
    # Dave organises with four rolls; Anna fails to beat him, Bob beats him, Chris beats Bob and wins.
    throws = [[3, 3, 3, 1, 2, 4], [3, 3, 3, 1, 2, 4], [3, 3, 3, 1, 2, 4], [3, 3, 3, 1, 2, 4]]  # Dave: 3-3-3+4
    throws += [[1, 1, 2, 2, 6, 6], [1, 1, 2, 2], [1, 1, 2, 2]]  # Anna: 2-2+1
    throws += [[4, 4, 4, 1, 2, 6]]  # Bob: 4-4-4+2 at once
    throws += [[5, 5, 5, 5, 6, 6]]  # Chris: 5-5-5-5 at once
    table, (anna, bob, chris, dave) = _table("ABCD", throws)
    game = table.game
    tournament = _card("tournament")
    game.stacks = [[tournament], [_card("catapult")]]
    dave.answers = ["tournament from stack 1"] + ["roll all"] * 3
    anna.answers = ["roll all"] * 2
    bob.answers = ["stop"]
    chris.answers = ["stop"]
    table.run(game.turn(3))
    assert tournament in game.knights[2].cards and game.stacks[0] == []


def test_king_and_revenge() -> None:
    table, (anna, bob) = _table("AB", [[5, 5, 5, 1, 2, 3], [5, 6, 6]])
    game = table.game
    game.knights[0].cards += [_card("castle", "green"), _card("castle", "yellow")]
    game.stacks = [[_card("stack")], [_card("catapult")]]
    anna.answers = ["try to topple", "keep 5,5,5 and", "stop", "green castle", "stack 2"]
    table.run(game.turn(0))
    assert len(game.knights[0].castles()) == 2 and game.stacks[1][-1] == _card("castle", "green")
    table, (anna, bob) = _table("AB", [[5, 5, 5, 5, 2, 6]])
    game = table.game
    game.knights[0].cards += [_card("castle", "green"), _card("castle", "yellow")]
    anna.answers = ["try to topple", "stop"]
    table.run(game.turn(0))
    assert game.winners(game.scores()) == (0,)


def test_who_may_be_attacked() -> None:
    table, (_, bob) = _table("AB", [])
    game = table.game
    game.knights[1].cards.append(_card("castle", "green"))
    game.stacks = [[], []]
    assert game.targets(0) == []  # two players: castles only from an owner of three or more
    game.knights[1].cards.append(_card("castle", "yellow"))
    assert [c.kind for _, c in game.targets(0)] == ["castle"] * 3
    game.knights[1].cards.append(_card("castle guard"))
    bob.answers = ["blue castle"]
    table.run(game._place_guards(1))
    assert len(game.knights[1].guarded_castles) == 2 and len(game.targets(0)) == 2


def _play(players: list[Player[TableGame]], rng: np.random.Generator) -> list[int]:
    game = Knights(rng=rng, names=[p.name for p in players])
    return list(Match(game, players, roller=FastRoller(rng)).run().winners)


def test_full_games_every_player_count() -> None:
    rng = np.random.default_rng(4)
    for n in range(2, 7):
        players: list[Player[TableGame]] = [_random(f"p{i}", rng) for i in range(n - 1)] + [OptimalPlayer("strong")]
        game = Knights(rng=rng, names=[p.name for p in players])
        winners = Match(game, players, roller=FastRoller(rng)).run().winners
        assert winners and (game.knights[winners[0]].wins() or "king" in game.events[-1] or game.rounds == 200)
        assert "castles" in game.score_sheet()
    with pytest.raises(ValueError):
        Knights(1, rng=rng)


def test_human_at_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["what", "0"] + ["1"] * 100_000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    rng = np.random.default_rng(5)
    game = Knights(rng=rng, names=["me", "strong"])
    players = [TableHumanPlayer("me", read=lambda p: input(p)), OptimalPlayer("strong")]
    assert Match(game, players, roller=FastRoller(rng)).run().winners
    assert "announce a card" in capsys.readouterr().out


def _wins(games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    wins = 0.0
    for g in range(games):
        players: list[Player[TableGame]] = [OptimalPlayer("strong"), _random("rnd", rng)]
        if g % 2:
            players.reverse()
        winners = _play(players, rng)
        strong = 0 if g % 2 == 0 else 1
        wins += (strong in winners) / len(winners)
    return wins / games


def test_strong_beats_random() -> None:
    assert _wins(60, seed=3) >= 0.8


@pytest.mark.slow
def test_strong_beats_random_long() -> None:
    assert _wins(1000, seed=7) >= 0.85


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(
        game="knatsch",
        players="strong,random,random",
        seed=1,
        fast=True,
        picture=None,
        option=["die-cards=1,2,3,4,5,5,5,5", "max-rounds=50"],
    )
    assert play(args) == 0
    assert "winner:" in capsys.readouterr().out
    assert show_rules("knights") == 0 and "Interpretation" in capsys.readouterr().out


def test_physical_game_runs() -> None:
    args = argparse.Namespace(
        game="knights", players="strong,strong", seed=2, fast=False, picture=None, option=["max-rounds=3"]
    )
    assert play(args) == 0
