"""What the commands read from their arguments: the seats of ``--players`` and the ``--option`` pairs."""

from __future__ import annotations

from pyramid.rules import GameBase


def seat_kinds(players: str | None) -> list[str]:
    """The kinds of player named by ``--players`` (comma-separated, any case), in seat order; [] when not given."""
    if not players or not players.strip():
        return []
    kinds = [k.strip().lower() for k in players.split(",")]
    if not all(kinds):
        raise ValueError(f"--players {players!r} has an empty player name (two commas, or one at an end)")
    return kinds


def game_options(pairs: list[str], game: type[GameBase], option: str = "--option") -> dict[str, str]:
    """``--option KEY=VALUE`` strings to a dict (keys in lower case); ValueError naming ``option`` on one without
    ``=`` or a key, or with a key that is not one of ``game``'s options (never passed on as another keyword)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise ValueError(f"{option} takes KEY=VALUE, got {pair!r}")
        if key not in game.options_help:
            known = ", ".join(sorted(game.options_help)) or "none"
            raise ValueError(
                f"{option} {key}: {game.info.title} has no option {key!r}; its options: {known} "
                f"(see `pyramid rules {game.info.key}`)"
            )
        out[key] = value.strip()
    return out
