"""``mekref.hexmap`` loads each public name from its module on first use (``_LAZY``), lists
them in ``__all__`` and imports them for type checkers: the three lists must name the same
things, and each name must be the object its module defines."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import mekref.hexmap as hexmap


def _type_checking_names() -> set[str]:
    tree = ast.parse(Path(hexmap.__file__).read_text(encoding="utf-8"))
    guarded = next(n for n in tree.body if isinstance(n, ast.If))
    return {a.asname or a.name for i in ast.walk(guarded) if isinstance(i, ast.ImportFrom)
            for a in i.names}  # fmt: skip


def test_the_lazy_table_all_and_the_typed_imports_agree() -> None:
    lazy = set(hexmap._LAZY)
    assert lazy == set(hexmap.__all__)
    assert lazy == _type_checking_names()


def test_each_lazy_name_is_its_modules_object() -> None:
    for name, module in hexmap._LAZY.items():
        assert getattr(hexmap, name) is getattr(importlib.import_module(module), name), name
