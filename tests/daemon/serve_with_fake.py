"""Run the ``mekref`` CLI with the test stand-in for battle ingestion (tests only).

``python tests/daemon/serve_with_fake.py serve --watch DIR ...`` is ``mekref serve`` whose
battle files credit 1 WP each (see fake_battle_input.py), so daemon tests do not depend on
the rules of battle resolution.
"""

from __future__ import annotations

import sys

import fake_battle_input

from mekref.daemon import ingest

if __name__ == "__main__":
    sys.modules[ingest.BATTLE_INPUT_MODULE] = fake_battle_input
    from mekref.daemon.cli import main

    sys.exit(main(sys.argv[1:]))
