"""Physical quantities that several layers share, in SI units (metres, seconds): gravity, hands' release heights.

Pure data beside ``dice`` (the dice's own edge and density): the physics settings default to these,
and hands that reason about the world without holding it (a controller's risk estimate) read them here.
"""

from __future__ import annotations

import math

GRAVITY = 9.81  # m/s^2: the table's gravity; ``Physics.gravity`` defaults to it
PLACE_DROP = 0.002  # metres: a die placed into a funnel by hand is let go this far above its seat
SET_DROP = 0.001  # metres: a die set down by hand (attached, stacked) is let go this far above its rest


def rounded(value: float, digits: int = 3) -> str:
    """``value`` as people read it in a log line: ``digits`` significant digits, no exponent, no trailing zeros.

    >>> rounded(30.3448), rounded(0.0041234), rounded(1234.5), rounded(15.0), rounded(-0.0), rounded(9.996)
    ('30.3', '0.00412', '1230', '15', '0', '10')
    """
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    places = digits - 1 - math.floor(math.log10(abs(value)))  # decimal places that keep ``digits`` digits
    text = f"{round(value, places):.{max(0, places)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
