"""Sport is murder: the rule book's examples on scripted dice, accidents and doping, full games, the CLI."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import numpy as np
import pytest
from table_scripts import ScriptedRoller, Table

from pyramid.agents.players import Player, RandomPlayer
from pyramid.agents.table_players import OptimalPlayer, TableHumanPlayer
from pyramid.cli.games import list_games, rules_text, show_rules
from pyramid.cli.play import play
from pyramid.physics.roller import FastRoller
from pyramid.play import Match
from pyramid.registry import find_game
from pyramid.rules import Phase, Rolled
from pyramid.tablegames import sport_cards as sc
from pyramid.tablegames.base import Decision, TableGame
from pyramid.tablegames.sport import SportIsMurder
from pyramid.tablegames.sport_cards import Athlete, HouseRules


@dataclass
class ScriptedPlayer:
    """Answers with the option starting with each prepared text; a lone option needs no answer."""

    name: str
    answers: list[str] = field(default_factory=list)

    def answer(self, decision: Decision) -> int:
        if len(decision.options) == 1:
            return 0
        want = self.answers.pop(0)
        return next(k for k, text in enumerate(decision.options) if text.startswith(want))


def _table(
    names: list[str], throws: list[list[int]], **rules: str
) -> tuple[Table[SportIsMurder], list[ScriptedPlayer]]:
    players = [ScriptedPlayer(n) for n in names]
    game = SportIsMurder(len(names), rng=np.random.default_rng(0), names=names, **rules)
    return Table(game, players, ScriptedRoller(throws)), players


def _random(name: str, rng: np.random.Generator) -> RandomPlayer:
    player = RandomPlayer(rng)
    player.name = name
    return player


def _lay(athlete: Athlete, sport: str, value: int, supply: int, doped: bool = False) -> None:
    athlete.new[sport] = value
    athlete.supply = supply
    if doped:
        athlete.doped.add(sport)


def test_lookup_and_material() -> None:
    for name in ("sport-is-murder", "Sport is murder", "sport ist mord", "sportistmord"):
        assert find_game(name, TableGame) is SportIsMurder
    deck = sc.make_deck(np.random.default_rng(1).permutation(len(sc.DECK)).tolist())
    assert sorted(deck) == sorted(sc.DECK) and len(deck) == 12 and deck.count(sc.TRAINING) == 9
    assert len(HouseRules().sports) == 8 and HouseRules().sports[:4] == ("Bowling", "Tennis", "Billiards", "Football")
    game = _table(["A", "B", "C"], [])[0].game
    assert game.pill_supply == 9 and all(a.pills == 1 and a.supply == 10 for a in game.athletes)


def test_laying_out_as_in_the_example() -> None:
    ute, paul, rikarda = Athlete(old={"Tennis": 1}), Athlete(old={"Billiards": 4}), Athlete(old={"Boxing": 5})
    assert [v for v in range(1, 7) if sc.may_place(ute, "Tennis", v)] == [1, 2]
    assert [v for v in range(1, 7) if sc.may_place(paul, "Billiards", v)] == [1, 2, 3, 4, 5]
    assert [v for v in range(1, 7) if sc.may_place(rikarda, "Boxing", v)] == [1, 2, 3, 4, 5, 6]
    assert [v for v in range(1, 7) if sc.may_place(ute, "Football", v)] == [1]  # a new sport starts at 1
    assert sc.doped_values(paul, "Billiards", HouseRules()) == [5, 6]
    assert sc.doped_values(paul, "Billiards", HouseRules(doping="capped")) == [5]
    assert sc.doped_values(ute, "Football", HouseRules()) == [1, 2, 3, 4, 5, 6]
    assert sc.doped_values(ute, "Football", HouseRules(doping="capped")) == [1]


def _football(answers: dict[str, list[str]]) -> tuple[Table[SportIsMurder], list[ScriptedPlayer]]:
    # Rikarda 1, Paul 3 doped, Edgard 2 lie at football; two training units and a U4 are turned up.
    table, players = _table(["Rikarda", "Paul", "Edgard"], [[1, 2], [6, 6, 5], [5, 5, 4]])
    game = table.game
    rikarda, paul, edgard = game.athletes
    _lay(rikarda, "Football", 1, supply=2)
    _lay(paul, "Football", 3, supply=3, doped=True)
    _lay(edgard, "Football", 2, supply=3)
    paul.training["Football"], edgard.training["Football"] = 3, 4
    game.decks["Football"] = ["+1", "+1", "U4", "+1", "+1", "U6"]
    for player in players:
        player.answers = answers.get(player.name, [])
    return table, players


def test_worked_example_football() -> None:
    table, _ = _football({"Paul": ["take +1"], "Edgard": ["take +1"]})
    game = table.game
    table.run(game.evaluate("Football"))
    rikarda, paul, edgard = game.athletes
    assert [game.strength(i, "Football") for i in range(3)] == [3, 6, 4]
    assert paul.training["Football"] == 4  # success 6 > 3 cards
    assert edgard.training["Football"] == 4  # success 4 is not more than 4 cards: the card goes back
    assert not rikarda.accidents and "Football" in rikarda.new  # risk 3 < 4: no accident
    assert game.decks["Football"] == ["+1", "+1", "U6", "+1", "U4"]  # returned in the order of evaluation
    assert "  contest at Football: Rikarda 3; Paul 17; Edgard 14" in game.events


def test_worked_example_other_distribution() -> None:
    table, _ = _football({"Paul": ["take +1"], "Edgard": ["take U4"]})
    game = table.game
    table.run(game.evaluate("Football"))
    rikarda, _, edgard = game.athletes
    assert edgard.accidents == [("Football", "U4")] and edgard.injured == [("Football", 4)]  # risk 4 >= 4
    assert "Football" not in edgard.new and rikarda.training["Football"] == 1  # success 3 > 0


def test_doping_draw_and_pill() -> None:
    table, _ = _table(["A", "B", "C"], [])
    game = table.game
    a = game.athletes[0]
    _lay(a, "Tennis", 2, supply=5, doped=True)
    a.pills = 0
    supply = game.pill_supply
    game.decks["Tennis"] = ["U2", "+1", "U6"]
    table.run(game.doping_draws("Tennis"))
    assert a.accidents == [("Tennis", "U2")] and a.injured == [("Tennis", 2)]  # risk 2 + 1 >= 2
    assert game.pill_supply == supply + 1 and not a.doped


def test_last_card_and_deadly_accident() -> None:
    # Two dice turn up the last two cards: every accident happens, whatever the risk; U6 closes the sport.
    table, players = _table(["A", "B", "C"], [[2, 2], [5, 6]])
    game = table.game
    a, b, _c = game.athletes
    _lay(a, "Tennis", 1, supply=2)
    _lay(b, "Tennis", 1, supply=2)
    game.decks["Tennis"] = ["U6", "+1"]
    players[1].answers = ["take +1"]
    table.run(game.evaluate("Tennis"))
    assert game.closed == ["Tennis"] and a.dead == ["Tennis"] and b.training["Tennis"] == 1
    assert a.toughness() == 1 and "Tennis" not in game.open_sports()
    assert sum(1 for s in game.rules.sports if s in game.closed) == 1


def test_healing_and_reduction() -> None:
    game = _table(["A", "B", "C"], [])[0].game
    a = game.athletes[0]
    a.supply, a.injured = 8, [("Tennis", 2), ("Bowling", 4)]
    game._heal()
    assert a.injured == [("Tennis", 1), ("Bowling", 3)] and a.supply == 8
    game._heal()
    assert a.injured == [("Bowling", 2)] and a.supply == 9  # a die showing 1 comes back
    a.training = {"Tennis": 2, "Bowling": 1}
    a.new = {"Bowling": 1}
    game.decks["Tennis"] = ["U6"]
    game._reduce()
    assert a.training == {"Tennis": 1, "Bowling": 1} and game.decks["Tennis"] == ["U6", "+1"]
    game = _table(["A", "B", "C"], [], decay="none")[0].game
    game.athletes[0].training = {"Tennis": 2}
    game._reduce()
    assert game.athletes[0].training == {"Tennis": 2}


def test_contest_ties_and_coaches() -> None:
    # 6 against 6 is a tie: the two contest again.
    table, _ = _table(["A", "B", "C"], [[3, 3], [4, 2], [1, 2], [6, 1]])
    game = table.game
    for a in game.athletes[:2]:
        a.supply = 2
    assert table.run(game.contest([0, 1], "test")) == [1, 0]
    # The 1A-coach (strong) re-rolls his low dice after the others rolled.
    game = SportIsMurder(rng=np.random.default_rng(0), names=["coach", "B", "C"])
    table = Table(
        game, [OptimalPlayer("coach"), ScriptedPlayer("B"), ScriptedPlayer("C")], ScriptedRoller([[6, 1], [5, 4], [5]])
    )
    game.coach, game.best = 0, 2
    game.athletes[0].supply = game.athletes[1].supply = 2
    assert table.run(game.contest([0, 1], "test")) == [0, 1] and "  contest test: coach 11; B 9" in game.events
    # Nobody with a free die: the seat order decides.
    table, _ = _table(["A", "B", "C"], [])
    game = table.game
    for a in game.athletes:
        a.supply = 0
    assert table.run(game.contest([2, 0], "test")) == [2, 0]


def test_first_coach_tie_is_rolled_off() -> None:
    # A and B tie with 35 in the training roll; the roll-off throws each one's 10 free dice (the training
    # roll stays as it lies), B wins it and takes the 1A-coach.
    throws = [[6, 6, 6, 6, 6], [1, 1, 1, 1, 1]] * 2 + [[1] * 5, [2] * 5]  # training: A 35, B 35, C 15
    throws += [[1] * 5, [1] * 5, [2] * 5, [2] * 5]  # roll-off: A 10, B 20
    game = SportIsMurder(rng=np.random.default_rng(0), names=["A", "B", "C"])
    for faces in throws:
        game.apply(Rolled(tuple(faces)))
    assert game.phase() is Phase.DECIDE and game.coach == 1 and game.to_move == 1
    assert "  contest for the 1A-coach: A 10; B 20" in game.events
    assert game.athletes[0].hand == [6] * 5 + [1] * 5 and game.athletes[1].hand == [6] * 5 + [1] * 5


def test_pills_per_round_dope_that_many_dice() -> None:
    table, players = _table(["A", "B", "C"], [], **{"pills-per-round": "2"})
    game = table.game
    a = game.athletes[0]
    a.hand, a.supply, a.pills = [5, 3, 2], 7, 2
    players[0].answers = ["dope a die", "the 2", "6 at Bowling", "dope a die", "the 3", "6 at Tennis"]
    table.run(game._dope(0))
    assert a.pills == 0 and a.committed == {"Bowling": 6, "Tennis": 6} and a.hand == [5]
    table.run(game._lay_out(0))
    assert a.new == {"Bowling": 6, "Tennis": 6} and a.doped == {"Bowling", "Tennis"} and not a.committed
    # By default one pill a round: the second pill is kept for later.
    table, players = _table(["A", "B", "C"], [])
    game = table.game
    a = game.athletes[0]
    a.hand, a.supply, a.pills = [5, 3, 2], 7, 2
    players[0].answers = ["dope a die", "the 2", "6 at Bowling"]
    table.run(game._dope(0))
    assert a.pills == 1 and a.committed == {"Bowling": 6} and a.hand == [5, 3]
    assert "``pills-per-round``\n    allows that many" in rules_text(SportIsMurder)


def test_may_pass_only_when_others_can_take_the_rest() -> None:
    table, players = _table(["A", "B", "C"], [[6], [1], [2]])
    game = table.game
    for a in game.athletes:
        _lay(a, "Bowling", 1, supply=1)
    game.decks["Bowling"] = ["U2", "+1"]  # the last two cards: accidents happen whatever the risk
    players[0].answers = ["take no card"]
    players[2].answers = ["take +1"]
    table.run(game.evaluate("Bowling"))
    a, b, c = game.athletes
    assert not a.accidents and not a.training and c.training == {"Bowling": 1}
    assert b.accidents == [("Bowling", "U2")]


def _check_dice(game: SportIsMurder) -> None:
    for a in game.athletes:
        assert a.supply + len(a.hand) + a.dice_out() + len(a.committed) == sc.DICE


def test_full_games_every_player_count() -> None:
    rng = np.random.default_rng(4)
    for n in range(3, 7):
        players: list[Player[TableGame]] = [_random(f"p{i}", rng) for i in range(n - 1)] + [OptimalPlayer("strong")]
        game = SportIsMurder(rng=rng, names=[p.name for p in players])
        roller = FastRoller(rng)
        rounds = 0
        while not game.is_over:  # the match loop, the dice counted after every round
            if game.round != rounds:
                _check_dice(game)
                rounds = game.round
            if game.phase() is Phase.CHANCE:
                game.apply(Rolled(tuple(roller.roll(game.chance().dice))))
            else:
                game.apply(players[game.to_move].choose(game, game.legal_actions()))
        _check_dice(game)
        assert not game.open_sports() and game.winners(game.scores())
        assert game.pill_supply + sum(a.pills for a in game.athletes) == sc.PILLS
        assert "longest chain" in game.score_sheet()
    with pytest.raises(ValueError):
        SportIsMurder(2, rng=rng)


def test_house_rule_variants_play_to_the_end() -> None:
    rng = np.random.default_rng(6)
    options = {"sports": "Bowling,Tennis,Chess", "doping": "capped", "chain": "all", "decay": "none"}
    options |= {"contest": "always", "pills-per-round": "2"}
    players: list[Player[TableGame]] = [OptimalPlayer("s"), _random("r1", rng), _random("r2", rng)]
    game = SportIsMurder(3, rng=rng, names=["s", "r1", "r2"], **options)
    assert game.rules.sports == ("Bowling", "Tennis", "Chess") and game.rules.chain == "all"
    Match(game, players, roller=FastRoller(rng)).run()
    assert not game.open_sports()
    for bad in ({"doping": "extreme"}, {"sports": "A,A"}, {"colour": "red"}):
        with pytest.raises(ValueError):
            SportIsMurder(3, rng=rng, names=["s", "r1", "r2"], **bad)


def test_human_at_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["what", "0"] + ["2"] * 100_000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    rng = np.random.default_rng(5)
    human = TableHumanPlayer("me", read=lambda p: input(p))
    players: list[Player[TableGame]] = [human, OptimalPlayer("strong"), _random("r", rng)]
    game = SportIsMurder(rng=rng, names=[p.name for p in players])
    assert Match(game, players, roller=FastRoller(rng)).run().winners and not game.open_sports()
    out = capsys.readouterr().out
    assert "please type a number" in out and "lay out dice" in out


def _strong_share(games: int, seed: int, n: int = 3) -> float:
    rng = np.random.default_rng(seed)
    wins = 0.0
    for g in range(games):
        seat = g % n
        players: list[Player[TableGame]] = [_random(f"r{k}", rng) for k in range(n - 1)]
        players.insert(seat, OptimalPlayer("strong"))
        game = SportIsMurder(rng=rng, names=[p.name for p in players])
        winners = Match(game, players, roller=FastRoller(rng)).run().winners
        wins += (seat in winners) / len(winners)
    return wins / games


def test_strong_beats_random() -> None:
    assert _strong_share(9, seed=3) >= 0.8  # chance: 1/3


@pytest.mark.slow
def test_strong_beats_random_long() -> None:
    assert _strong_share(200, seed=7) >= 0.9
    assert _strong_share(60, seed=8, n=6) >= 0.8  # chance: 1/6


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(
        game="sport ist mord",
        players="strong,random,random",
        seed=1,
        fast=True,
        picture=None,
        option=["sports=Bowling,Tennis,Billiards,Football", "max-rounds=60"],
    )
    assert play(args) == 0
    out = capsys.readouterr().out
    assert "winner:" in out and "longest chain" in out
    assert show_rules("sport-is-murder") == 0 and "Interpretation" in capsys.readouterr().out
    list_games()
    assert "sport-is-murder" in capsys.readouterr().out


def test_physical_game_runs() -> None:
    args = argparse.Namespace(
        game="sport-is-murder",
        players="strong,random,random",
        seed=2,
        fast=False,
        picture=None,
        option=["max-rounds=2"],
    )
    assert play(args) == 0
