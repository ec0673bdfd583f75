"""What the commands read from their arguments: the seats of ``--players`` and the ``--option`` pairs."""

from __future__ import annotations


def seat_kinds(players: str | None) -> list[str]:
    """The kinds of player named by ``--players`` (comma-separated, any case), in seat order; [] when not given."""
    if not players or not players.strip():
        return []
    kinds = [k.strip().lower() for k in players.split(",")]
    if not all(kinds):
        raise ValueError(f"--players {players!r} has an empty player name (two commas, or one at an end)")
    return kinds


def game_options(pairs: list[str]) -> dict[str, str]:
    """``--option KEY=VALUE`` strings to a dict (keys in lower case); ValueError on one without ``=`` or a key."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"an option is KEY=VALUE, got {pair!r}")
        out[key.strip().lower()] = value.strip()
    return out
