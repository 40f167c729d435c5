"""``bench.sizes``: an import spanning lines is folded onto one line before ``duplicates``.

The tool passes over import lines but reads the names of a parenthesised import list as code;
the fold makes a shared list of imported names count as the import it is, and keeps every
other line at its number so that the pairs it names are the real file's lines.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The benchmarks live at the repository's root, beside tests/ (not in the installed package).
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.sizes import folded_imports  # noqa: E402

SOURCE = """\
from a.b import (
    one,
    two as deux,
)
import os


def f() -> None:
    if True:
        from .c import (
            three,
        )
    x = (
        1,
    )
"""


def test_a_parenthesised_import_is_folded_onto_its_first_line() -> None:
    folded = folded_imports(SOURCE).splitlines()
    assert folded[0] == "from a.b import one, two as deux"
    assert folded[1:4] == ["", "", ""]
    assert folded[4] == "import os"
    assert folded[9] == "        from .c import three"
    assert folded[10:12] == ["", ""]


def test_every_other_line_keeps_its_number_and_text() -> None:
    before = SOURCE.splitlines()
    after = folded_imports(SOURCE).splitlines()
    assert len(after) == len(before)
    assert after[5:9] == before[5:9]
    assert after[12:] == before[12:]  # a parenthesised tuple is not an import: left as it is
