"""The Ginestra campaign samples: forces as MegaMek unit lists and their strategic set-ups.

``legal/`` (:data:`LEGAL`) is the campaign as TripWire builds it: each side a mercenary
battalion (Alpha and Bravo 'Mech companies, the Charlie support company; L8-L23) and its L162
militia, with commanders, the unit designs and a BV table whose every figure names its source
(``legal/README.md``). ``make demo`` plays it; it imports without ``--unchecked``.

The folder itself (:data:`FOLDER`) holds the small skirmish sample the tests use for
hand-worked numbers: one lance, a militia and a fighter a side. It is not a legal TripWire
force (it imports only with ``--unchecked``). Both read ``strategic.toml`` for the map, who
attacks, who holds which location and where each formation starts. See docs/turn.md.
"""

from pathlib import Path

FOLDER = Path(__file__).parent
LEGAL = FOLDER / "legal"
#: The company of each side's list that is its L162 militia (``force import --militia``).
LEGAL_MILITIA = {"loyalist": "Loyalist Militia", "rebel": "Rebel Militia"}
