"""What the commands read from their arguments: the seats of ``--players`` and the ``--option`` pairs."""

from __future__ import annotations

from pyramid.lab.scene import physics_settings
from pyramid.lab.settings import parse_setting
from pyramid.physics.settings import Physics
from pyramid.rules import GameBase
from pyramid.rules.options import OptionError


def seat_kinds(players: str | None) -> list[str]:
    """The kinds of player named by ``--players`` (comma-separated, any case), in seat order; [] when not given."""
    if not players or not players.strip():
        return []
    kinds = [k.strip().lower() for k in players.split(",")]
    if not all(kinds):
        raise ValueError(f"--players {players!r} has an empty player name (two commas, or one at an end)")
    return kinds


def game_options(pairs: list[str], game: type[GameBase], players: int, option: str = "--option") -> dict[str, str]:
    """``--option KEY=VALUE`` strings to a dict (keys in lower case), each value checked by the game's declaration
    for ``players`` players; ValueError naming ``option`` on one without ``=`` or a key, with a key that is not one
    of ``game``'s options (never passed on as another keyword), or with a value the option does not take."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise ValueError(f"{option} takes KEY=VALUE, got {pair!r}")
        if key not in game.option_specs:
            known = ", ".join(sorted(game.option_specs)) or "none"
            raise ValueError(
                f"{option} {key}: {game.info.title} has no option {key!r}; its options: {known} "
                f"(see `pyramid rules {game.info.key}`)"
            )
        if key in out:
            raise ValueError(f"{option} {key} is given twice ({out[key]!r} and {value.strip()!r}); give it once")
        try:
            game.read_options({key: value}, players)
        except OptionError as err:
            raise ValueError(f"{option} {str(err).removeprefix('option ')}") from None
        out[key] = value.strip()
    return out


def game_physics(settings: list[str], fast: bool = False) -> Physics | None:
    """The physics ``--physics KEY=VALUE`` settings give (None: the default), checked before the match starts."""
    if not settings:
        return None
    if fast:
        raise ValueError("--physics sets the physics; --fast plays without it: give one of them")
    pairs = [parse_setting(text, "--physics") for text in settings]
    twice = next((key for n, (key, _) in enumerate(pairs) if key in dict(pairs[:n])), None)
    if twice is not None:
        raise ValueError(f"--physics {twice} is given twice; give it once")
    return physics_settings(dict(pairs), "--physics")
