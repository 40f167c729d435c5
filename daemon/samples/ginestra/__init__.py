"""The Ginestra demo campaign: both forces as MegaMek unit lists and the strategic set-up.

``loyalist.mul`` and ``rebel.mul`` are built from the fixture unit designs
(``tests/fixtures/megamek/units``); ``strategic.toml`` gives the map, who attacks, unit speeds,
who holds which location and where each formation starts. See docs/turn.md for the steps.
"""

from pathlib import Path

FOLDER = Path(__file__).parent
