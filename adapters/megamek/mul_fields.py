"""The small readers every part of a MUL file's reading shares: where an element stands (for
messages), its attributes, and typed fields with the refusal a bad one gets. Internal to the
MUL readers (:mod:`.mul_reader`, :mod:`.mul_locations`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from lxml import etree

from mekref.adapters.megamek.errors import FilePosition, MulReadError
from mekref.adapters.megamek.mul_model import (
    Attributes,
    Notice,
    Slot,
)


class _Context:
    """Per-file reading context: the path for messages and the notices collected so far."""

    def __init__(self, path: str, notices: list[Notice]) -> None:
        self.path = path
        self.notices = notices
        self._reported: set[str] = set()
        #: The plain slots read so far, shared by every slot equal to one (see ``_read_slot``).
        self.plain_slots: dict[tuple[int | None, str, int | None], Slot] = {}

    def error(self, element: etree._Element, problem: str, hint: str) -> MulReadError:
        return MulReadError(FilePosition(self.path, _line(element)), problem, hint)

    def note(self, element: etree._Element, message: str) -> None:
        self.notices.append(Notice(_line(element), message))

    def note_once(self, element: etree._Element, key: str, message: str) -> None:
        """Report ``key`` at its first occurrence only (a new attribute repeats on every unit)."""
        if key not in self._reported:
            self._reported.add(key)
            self.note(element, message)


def _line(element: etree._Element) -> int | None:
    # lxml-stubs type sourceline oddly; at run time it is an int or None.
    line: object = element.sourceline
    return line if isinstance(line, int) else None


def _items(element: etree._Element) -> list[tuple[str, str]]:
    # lxml hands back str for documents parsed from text; the stubs allow bytes too.
    return cast(list[tuple[str, str]], element.items())


def _attributes(element: etree._Element) -> Attributes:
    return tuple(_items(element))


def _attr_dict(element: etree._Element) -> dict[str, str]:
    """All attributes at once: one call into lxml instead of one per attribute looked up."""
    return dict(cast(list[tuple[str, str]], element.items()))


def _true(raw: str | None) -> bool:
    return raw is not None and raw.strip().lower() == "true"


def _bool_or_none(raw: str | None) -> bool | None:
    return None if raw is None else raw.strip().lower() == "true"


def _elements(parent: etree._Element) -> Iterator[etree._Element]:
    # Comments and processing instructions are not data; MegaMek's free text lives in .text/.tail.
    # Filtering on the Element factory happens inside lxml.
    return parent.iterchildren(etree.Element)


def _int(ctx: _Context, element: etree._Element, what: str, raw: str) -> int:
    try:
        return int(raw.strip())
    except ValueError:
        raise ctx.error(
            element,
            f"{what}={raw!r} on <{element.tag}> is not a whole number",
            "the file was edited by hand or damaged; correct the value or export it again",
        ) from None


def _opt_int(ctx: _Context, element: etree._Element, name: str) -> int | None:
    raw = element.get(name)
    return None if raw is None else _int(ctx, element, name, raw)


def _int_or_none(ctx: _Context, element: etree._Element, name: str, raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        return int(raw)  # the common case; int() itself allows surrounding whitespace
    except ValueError:
        return _int(ctx, element, name, raw)


def _opt_bool(element: etree._Element, name: str) -> bool | None:
    raw = element.get(name)
    return None if raw is None else raw.strip().lower() == "true"


def _flag(element: etree._Element, name: str) -> bool:
    return (element.get(name) or "").strip().lower() == "true"


def _extra(element: etree._Element, known: frozenset[str] | dict[str, str]) -> Attributes:
    return tuple((k, v) for k, v in _attributes(element) if k not in known)


def _required(ctx: _Context, element: etree._Element, name: str) -> str:
    value = element.get(name)
    if value is None:
        raise ctx.error(
            element,
            f"<{element.tag}> has no {name} attribute",
            "MegaMek always writes it; the file is damaged or not a MegaMek unit list",
        )
    return value


def _raw(element: etree._Element) -> str:
    return etree.tostring(element, encoding="unicode", with_tail=False)


def _external_id(raw: str | None) -> str | None:
    return None if raw in (None, "", "-1") else raw


def _split(raw: str | None) -> tuple[str, ...]:
    if not raw:
        return ()
    return tuple(part for part in raw.split("::") if part)
