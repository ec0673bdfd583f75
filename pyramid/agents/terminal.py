"""What a person at the terminal sees and types: the board with its move labels, a status line, typed moves.

The human players call these: ``board_view`` draws the pyramid with the legal moves' slots labelled,
``read_move`` turns what was typed (a label, a slot, a number or words of a move) into one of the legal
actions, ``read_option`` does the same for a table game's options (a number, the dice to keep, or
words). Both raise ``TypedMoveError`` saying what was wrong and what may be typed. Nothing here prints.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import TextIO

from pyramid.drawing import draw_pyramid, label_slot, slot_label
from pyramid.geometry import LAYERS, SLOTS, Slot, is_slot
from pyramid.rules import Action, Game, Place, Remove, RemoveColumn
from pyramid.tablegames.base import TableGame

HELP_COMMANDS = "? (the moves and how to type them), help (the same and the rules card), rules, board"
_SLOT = re.compile(r"\(?\s*(\d+)\s*[,\s]\s*(\d+)\s*[,\s]\s*(\d+)\s*\)?(?=\s|$)(.*)")
_LABEL = re.compile(r"([a-z][0-9]+)(?=\s|$)(.*)")
_KEPT = re.compile(r"(?:keep|freeze)\s+(none|\[\]|\[?[1-6](?:\s*,\s*[1-6])*\]?|[0-9]+x[1-6])(?![\w])")


MAX_TYPED = 200  # characters of one typed line: a move or an option is a few words


class TypedMoveError(ValueError):
    """What a person typed names no legal move; the message says why and what may be typed."""


def check_typed(text: str) -> None:
    """TypedMoveError for a line no move or option can be: longer than MAX_TYPED, or with digits other than 0-9."""
    if len(text) > MAX_TYPED:
        raise TypedMoveError(f"please type at most {MAX_TYPED} characters (that line has {len(text):,})")
    odd = next((c for c in text if (c.isdigit() or c.isnumeric()) and not c.isascii()), None)
    if odd is not None:
        raise TypedMoveError(f"please type numbers with the digits 0 to 9: {odd!r} is not one of them")


def use_colour(stream: TextIO) -> bool:
    """Whether to paint in ANSI colours: ``stream`` is a terminal and NO_COLOR is not set (no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _has_words(typed: Sequence[str], text: str) -> bool:
    """Whether every typed word begins a word of ``text`` (``bow`` finds ``Bowling``)."""
    words = _words(text)
    return all(any(w.startswith(t) for w in words) for t in typed)


# -- the board games -------------------------------------------------------------------------------


def move_slot(action: Action) -> Slot | None:
    """The slot a move is made at: where a die goes or is taken (a column: its top die); None for others."""
    if isinstance(action, Place | Remove):
        return action.slot
    if isinstance(action, RemoveColumn):
        return action.slots[0]
    return None


def board_status(game: Game) -> str:
    """Each player's score and dice left (where players hold dice), and the dice in the pyramid."""
    left = game.dice_left()
    parts = []
    for p, score in enumerate(game.scores()):
        hand = "" if left is None else f", {left[p]} dice left"
        parts.append(f"player {p}{' (to move)' if p == game.to_move else ''}: score {score:g}{hand}")
    parts.append(f"pyramid: {len(game.state)} of {len(SLOTS)} dice")
    return " | ".join(parts)


def board_view(game: Game, legal: Sequence[Action], colour: bool = False) -> str:
    """The pyramid with every legal move's slot labelled, the moves not made at a slot, and the status."""
    at_slots = [s for s in (move_slot(a) for a in legal) if s is not None]
    lines = [draw_pyramid(game.state, at_slots, colour)]
    others = [(n, a) for n, a in enumerate(legal, 1) if move_slot(a) is None]
    if others:
        lines.append("moves not made at a slot:")
        lines += [f"  {n:3d}. {a}" for n, a in others]
    lines.append(board_status(game))
    colours = sorted({a.colour for a in legal if isinstance(a, Place)})
    does = [f"place {' or '.join(colours)}"] if colours else []
    does += ["remove"] if any(isinstance(a, Remove | RemoveColumn) for a in legal) else []
    what = f" ({', '.join(does)} at a labelled slot)" if does else ""
    lines.append(f"player {game.to_move} to move: {len(legal)} legal moves{what}")
    return "\n".join(lines)


def move_list(legal: Sequence[Action]) -> str:
    """Every legal move, numbered, with the label of its slot."""
    lines = []
    for n, action in enumerate(legal, 1):
        slot = move_slot(action)
        label = "" if slot is None else slot_label(slot)
        lines.append(f"  {n:3d}. {label:4s} {action}")
    return "\n".join(lines)


def move_help(legal: Sequence[Action]) -> str:
    """How to type a move, with an example from ``legal``."""
    slot = next((s for s in (move_slot(a) for a in legal) if s is not None), None)
    example = "" if slot is None else f" (e.g. {slot_label(slot)} or {slot[0]} {slot[1]} {slot[2]})"
    return (
        f"type a move by the label on its slot, or by the slot as i j k{example}, or by its number "
        f"1 to {len(legal)}, or by words of the move (e.g. pass); where a slot has several moves, add a word "
        f"(e.g. green). Also: {HELP_COMMANDS}. Options of the command: pyramid play --help."
    )


def _slot_typed(text: str) -> tuple[Slot, list[str]] | None:
    """The slot named at the start of ``text`` (by label or coordinates) and the words after it."""
    m = _SLOT.fullmatch(text)
    if m is not None:
        slot = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if not is_slot(slot):
            raise TypedMoveError(
                f"please type a slot of the pyramid: {slot} is none (i, j, k from 0, i + j + k at most {LAYERS - 1})"
            )
        return slot, _words(m.group(4))
    m = _LABEL.fullmatch(text.lower())
    if m is not None:
        try:
            return label_slot(m.group(1)), _words(m.group(2))
        except ValueError as err:
            raise TypedMoveError(f"please type a label shown on the board: {err}") from None
    return None


def _one(found: Sequence[Action], legal: Sequence[Action], what: str, label: str = "") -> Action:
    if len(found) == 1:
        return found[0]
    listed = "; ".join(f"{legal.index(a) + 1}. {a}" for a in found[:8]) + ("; ..." if len(found) > 8 else "")
    # A word that only some of the moves have tells them apart (red, green; column; a face number).
    shared = set.intersection(*(set(_words(str(a))) for a in found))
    apart = [w for a in found for w in _words(str(a)) if w not in shared]
    example = f" (e.g. {label} {apart[0]})" if apart and label else ""
    raise TypedMoveError(
        f"please type one move: {what} names {len(found)} moves ({listed}); type its number, or add a word "
        f"that tells them apart{example}"
    )


def read_move(text: str, legal: Sequence[Action]) -> Action:
    """The legal action ``text`` names: a label (``i12``), a slot (``(0,0,8)``, ``0 0 8``), a number, or words."""
    check_typed(text)
    typed = text.strip()
    if not typed:
        raise TypedMoveError(f"please type a move: a label, a slot or a number from 1 to {len(legal)}; ? lists them")
    if typed.isdigit():
        if 1 <= int(typed) <= len(legal):
            return legal[int(typed) - 1]
        raise TypedMoveError(f"please type a number from 1 to {len(legal)}: there is no move {typed}")
    named = _slot_typed(typed)
    if named is not None:
        slot, extra = named
        at = [a for a in legal if move_slot(a) == slot]
        if not at:
            raise TypedMoveError(
                f"please type the label or slot of a legal move: none is at {slot_label(slot)} {slot}; "
                "? lists the moves"
            )
        found = [a for a in at if _has_words(extra, str(a))]
        if not found:
            raise TypedMoveError(f"please type a move at {slot_label(slot)}: none of {len(at)} there has {extra}")
        return _one(found, legal, f"{slot_label(slot)} {slot}", slot_label(slot))
    exact = [a for a in legal if str(a).lower() == typed.lower()]
    found = exact or [a for a in legal if _has_words(_words(typed), str(a))]
    if not found:
        raise TypedMoveError(
            f"please type a label, a slot or a number from 1 to {len(legal)}: {typed!r} names no legal move; "
            "? lists them"
        )
    return _one(found, legal, repr(typed))


# -- the table games -------------------------------------------------------------------------------


def table_status(game: TableGame) -> str:
    """What the game counts of each seat, by name (scores; Knights: castles and tournaments)."""
    return "; ".join(
        f"{what}: " + ", ".join(f"{name} {v:g}" for name, v in zip(game.names, values, strict=True))
        for what, values in game.measures().items()
    )


def option_dice(option: str) -> tuple[int, ...] | None:
    """The dice an option keeps or freezes, sorted (``keep 3,3,5,5``, ``freeze [5, 2]``, ``keep 3x5``); else None."""
    if option.lower().startswith("roll all"):
        return ()
    m = _KEPT.search(option.lower())
    if m is None:
        return None
    kept = m.group(1)
    if "x" in kept:
        n, face = kept.split("x")
        return (int(face),) * int(n)
    return tuple(sorted(int(d) for d in re.findall(r"[1-6]", kept)))


def option_help(options: Sequence[str]) -> str:
    """How to type an option, with the dice example when the options keep dice."""
    dice = next((d for d in map(option_dice, options) if d), None)
    keep = f", the dice to keep or freeze (e.g. {''.join(map(str, dice))})" if dice else ""
    return (
        f"type an option by its number 1 to {len(options)}{keep}, or by words of it (e.g. "
        f"{_words(options[0])[0] if _words(options[0]) else 'stop'}); #N is always option N. "
        f"Also: ? (the options), help (and the rules card), rules, sheet (the score sheet)."
    )


def read_option(text: str, options: Sequence[str]) -> tuple[int, str]:
    """The index of the option ``text`` names, and a note when the typed number could also mean dice.

    A number 1 to N (or ``#N``) is that option; digits that are no option number, or digits with
    spaces or commas, are the dice to keep (``3355``, ``3 3 5 5``); words pick the options they begin
    words of (``stop``, ``1 bowling``); ``keep 15`` is the dice 1 and 5.
    """
    check_typed(text)
    typed = text.strip().lower()
    n = len(options)
    if not typed:
        raise TypedMoveError(f"please type a number from 1 to {n} (or words of an option); ? lists them")
    number = typed[1:] if typed.startswith("#") else typed
    exact = [k for k, o in enumerate(options) if o.lower() == typed]
    if exact:
        return exact[0], ""
    by_dice = [k for k, o in enumerate(options) if option_dice(o) is not None]
    if number.isdigit() and (typed.startswith("#") or 1 <= int(number) <= n):
        k = int(number) - 1
        if not 0 <= k < n:
            raise TypedMoveError(f"please type a number from 1 to {n}: there is no option {number}")
        dice = tuple(sorted(int(d) for d in number))
        other = [j for j in by_dice if option_dice(options[j]) == dice and j != k]
        note = ""
        if other and not typed.startswith("#"):
            note = f"option {k + 1}: {options[k]} (for the dice {','.join(number)} type 'keep {number}')"
        return k, note
    digits = "".join(w for w in _words(typed) if w.isdigit())
    words = [w for w in _words(typed) if not w.isdigit()]
    want: tuple[int, ...] | None = None  # the dice typed: digits, or 0 or none for no die
    if digits:
        want = () if digits == "0" else tuple(sorted(int(d) for d in digits))
    elif "none" in words:
        want, words = (), [w for w in words if w != "none"]
    found = []
    for k, option in enumerate(options):
        kept = option_dice(option)
        if kept is not None and want is not None:
            ok = kept == want and _has_words(words, option)
        else:
            ok = _has_words(_words(typed), option)
        if ok:
            found.append(k)
    if len(found) == 1:
        return found[0], ""
    if not found:
        if typed.isdigit() and by_dice:
            raise TypedMoveError(
                f"please type a number from 1 to {n}, or dice that an option keeps: no option keeps {','.join(typed)}"
            )
        raise TypedMoveError(f"please type a number from 1 to {n}, or words of an option: {text.strip()!r} is none")
    listed = "; ".join(f"{k + 1}) {options[k]}" for k in found[:8]) + ("; ..." if len(found) > 8 else "")
    raise TypedMoveError(
        f"please type one option: {text.strip()!r} fits {len(found)} ({listed}); add a word or its number"
    )
