"""What the window tells a person about a skill game: its goal in one line, the controls its rules allow (and
the help that lists only those), and the dice the player to move may touch.
"""

from __future__ import annotations

from pyramid.dice import DieId
from pyramid.perception import Readout, Status
from pyramid.skillgames.base import DiceInHand, SkillGame
from pyramid.skillgames.more import Emag, MaliciousPleasure, VainGuineaFowl
from pyramid.skillgames.mount import Mounting
from pyramid.skillgames.plate import Coulomb, Dune, Faraday
from pyramid.skillgames.standing import CaptainFlint, DiceMikado
from pyramid.skillgames.throwing import DishingUp, Flickers, HideAway, Trulla
from pyramid.skillgames.throwing import on_plate as lies_on_plate

# Each control of the window's hands, and the line the help gives it.
CONTROL_HELP: dict[str, str] = {
    "stroke": "ctrl-drag across the plate: a stroke about the line where you press, square to the drag (the dice "
    "beyond it hop on the way you drag, faster the faster you drag); ctrl-shift-drag: about the line where you let "
    "go (the dice before it hop towards it)",
    "tilt": "arrows: tilt the plate that way",
    "shake": "S: a hard shake (lifts a seated die over its rim)   shift-S: a gentle one (seats leaning dice)   "
    "J: a firm one (frees a die wedged turned in its funnel)",
    "blow": "hold B: blow where the mouse points (B + wheel: stronger or weaker)",
    "lift": "click a die: lift it out",
    "flick": "drag one of your dice (or right-drag it): flick it the way you drag (longer: harder; the aim and "
    "strength show)",
    "throw": "T: throw one of your dice where the mouse points: the next of your hand, or one lying off the plate "
    "(C colour)",
    "pull": "U: pull the die 8 mm out (shift-U: 4 mm)",
    "attach": "A: attach a die of your hand beyond the face under the mouse",
    "pour": "L: pour 6 of your dice",
    "end": "E: end the turn",
    "wait": "W: wait half a second",
}
VIEW_HELP = (
    "drag: turn   wheel: zoom   shift-drag: pan   R: reset view   Space: pause   + and -: pace   H: help   "
    "Esc Esc: quit\non your turn: Ctrl+Z undo your last action (the clock runs on), Ctrl+Y redo, Ctrl+S save the match"
)


def controls(game: SkillGame) -> tuple[str, ...]:
    """The controls the rules of ``game`` allow a person (names of ``CONTROL_HELP``)."""
    if isinstance(game, Faraday | Coulomb):
        found: tuple[str, ...] = ("stroke", "tilt", "shake", "wait")
    elif isinstance(game, CaptainFlint):
        found = ("tilt", "stroke", "shake", "wait")
    elif isinstance(game, Dune):
        found = ("blow", "wait")
    elif isinstance(game, DiceMikado):
        found = ("lift", "wait")
    elif isinstance(game, Flickers):
        found = ("flick",)
    elif isinstance(game, HideAway | DishingUp):
        found = ("throw", "wait")
    elif isinstance(game, MaliciousPleasure):
        found = ("throw", "attach", "wait")
    elif isinstance(game, VainGuineaFowl):
        found = ("throw", "lift", "shake", "wait")
    elif isinstance(game, Trulla):
        found = ("pour", "wait")
    elif isinstance(game, Mounting | Emag):
        found = ("pull", "attach", "wait") if isinstance(game, Mounting) else ("attach", "wait")
    else:
        found = tuple(CONTROL_HELP)
    return found + (("end",) if isinstance(game, DiceInHand) and "end" not in found else ())


def skill_help(game: SkillGame) -> str:
    """The help of ``game`` in the window: only the controls its rules allow, then the view's keys."""
    return "\n".join([*(CONTROL_HELP[c] for c in controls(game)), VIEW_HELP])


def goal_line(game: SkillGame) -> str:
    """The goal of ``game`` in one line: the first line of its rules card."""
    first = (type(game).__doc__ or game.info.title).strip().splitlines()[0]
    return f"goal: {first}"


def refusal(game: SkillGame, control: str) -> str:
    """The line the window says when ``control`` is not allowed in ``game``."""
    allowed = ", ".join(c for c in controls(game) if c != "wait") or "nothing"
    return f"{game.info.title} allows no {control}: your hands may {allowed} (H: help)"


def touchable(game: SkillGame, readout: Readout) -> set[DieId] | None:
    """The dice the player to move may act on with a finger or a hand (lift, flick, throw): in Flickers and the
    throwing races their own dice off the plate (in Hide Away, Dishing Up and Malicious Pleasure those still
    in hand too); None where the rules say nothing."""
    if isinstance(game, Flickers):
        return {d for d in game.own[game.to_move] if d in readout.dice and not lies_on_plate(readout.dice[d])}
    if isinstance(game, HideAway | DishingUp | MaliciousPleasure):
        mine = game.black[game.to_move] if isinstance(game, HideAway) else game.own[game.to_move]
        return {d for d in mine if d not in readout.dice or not lies_on_plate(readout.dice[d])}
    if isinstance(game, DiceMikado):
        return {
            d for d, r in readout.dice.items() if r.status is Status.SEATED and r.slot is not None and d != game.top_die
        }
    return None


def own_dice(game: SkillGame, seat: int, readout: Readout) -> set[DieId]:
    """The dice of player ``seat`` in the world (marked in the window); none where dice belong to nobody."""
    mine: set[DieId] = set()
    if isinstance(game, Flickers):
        mine = set(game.own[seat])
    elif isinstance(game, HideAway):
        mine = set(game.black[seat])
    elif isinstance(game, DishingUp | MaliciousPleasure):
        mine = set(game.own[seat])
    return {d for d in mine if d in readout.dice}
