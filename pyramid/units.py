"""Physical quantities that several layers share, in SI units (metres, seconds): gravity, hands' release heights.

Pure data beside ``dice`` (the dice's own edge and density): the physics settings default to these,
and hands that reason about the world without holding it (a controller's risk estimate) read them here.
"""

from __future__ import annotations

GRAVITY = 9.81  # m/s^2: the table's gravity; ``Physics.gravity`` defaults to it
PLACE_DROP = 0.002  # metres: a die placed into a funnel by hand is let go this far above its seat
SET_DROP = 0.001  # metres: a die set down by hand (attached, stacked) is let go this far above its rest
