"""The pages' tests: the Ginestra sample behind a real ``mekref serve --web`` process."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
