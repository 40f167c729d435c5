"""Run the ``mekref`` CLI with the test stand-in for battle ingestion (tests only).

``python tests/daemon/serve_with_fake.py serve --watch DIR ...`` is ``mekref serve`` whose
battle files credit 1 WP each (see fake_battle_input.py), so daemon tests do not depend on
the rules of battle resolution. Only TripWire's battle-file capability is replaced; the
rest of the CLI keeps the real modules.
"""

from __future__ import annotations

import sys

import fake_battle_input

from mekref.daemon.cli import main

if __name__ == "__main__":
    fake_battle_input.install()
    sys.exit(main(sys.argv[1:]))
