"""What a person at the terminal types for a skill game's hands: the actions, their numbers and ranges, checked.

``parse_action`` reads a typed line (``tilt 180 12``, ``lift 8 0 0``) into a ``pyramid.physics.actions``
action; ``hand_refusal`` says why a hand cannot do it in the game now (a die not in play, a slot with no
die, an angle past what a hand tips); ``read_hand`` does both and ``hand_help`` lists what may be typed
(``?``). Errors are ``TypedMoveError``s naming the input, what was wrong and what is allowed. Nothing here prints.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from pyramid.agents.terminal import TypedMoveError, check_typed
from pyramid.dice import DICE
from pyramid.geometry import BASE_LAYER
from pyramid.perception import Readout
from pyramid.physics.actions import (
    MAX_TILT,
    Attach,
    Blow,
    Flick,
    Lift,
    PhysicalAction,
    Pull,
    Shake,
    Throw,
    Tilt,
    Wait,
)
from pyramid.skillgames.base import DiceInHand, SkillGame

# What a person's hands may do, as typed: the verb, its numbers (optional ones in brackets), and what they mean.
HAND_ACTIONS: dict[str, tuple[str, str]] = {
    "tilt": (
        "AZIMUTH ANGLE [HOLD SHAKE]",
        "tip the plate down towards AZIMUTH deg (0 to 360) by ANGLE deg (0 to {max_tilt}), held HOLD s "
        "(0 or more, default 0.5), jiggled SHAKE m along the slope (0 or more, default 0)",
    ),
    "shake": (
        "AMPLITUDE [FREQUENCY DURATION AZIMUTH]",
        "shake the level plate AMPLITUDE m to and fro (0 or more; 0.003 is 3 mm) at FREQUENCY Hz (more than 0, "
        "default 8) for DURATION s (0 or more, default 0.5) along AZIMUTH deg (default 0)",
    ),
    "blow": (
        "X Y Z AZIMUTH SPEED [DURATION]",
        "blow from the point (X, Y, Z) m towards AZIMUTH deg at SPEED m/s (0 or more: a puff 5, a strong blow "
        "20 to 30) for DURATION s (0 or more, default 0.4)",
    ),
    "flick": (
        "DIE AZIMUTH [IMPULSE]",
        "flick DIE, a die in play ({in_play}), towards AZIMUTH deg with IMPULSE N s (0 or more, default 0.004)",
    ),
    "throw": (
        "DIE X Y [HEIGHT]",
        "throw DIE ({all_dice}) at the point (X, Y) m from HEIGHT m (more than 0, default 0.15)",
    ),
    "lift": ("I J K", "lift out the die seated in slot (I, J, K): {seated}"),
    "pull": (
        "I J K [DISTANCE AXIS]",
        "pull the die seated in slot (I, J, K) ({seated}) DISTANCE m out (0 or more, default 0.006) along the "
        "face AXIS (0, 1 or 2: +i, +j, +k; default its way out)",
    ),
    "attach": (
        "DIE I J K",
        "set DIE, a die not in play, corner-down into the cell (I, J, K): whole numbers, I + J + K at most "
        f"{BASE_LAYER} (negative ones lie outside the pyramid)",
    ),
    "wait": ("SECONDS", "keep the hands still for SECONDS s (0 or more)"),
    "stop": ("", "say the turn is over"),
}


TYPED = tuple(verb for verb in HAND_ACTIONS if verb != "stop")  # the actions typed with their numbers


def hand_verbs(game: SkillGame) -> list[str]:
    """The actions a person may type in ``game``: lift only where dice leave play by hand, stop only where the
    player sets dice down from a hand and says when the turn is over."""
    return [
        verb
        for verb in HAND_ACTIONS
        if (verb != "lift" or game.lifts_dice_out) and (verb != "stop" or isinstance(game, DiceInHand))
    ]


def id_runs(ids: Iterable[int]) -> str:
    """Whole numbers as runs: ``0 to 6, 90, 180 to 185``; ``none`` for none."""
    runs: list[list[int]] = []
    for n in sorted(set(ids)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]} to {r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs) or "none"


def _seated(readout: Readout, most: int = 8) -> str:
    slots = sorted(readout.slot_die)
    if not slots:
        return "no die is seated now"
    shown = ", ".join(str(s) for s in slots[:most])
    return f"{shown}{', ...' if len(slots) > most else ''} ({len(slots)} seated dice)"


def hand_help(game: SkillGame, readout: Readout) -> str:
    """Every action a person may type in ``game`` now, with what its numbers mean and the values they may take."""
    fill = {
        "max_tilt": f"{MAX_TILT:g}",
        "in_play": id_runs(readout.dice),
        "all_dice": f"a die of the set: {id_runs(d.id for d in DICE)}",
        "seated": _seated(readout),
    }
    lines = [f"the actions of {game.info.title} (metres, degrees, seconds; the plate's centre is (0, 0)):"]
    for verb in hand_verbs(game):
        numbers, meaning = HAND_ACTIONS[verb]
        lines.append(f"  {f'{verb} {numbers}'.strip():<44} {meaning.format(**fill)}")
    lines.append("  ? or help                                    this list")
    return "\n".join(lines)


def _number(word: str, name: str, verb: str) -> float:
    try:
        value = float(word)
    except ValueError:
        raise TypedMoveError(f"{verb}: {name} is a number, not {word!r}") from None
    if not math.isfinite(value):
        raise TypedMoveError(f"{verb}: {name} is a finite number, not {word!r}")
    return value


def _whole(value: float, name: str, verb: str) -> int:
    if value != int(value):
        raise TypedMoveError(f"{verb}: {name} is a whole number, not {value:g}")
    return int(value)


def parse_action(text: str, verbs: Sequence[str] = TYPED) -> PhysicalAction:
    """A physical action from a typed line, one of ``verbs`` (``HAND_ACTIONS`` says what each takes); TypedMoveError
    if it cannot be read, naming what was wrong and what may be typed."""
    check_typed(text)
    words = text.split()
    listed = ", ".join(verbs)
    if not words:
        raise TypedMoveError(f"please type an action: {listed}; ? lists them with their numbers")
    verb = words[0].lower()
    if verb not in verbs or verb == "stop":
        raise TypedMoveError(
            f"please type an action: {words[0]!r} is none here; the actions are {listed} (? lists them with "
            "their numbers)"
        )
    names = HAND_ACTIONS[verb][0].replace("[", "").replace("]", "").split()
    needed = len(HAND_ACTIONS[verb][0].split("[")[0].split())
    if not needed <= len(words) - 1 <= len(names):
        count = f"{needed}" if needed == len(names) else f"{needed} to {len(names)}"
        raise TypedMoveError(
            f"{verb} takes {count} numbers ({verb} {HAND_ACTIONS[verb][0]}), got {len(words) - 1}: {text.strip()!r}"
        )
    nums = [_number(w, name, verb) for w, name in zip(words[1:], names, strict=False)]
    if verb == "tilt":
        return Tilt(nums[0], nums[1], hold=nums[2] if len(nums) > 2 else 0.5, shake=nums[3] if len(nums) > 3 else 0.0)
    if verb == "shake":
        return Shake(*nums)
    if verb == "blow":
        return Blow((nums[0], nums[1], nums[2]), nums[3], speed=nums[4], duration=nums[5] if len(nums) > 5 else 0.4)
    wholes = {"DIE", "I", "J", "K", "AXIS"}
    ints = [_whole(n, name, verb) if name in wholes else n for n, name in zip(nums, names, strict=False)]
    if verb == "flick":
        return Flick(int(ints[0]), nums[1], *(nums[2:]))
    if verb == "throw":
        if len(nums) > 3:  # the height given too
            return Throw(int(ints[0]), (nums[1], nums[2]), nums[3])
        return Throw(int(ints[0]), (nums[1], nums[2]))
    slot = (int(ints[0]), int(ints[1]), int(ints[2])) if verb in ("lift", "pull") else (0, 0, 0)
    if verb == "lift":
        return Lift(slot)
    if verb == "pull":
        return Pull(slot, nums[3] if len(nums) > 3 else 0.006, int(ints[4]) if len(nums) > 4 else None)
    if verb == "attach":
        return Attach(int(ints[0]), (int(ints[1]), int(ints[2]), int(ints[3])))
    return Wait(nums[0])


def _at_least(value: float, low: float, name: str, unit: str, open_low: bool = False) -> str:
    """What is wrong with ``value`` for a quantity that must be at least (or, open, more than) ``low``; "" if fine."""
    if value < low or (open_low and value == low):
        return f"{name} is {'more than' if open_low else 'at least'} {low:g} {unit}, not {value:g} {unit}".strip()
    return ""


def hand_refusal(action: PhysicalAction, game: SkillGame, readout: Readout) -> str:
    """Why ``action`` cannot be done in ``game`` now (what was wrong and what is allowed), or "" when it can."""
    if isinstance(action, Lift) and not game.lifts_dice_out:
        return f"no die is lifted out in {game.info.title}; the actions here are {', '.join(hand_verbs(game))}"
    if isinstance(action, Tilt):
        if not 0 <= action.angle <= MAX_TILT:
            return f"the angle is 0 to {MAX_TILT:g} deg, not {action.angle:g} deg"
        return _at_least(action.hold, 0, "the hold", "s") or _at_least(action.shake, 0, "the shake", "m")
    if isinstance(action, Shake):
        return (
            _at_least(action.amplitude, 0, "the amplitude", "m")
            or _at_least(action.frequency, 0, "the frequency", "Hz", open_low=True)
            or _at_least(action.duration, 0, "the duration", "s")
        )
    if isinstance(action, Blow):
        return _at_least(action.speed, 0, "the speed", "m/s") or _at_least(action.duration, 0, "the duration", "s")
    if isinstance(action, Flick):
        if action.die not in readout.dice:
            return f"die {action.die} is not in play; the dice in play are {id_runs(readout.dice)}"
        return _at_least(action.impulse, 0, "the impulse", "N s")
    if isinstance(action, Throw):
        if action.die not in {d.id for d in DICE}:
            return f"there is no die {action.die}; the dice of the set are {id_runs(d.id for d in DICE)}"
        return _at_least(action.height, 0, "the height", "m", open_low=True)
    if isinstance(action, Lift | Pull):
        if action.slot not in readout.slot_die:
            return f"no die is seated in {action.slot}; the seated dice are in {_seated(readout)}"
        if isinstance(action, Pull):
            if action.axis is not None and action.axis not in (0, 1, 2):
                return f"the axis is 0, 1 or 2 (the face along +i, +j or +k), not {action.axis}"
            return _at_least(action.distance, 0, "the distance", "m")
    if isinstance(action, Attach):
        if action.die not in {d.id for d in DICE}:
            return f"there is no die {action.die}; the dice of the set are {id_runs(d.id for d in DICE)}"
        if action.die in readout.dice:
            return f"die {action.die} is already in play; attach a die not in play (in play: {id_runs(readout.dice)})"
        if sum(action.cell) > BASE_LAYER:
            return f"the cell {action.cell} lies under the plate; I + J + K is at most {BASE_LAYER}"
    if isinstance(action, Wait):
        return _at_least(action.seconds, 0, "the wait", "s")
    return ""


def read_hand(text: str, game: SkillGame, readout: Readout) -> PhysicalAction:
    """The action ``text`` names, if a hand can do it in ``game`` now; TypedMoveError naming the input, what was
    wrong and what is allowed."""
    action = parse_action(text, hand_verbs(game))
    refusal = hand_refusal(action, game, readout)
    if refusal:
        raise TypedMoveError(f"{text.strip()!r} cannot be done: {refusal}")
    return action
