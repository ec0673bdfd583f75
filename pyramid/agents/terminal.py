"""What a person at the terminal sees and types: the board with its move labels, a status line, typed moves.

The human players call these: ``board_view`` draws the pyramid with the legal moves' slots labelled (the
dice that can move and where they can go), ``read_move`` turns what was typed (a label, a slot, a die and
where it goes, a number or words of a move) into one of the legal actions, ``read_option`` does the same
for a table game's options (a number, the dice to keep, or words). Both raise ``TypedMoveError`` saying
what was wrong and what may be typed (a skill game's typed actions: ``typed_hands``). Nothing here prints.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import TextIO

from pyramid.drawing import draw_pyramid, label_slot, slot_label
from pyramid.geometry import LAYERS, SLOTS, Slot, is_slot
from pyramid.rules import Action, Game, Move, Place, Remove, RemoveColumn
from pyramid.tablegames.base import TableGame

HELP_COMMANDS = "? (the moves and how to type them), help (the same and the rules card), rules, board"
_SLOT = re.compile(r"\(?\s*(\d+)\s*[,\s]\s*(\d+)\s*[,\s]\s*(\d+)\s*\)?(?=\s|$)(.*)")
_LABEL = re.compile(r"([a-z][0-9]+)(?=\s|$|-|>|,)(.*)")
_BETWEEN = re.compile(r"^\s*(?:->|-|>|,|to(?=\s))?\s*")  # what may stand between a die and where it goes
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
    """The slot a move is made at: where a die goes or is taken (a column: its top die; a carried die: where it
    stands); None for others."""
    if isinstance(action, Place | Remove):
        return action.slot
    if isinstance(action, RemoveColumn):
        return action.slots[0]
    if isinstance(action, Move):
        return action.steps[0][0]
    return None


def move_path(action: Action) -> tuple[Slot, ...]:
    """The slots a person names for ``action``, in order: a carried die and where it goes, then where each other
    die it carries goes (a captured die, the next die of a row); for a placing or a removal its slot."""
    if isinstance(action, Move):
        (source, target), *rest = action.steps
        return (source, target, *(t for _, t in rest))
    slot = move_slot(action)
    return () if slot is None else (slot,)


def path_text(action: Action) -> str:
    """``action``'s slots as a person types them: ``i13 i22`` (a die and where it goes), ``i13`` (a slot)."""
    return " ".join(map(slot_label, move_path(action)))


def carried(legal: Sequence[Action]) -> str:
    """The dice that can move and where each can go, by label: ``i13 to h2, h5; i14 to i22``; empty without moves."""
    goes: dict[Slot, list[Slot]] = {}
    for action in legal:
        if isinstance(action, Move):
            source, target = action.steps[0]
            if target not in goes.setdefault(source, []):
                goes[source].append(target)
    return "; ".join(f"{slot_label(s)} to {', '.join(map(slot_label, ts))}" for s, ts in goes.items())


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
    at_slots = [s for a in legal for s in move_path(a)[:2]]
    lines = [draw_pyramid(game.state, at_slots, colour)]
    others = [(n, a) for n, a in enumerate(legal, 1) if move_slot(a) is None]
    if others:
        lines.append("moves not made at a slot:")
        lines += [f"  {n:3d}. {a}" for n, a in others]
    moving = carried(legal)
    if moving:
        lines.append(f"dice that can move: {moving}")
    lines.append(board_status(game))
    colours = sorted({a.colour for a in legal if isinstance(a, Place)})
    does = [f"place {' or '.join(colours)}"] if colours else []
    does += ["remove"] if any(isinstance(a, Remove | RemoveColumn) for a in legal) else []
    at_slot = [f"{', '.join(does)} at a labelled slot"] if does else []
    example = next((" ".join(path_text(a).split()[:2]) for a in legal if isinstance(a, Move)), "")
    at_slot += [f"move a labelled die to a labelled slot, e.g. {example}"] if moving else []
    what = f" ({'; '.join(at_slot)})" if at_slot else ""
    lines.append(f"player {game.to_move} to move: {len(legal)} legal moves{what}")
    return "\n".join(lines)


def move_list(legal: Sequence[Action]) -> str:
    """Every legal move, numbered, with the label of its slot."""
    lines = []
    for n, action in enumerate(legal, 1):
        lines.append(f"  {n:3d}. {path_text(action):4s} {action}")
    return "\n".join(lines)


def move_help(legal: Sequence[Action]) -> str:
    """How to type a move, with an example from ``legal``."""
    slot = next((s for s in (move_slot(a) for a in legal) if s is not None), None)
    example = "" if slot is None else f" (e.g. {slot_label(slot)} or {slot[0]} {slot[1]} {slot[2]})"
    moved = next((" ".join(path_text(a).split()[:2]) for a in legal if isinstance(a, Move)), "")
    carry = f"a die moves by its label and where it goes (e.g. {moved}), or by its label alone when it has one move; "
    carry = carry if moved else ""
    return (
        f"{carry}type a move by the label on its slot, or by the slot as i j k{example}, or by its number "
        f"1 to {len(legal)}, or by words of the move (e.g. pass); where a slot has several moves, add a word "
        f"(e.g. green). Also: {HELP_COMMANDS}. Options of the command: pyramid play --help."
    )


def _slot_typed(text: str) -> tuple[Slot, str] | None:
    """The slot named at the start of ``text`` (by label or coordinates) and the text after it."""
    m = _SLOT.fullmatch(text)
    if m is not None:
        slot = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if not is_slot(slot):
            raise TypedMoveError(
                f"please type a slot of the pyramid: {slot} is none (i, j, k from 0, i + j + k at most {LAYERS - 1})"
            )
        return slot, m.group(4)
    m = _LABEL.fullmatch(text.lower())
    if m is not None:
        try:
            return label_slot(m.group(1)), m.group(2)
        except ValueError as err:
            raise TypedMoveError(f"please type a label shown on the board: {err}") from None
    return None


def _slots_typed(text: str) -> tuple[tuple[Slot, ...], list[str]]:
    """The slots named at the start of ``text`` one after another (``i13 i22``, ``i13-i22``, ``0 3 4 to 1 2 4``)
    and the words after them."""
    slots: list[Slot] = []
    rest = text
    while (named := _slot_typed(rest.strip())) is not None:
        slot, rest = named
        slots.append(slot)
        rest = _BETWEEN.sub("", rest, count=1)
    return tuple(slots), _words(rest)


def _by_path(slots: tuple[Slot, ...], legal: Sequence[Action]) -> list[Action]:
    """The legal actions whose slots (``move_path``) begin with ``slots``; TypedMoveError saying where the dice can
    go when there are none."""
    at = [a for a in legal if move_path(a)[: len(slots)] == slots]
    if at:
        return at
    first = slot_label(slots[0])
    if len(slots) == 1:
        into = list(
            dict.fromkeys(slot_label(a.steps[0][0]) for a in legal if isinstance(a, Move) and a.steps[0][1] == slots[0])
        )
        hint = f"; a die goes there from {', '.join(into)} (type e.g. {into[0]} {first})" if into else ""
        raise TypedMoveError(
            f"please type the label or slot of a legal move: none is at {first} {slots[0]}{hint}; ? lists the moves"
        )
    typed = " ".join(map(slot_label, slots))
    going = [a for a in legal if move_path(a)[: len(slots) - 1] == slots[:-1]]
    if going:
        onward = list(
            dict.fromkeys(slot_label(p[len(slots) - 1]) for p in map(move_path, going) if len(p) >= len(slots))
        )
        where = ", ".join(onward) if onward else "nowhere further"
        before = typed.rsplit(" ", 1)[0]
        raise TypedMoveError(f"please type a legal move: {typed} is none; after {before} comes {where}")
    raise TypedMoveError(f"please type a legal move: {typed} is none; {first} starts no move; ? lists the moves")


def _one(found: Sequence[Action], legal: Sequence[Action], what: str, label: str = "") -> Action:
    if len(found) == 1:
        return found[0]
    listed = "; ".join(f"{legal.index(a) + 1}. {_listed(a)}" for a in found[:8]) + ("; ..." if len(found) > 8 else "")
    typed = len(label.split())
    onward = [move_path(a)[typed] for a in found if len(move_path(a)) > typed]
    if label and len(onward) == len(found) and len(set(onward)) > 1:  # the next slot tells them apart
        raise TypedMoveError(
            f"please type one move: {what} names {len(found)} moves ({listed}); type its number, or where it goes "
            f"next (e.g. {label} {slot_label(onward[0])})"
        )
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
    slots, extra = _slots_typed(typed)
    if slots:
        at = _by_path(slots, legal)
        label = " ".join(map(slot_label, slots))
        found = [a for a in at if _has_words(extra, str(a))]
        if not found:
            raise TypedMoveError(f"please type a move at {label}: none of {len(at)} there has {extra}")
        what = f"{label} {slots[0]}" if len(slots) == 1 else label
        return _one(found, legal, what, label)
    exact = [a for a in legal if str(a).lower() == typed.lower()]
    found = exact or [a for a in legal if _has_words(_words(typed), str(a))]
    if not found:
        raise TypedMoveError(
            f"please type a label, a slot or a number from 1 to {len(legal)}: {typed!r} names no legal move; "
            "? lists them"
        )
    return _one(found, legal, repr(typed))


def _listed(action: Action) -> str:
    """``action`` as the short list of an ambiguous answer shows it: a move with the labels of its slots."""
    return f"{path_text(action)}: {action}" if isinstance(action, Move) else str(action)


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
