"""The bundled replay set: set-up commands and recorded battle files (see docs/daemon.md).

``mekref replay`` and ``make demo`` read the files beside this one; this module only makes
the folder part of the installed package. Regenerate it with
``python tests/daemon/replay_sample.py daemon/samples/replay``.
"""

from pathlib import Path

FOLDER = Path(__file__).parent
