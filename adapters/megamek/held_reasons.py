"""How the reason of a held battle file begins, in a module of its own.

``mekref status`` sorts held files by their reason; importing it from ``battle_file`` would
load the whole MUL and savegame readers (lxml among them) into a command that reads none.
"""

from __future__ import annotations

#: How the reason of a savegame held until its game ends begins (``mekref status`` sorts by it).
GAME_IN_PROGRESS = "game in progress"
