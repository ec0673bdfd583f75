"""Fixed numbers for actions and fixed-size arrays for what a player sees: what research libraries need of a game.

Sits beside the rules: ``pyramid.openspiel`` and ``pyramid.pettingzoo`` present every turn-based game
through these. Board games share one numbering of their actions; a table game numbers its options.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from pyramid import geometry
from pyramid.dice import COLOURS as COLOUR_TABLE
from pyramid.rules import Choice, Game, GameBase, Pass, Place, Remove, RemoveColumn
from pyramid.tablegames.base import TableGame

SLOTS = len(geometry.SLOTS)  # 165
COLOURS = tuple(COLOUR_TABLE)  # red, green, black, blue, gold
ORIENTATIONS = len(geometry.ALL_UP_FACES)  # 24
MAX_PLAYERS = 6  # the most seats any turn-based game takes here, as the arrays count them

# The board games' numbering, block by block.
PLACE = 0  # Place: slot x colour x (faces as they land, or one of the 24 orientations)
REMOVE = PLACE + SLOTS * len(COLOURS) * (ORIENTATIONS + 1)
COLUMN = REMOVE + SLOTS  # RemoveColumn: its top slot x direction x length
COLUMN_LENGTH = geometry.BASE_LAYER + 1
PASS = COLUMN + SLOTS * 3 * COLUMN_LENGTH
SMALL = PASS + 1  # a game's own decision that carries one small number (Reuse, Point, Roll): kind x number
SMALL_KINDS, SMALL_VALUES = 8, 32
OTHER = SMALL + SMALL_KINDS * SMALL_VALUES  # any other decision: its rank among the legal ones of its kind
OTHER_RANKS = 1024
BOARD_ACTIONS = OTHER + OTHER_RANKS
TABLE_ACTIONS = 128  # a table game's options, by index (the most any game offers is 48)


def action_count(game_cls: type[GameBase]) -> int:
    """How many action numbers ``game_cls`` can use."""
    return TABLE_ACTIONS if issubclass(game_cls, TableGame) else BOARD_ACTIONS


def _small_kinds(legal: Sequence[Any]) -> dict[type, int]:
    kinds = sorted({type(a) for a in legal if _small_value(a) is not None}, key=lambda t: t.__name__)
    return {t: i for i, t in enumerate(kinds)}


def _small_value(action: Any) -> int | None:
    """The one small whole number a decision carries (0 when it carries none), or None when it carries more."""
    fields = getattr(action, "__dataclass_fields__", None)
    if fields is None or isinstance(action, Place | Remove | RemoveColumn | Pass | Choice):
        return None
    values = [getattr(action, name) for name in fields]
    if not values:
        return 0
    if len(values) == 1 and isinstance(values[0], int) and 0 <= values[0] < SMALL_VALUES:
        return int(values[0])
    return None


def action_ids(game: GameBase, legal: Sequence[Any]) -> list[int]:
    """The number of each action in ``legal`` (distinct; a place, a removal or a pass has the same number in
    every state of every board game; a game's own decisions are numbered by kind and value, or by rank)."""
    if isinstance(game, TableGame):
        ids = [a.index for a in legal]
        if max(ids, default=0) >= TABLE_ACTIONS:
            raise ValueError(f"{game.info.title} offers {max(ids) + 1} options; the numbering holds {TABLE_ACTIONS}")
        return ids
    kinds = _small_kinds(legal)
    others = sorted((a for a in legal if _board_id(a, kinds) is None), key=lambda a: (type(a).__name__, str(a)))
    rank = {a: i for i, a in enumerate(others)}
    if len(others) > OTHER_RANKS:
        raise ValueError(
            f"{game.info.title} offers {len(others)} decisions of its own; the numbering holds {OTHER_RANKS}"
        )
    ids = []
    for action in legal:
        fixed = _board_id(action, kinds)
        ids.append(fixed if fixed is not None else OTHER + rank[action])
    return ids


def _board_id(action: Hashable, kinds: dict[type, int]) -> int | None:
    if isinstance(action, Place):
        up = 0 if action.up is None else 1 + geometry.ALL_UP_FACES.index(action.up)
        return PLACE + (geometry.SLOT_INDEX[action.slot] * len(COLOURS) + COLOURS.index(action.colour)) * 25 + up
    if isinstance(action, Remove):
        return REMOVE + geometry.SLOT_INDEX[action.slot]
    if isinstance(action, RemoveColumn) and len(action.slots) <= COLUMN_LENGTH:
        top, below = action.slots[0], action.slots[1] if len(action.slots) > 1 else action.slots[0]
        axis = next((a for a in range(3) if below[a] != top[a]), 0)
        return COLUMN + (geometry.SLOT_INDEX[top] * 3 + axis) * COLUMN_LENGTH + len(action.slots) - 1
    if isinstance(action, Pass):
        return PASS
    value = _small_value(action)
    if value is not None and type(action) in kinds and kinds[type(action)] < SMALL_KINDS:
        return SMALL + kinds[type(action)] * SMALL_VALUES + value
    return None


# -- what a player sees --------------------------------------------------------------------------

CELL = len(COLOURS) + 3 * 6  # a slot: its colour (one of five, or none), then each upward face as one of six
BOARD_FEATURES = SLOTS * CELL
SEAT_FEATURES = 2 * MAX_PLAYERS  # the seat to move, then each seat's score / 100
TABLE_FEATURES = 6 + 1  # the last roll's faces counted (/ 10), the options pending (/ TABLE_ACTIONS)


def observation_size(game_cls: type[GameBase]) -> int:
    """The length of ``observation_tensor`` for ``game_cls``."""
    return SEAT_FEATURES + (TABLE_FEATURES if issubclass(game_cls, TableGame) else BOARD_FEATURES)


def observation_tensor(game: GameBase, player: int | None = None) -> np.ndarray:
    """What ``player`` sees (None: what every player sees), as numbers: ``(observation_size,) float32``.

    The seat to move (one-hot) and the scores (0 where the rules hide one: ``scores_seen_by``); a
    board game's pyramid, slot by slot (colour one-hot, then the three upward faces one-hot); a table
    game's last roll and the number of options pending.
    """
    out = np.zeros(observation_size(type(game)), np.float32)
    if game.outcome is None and game.to_move < MAX_PLAYERS:
        out[game.to_move] = 1.0
    scores = [0.0 if s is None else s for s in game.scores_seen_by(player)[:MAX_PLAYERS]]
    out[MAX_PLAYERS : MAX_PLAYERS + len(scores)] = np.asarray(scores, np.float32) / 100.0
    rest = out[SEAT_FEATURES:]
    if isinstance(game, Game):
        cells = rest.reshape(SLOTS, CELL)
        for slot, cell in game.state.items():
            row = cells[geometry.SLOT_INDEX[slot]]
            row[COLOURS.index(cell.colour)] = 1.0
            for axis, face in enumerate(cell.up or ()):
                row[len(COLOURS) + 6 * axis + face - 1] = 1.0
    elif isinstance(game, TableGame):
        rolled = next((a for a in reversed(game.answers) if isinstance(a, tuple)), ())
        for face in rolled:
            rest[face - 1] += 0.1
        rest[6] = len(game.legal_actions()) / TABLE_ACTIONS
    return out


def observation_text(game: GameBase, player: int | None = None) -> str:
    """What ``player`` sees (None: what every player sees), as text: who is to move, the scores ("?" where
    the rules hide one), the pyramid (or the score sheet and the pending decision)."""
    scores = " ".join("?" if s is None else f"{s:g}" for s in game.scores_seen_by(player))
    if player is not None and game.secret(player):
        scores += f"; {game.secret(player)}"
    head = "over: " + game.outcome.result() if game.outcome is not None else f"player {game.to_move} to move"
    if isinstance(game, Game):
        return f"{head}; scores {scores}; pyramid {game.state.to_notation()}"
    if isinstance(game, TableGame):
        pending = ""
        if game.legal_actions():
            decision = game.decision()
            pending = "\n" + decision.prompt + "\n" + "\n".join(f"{i}) {o}" for i, o in enumerate(decision.options))
        return f"{head}; scores {scores}\n{game.score_sheet()}{pending}"
    return f"{head}; scores {scores}"
