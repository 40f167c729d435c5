"""Read an XStream object graph by field names, following its references.

MegaMek saves a game with XStream, which writes every Java object as an element named after its
class (or after the field that holds it) and every field as a child named after the field. An
object met a second time is not written again but points back at its first occurrence, in one of
two ways depending on the XStream mode:

* relative paths (XStream's default, MegaMek 0.43 and earlier):
  ``reference="../../entities/java.util.concurrent.CopyOnWriteArrayList/megamek.common.Tank[2]"``,
  a path from the referring element, ``..`` for the parent and ``name[n]`` for the n-th child of
  that name (1-based);
* ``ID_REFERENCES`` (``SerializationHelper.getSaveGameXStream`` in current MegaMek): every object
  carries ``id="N"`` and a repeat is ``reference="N"``.

Absolute paths (``/megamek.common.Game/...``) are accepted as well. Nothing here depends on a
Java class name: MegaMek renamed its packages (``megamek.common.Mech`` became
``megamek.common.units.Mek``) but kept its field names, so callers look objects up by field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from lxml import etree

Element = etree._Element

_STEP = re.compile(r"^(?P<name>[^\[\]]+)(?:\[(?P<n>[0-9]+)\])?$")
#: A reference to a reference is not something XStream writes; a chain this long is an attack.
_MAX_HOPS = 8

_Predicate = Callable[[Element], bool]


class BrokenReference(ValueError):
    """A ``reference`` that points nowhere (a damaged or altered file)."""


class Graph:
    """The document with its references resolvable; ``element`` is the definition of a value."""

    def __init__(self, root: Element) -> None:
        self.root = root
        self._ids: dict[str, Element] | None = None

    def _id_table(self) -> dict[str, Element]:
        if self._ids is None:
            self._ids = {}
            for el in self.root.iter():
                ident = el.get("id")
                if ident is not None and el.get("reference") is None:
                    self._ids.setdefault(ident, el)
        return self._ids

    def resolve(self, el: Element) -> Element:
        """The element that defines the value ``el`` stands for (``el`` itself if it defines it)."""
        hops = 0
        while (ref := el.get("reference")) is not None:
            hops += 1
            if hops > _MAX_HOPS:
                raise BrokenReference(f"reference chain longer than {_MAX_HOPS} at {ref!r}")
            el = self._follow(el, ref)
        return el

    def _follow(self, el: Element, ref: str) -> Element:
        if ref and ref.isdigit():
            found = self._id_table().get(ref)
            if found is None:
                raise BrokenReference(f'reference="{ref}" names no object with that id')
            return found
        node: Element | None
        steps = ref.split("/")
        if ref.startswith("/"):
            node = self.root
            steps = steps[1:]
            if not steps or steps[0] != self.root.tag.split("[")[0]:
                raise BrokenReference(f"absolute reference {ref!r} does not start at the root")
            steps = steps[1:]
        else:
            node = el
        for step in steps:
            if node is None:
                break
            if step in ("", "."):
                continue
            if step == "..":
                node = node.getparent()
                continue
            m = _STEP.match(step)
            if m is None:
                raise BrokenReference(f"reference {ref!r} has a malformed step {step!r}")
            wanted = int(m.group("n") or 1)
            node = _nth_child(node, m.group("name"), wanted)
        if node is None:
            raise BrokenReference(f"reference {ref!r} leads outside the document")
        return node

    # -- reading fields ------------------------------------------------------------------
    def field(self, obj: Element, name: str) -> Element | None:
        """The value of field ``name`` of object ``obj``, references followed (None: absent)."""
        for child in obj:
            if child.tag == name:
                return self.resolve(child)
        return None

    def text(self, obj: Element, name: str) -> str | None:
        el = self.field(obj, name)
        if el is None:
            return None
        return el.text or ""

    def int_of(self, obj: Element, name: str) -> int | None:
        raw = self.text(obj, name)
        if raw is None or not raw.strip():
            return None
        try:
            return int(raw.strip())
        except ValueError:
            return None

    def bool_of(self, obj: Element, name: str) -> bool | None:
        raw = self.text(obj, name)
        if raw is None:
            return None
        return raw.strip() == "true"

    def items(self, obj: Element | None) -> list[Element]:
        """The elements of an array or list value, references followed (``null`` kept as-is)."""
        if obj is None:
            return []
        return [self.resolve(child) for child in _elements(obj)]

    def ints(self, obj: Element, name: str) -> tuple[int, ...] | None:
        arr = self.field(obj, name)
        if arr is None:
            return None
        out: list[int] = []
        for child in self.items(arr):
            try:
                out.append(int((child.text or "").strip()))
            except ValueError:
                return None
        return tuple(out)

    def strings(self, obj: Element, name: str) -> tuple[str | None, ...] | None:
        arr = self.field(obj, name)
        if arr is None:
            return None
        return tuple(None if c.tag == "null" else (c.text or "") for c in self.items(arr))

    def bools(self, obj: Element, name: str) -> tuple[bool, ...] | None:
        arr = self.field(obj, name)
        if arr is None:
            return None
        return tuple((c.text or "").strip() == "true" for c in self.items(arr))

    def objects_within(
        self, container: Element, is_wanted: _Predicate, depth: int = 4
    ) -> Iterator[Element]:
        """Objects ``is_wanted`` holds inside a collection value (lists, maps, custom-serialised
        collections), each once, references followed; wanted objects are not looked into."""
        # lxml hands out a new proxy for an element no Python object holds, so identity is
        # kept by holding the elements themselves, never by ``id()``.
        seen: set[Element] = set()
        yield from self._walk(container, is_wanted, depth, seen)

    def _walk(
        self, el: Element, is_wanted: _Predicate, depth: int, seen: set[Element]
    ) -> Iterator[Element]:
        for child in _elements(el):
            target = self.resolve(child)
            if target in seen:
                continue
            if is_wanted(target):
                seen.add(target)
                yield target
            elif depth > 0 and child.get("reference") is None:
                yield from self._walk(child, is_wanted, depth - 1, seen)


def _elements(el: Element) -> Iterator[Element]:
    for child in el:
        if isinstance(child.tag, str):
            yield child


def _nth_child(node: Element, name: str, n: int) -> Element | None:
    count = 0
    for child in _elements(node):
        if child.tag == name:
            count += 1
            if count == n:
                return child
    return None


def child_tags(el: Element) -> set[str]:
    return {c.tag for c in _elements(el)}
