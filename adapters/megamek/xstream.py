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

Following references is work the file decides: ten thousand references to one element with ten
thousand children, or references 65,000 characters long that walk up and down the tree, made a
few kilobytes cost minutes. Every walk therefore spends from a :class:`WalkBudget` (references
followed, path steps taken, children looked at) sized from the document's element count, far
above what real savegames need; past it the walk stops with :class:`WalkBudgetExceeded`. The
budget counts work, not time, so a file is refused the same way on any machine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

Element = etree._Element

# At most 9 digits: Python refuses to convert a number of thousands (a ValueError no reader
# expects), and no list holds a billion values.
_STEP = re.compile(r"^(?P<name>[^\[\]]+)(?:\[(?P<n>[0-9]{1,9})\])?$")
#: A reference to a reference is not something XStream writes; a chain this long is an attack.
_MAX_HOPS = 8

#: How much of a reference a message quotes: a crafted one can be 65,000 characters long.
_QUOTED_CHARS = 80

_Predicate = Callable[[Element], bool]
#: The index of every leaf (never filled).
_NO_FIELDS: dict[str, list[Element]] = {}


class BrokenReference(ValueError):
    """A ``reference`` that points nowhere (a damaged or altered file)."""


class WalkBudgetExceeded(ValueError):
    """The walk needed more work than any real savegame does: a crafted or broken file."""


@dataclass(frozen=True)
class WalkBudget:
    """The most work one document's walk may do: references followed, path steps taken,
    children looked at.

    The real savegame in tests/fixtures (23,573 elements, 1,976 references written) needs, read
    as written (0.43, relative paths) and in its ``ID_REFERENCES`` and current-name forms: 117
    references followed (0.005 per element), 713 path steps (0.03 per element; none with ids)
    and 5,415 children looked at (0.23 per element, 0.33 within its most costly unit's
    subtree). :func:`budget_for` allows 0.25, 0.5 and 1 per element over a floor for small
    files: 50, 16 and 4 times what the real file needs (3 times its most costly unit), while
    a document at the element limit (250,000) spends its whole budget in a fraction of a
    second. tests/adapters/test_savegame_budget.py holds these figures."""

    max_references: int
    max_steps: int
    max_scanned: int


#: The floor: any document may spend this much (a small save still has a game and a board).
MIN_BUDGET = WalkBudget(max_references=10_000, max_steps=50_000, max_scanned=100_000)


def budget_for(elements: int) -> WalkBudget:
    """The walk budget of a document of ``elements`` elements."""
    return WalkBudget(
        max_references=max(MIN_BUDGET.max_references, elements // 4),
        max_steps=max(MIN_BUDGET.max_steps, elements // 2),
        max_scanned=max(MIN_BUDGET.max_scanned, elements),
    )


def quoted(ref: str) -> str:
    """A reference as a one-line message may quote it: cut to its first characters."""
    shown = ref if len(ref) <= _QUOTED_CHARS else ref[:_QUOTED_CHARS] + "..."
    return repr(shown)


class Graph:
    """The document with its references resolvable; ``element`` is the definition of a value.

    Every child looked at, reference followed and path step taken is counted against
    ``budget`` (:class:`WalkBudgetExceeded` past it); ``spent`` says how much a walk used."""

    def __init__(self, root: Element, budget: WalkBudget | None = None) -> None:
        self.root = root
        self.budget = budget if budget is not None else budget_for(count_elements(root))
        self._ids: dict[str, Element] | None = None
        # Each object's children by name, and their names: built once per object (a 'Mek's
        # ~250 fields are looked up ~60 times; a relative path's ``Mounted[17]`` step picks one
        # of a list), so an object met again costs nothing to scan.
        self._fields: dict[Element, dict[str, list[Element]]] = {}
        self._tags: dict[Element, frozenset[str]] = {}
        self._references = 0
        self._steps = 0
        self._scanned = 0

    @property
    def spent(self) -> WalkBudget:
        return WalkBudget(self._references, self._steps, self._scanned)

    def _charge(self, looked_at: int) -> None:
        self._scanned += looked_at
        if self._scanned > self.budget.max_scanned:
            raise WalkBudgetExceeded(
                f"more than {self.budget.max_scanned:,} XStream values looked at"
            )

    def elements(self, el: Element) -> list[Element]:
        """The child elements of ``el`` (comments and processing instructions skipped). Each is
        charged, and ``el`` itself (a look costs even when there is nothing), before any is
        looked at: ``len`` counts them in C, so a crafted element with many children is refused
        before Python walks it again."""
        self._charge(len(el) + 1)
        return [child for child in el if isinstance(child.tag, str)]

    def _index(self, obj: Element) -> dict[str, list[Element]]:
        index = self._fields.get(obj)
        if index is None:
            if not len(obj):
                # A leaf (most values): nothing to keep, and no proxy held for it.
                self._charge(1)
                return _NO_FIELDS
            index = {}
            for child in self.elements(obj):
                index.setdefault(child.tag, []).append(child)
            self._fields[obj] = index
        return index

    def child_tags(self, el: Element) -> frozenset[str]:
        tags = self._tags.get(el)
        if tags is None:
            index = self._index(el)
            if index is _NO_FIELDS:
                return frozenset()
            tags = self._tags[el] = frozenset(index)
        return tags

    def has_children(self, el: Element) -> bool:
        # Not ``len(el)``: a crafted value would be counted whole each time it is met.
        return next(iter(el), None) is not None

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
                raise BrokenReference(f"reference chain longer than {_MAX_HOPS} at {quoted(ref)}")
            self._references += 1
            if self._references > self.budget.max_references:
                raise WalkBudgetExceeded(
                    f"more than {self.budget.max_references:,} XStream references resolved"
                )
            el = self._follow(el, ref)
        return el

    def _follow(self, el: Element, ref: str) -> Element:
        if ref and ref.isdigit():
            found = self._id_table().get(ref)
            if found is None:
                raise BrokenReference(f"reference={quoted(ref)} names no object with that id")
            return found
        # Charged before the path is even split: a crafted path can be tens of thousands of
        # steps long.
        self._steps += ref.count("/") + 1
        if self._steps > self.budget.max_steps:
            raise WalkBudgetExceeded(
                f"more than {self.budget.max_steps:,} XStream reference steps walked"
            )
        node: Element | None
        steps = ref.split("/")
        if ref.startswith("/"):
            node = self.root
            steps = steps[1:]
            if not steps or steps[0] != self.root.tag.split("[")[0]:
                raise BrokenReference(
                    f"absolute reference {quoted(ref)} does not start at the root"
                )
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
                raise BrokenReference(
                    f"reference {quoted(ref)} has a malformed step {quoted(step)}"
                )
            named = self._index(node).get(m.group("name"), [])
            wanted = int(m.group("n") or 1)
            node = named[wanted - 1] if 0 < wanted <= len(named) else None
        if node is None:
            raise BrokenReference(f"reference {quoted(ref)} leads outside the document")
        return node

    # -- reading fields ------------------------------------------------------------------
    def field(self, obj: Element, name: str) -> Element | None:
        """The value of field ``name`` of object ``obj``, references followed (None: absent)."""
        named = self._index(obj).get(name)
        # The first of that name, as XStream reads a field.
        return None if named is None else self.resolve(named[0])

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
        return [self.resolve(child) for child in self.elements(obj)]

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
    ) -> list[Element]:
        """Objects ``is_wanted`` holds inside a collection value (lists, maps, custom-serialised
        collections), each once, references followed; wanted objects are not looked into."""
        # lxml hands out a new proxy for an element no Python object holds, so identity is
        # kept by holding the elements themselves, never by ``id()``.
        found: list[Element] = []
        self._walk(container, is_wanted, depth, set(), found)
        return found

    def _walk(
        self,
        el: Element,
        is_wanted: _Predicate,
        depth: int,
        seen: set[Element],
        found: list[Element],
    ) -> None:
        for child in self.elements(el):
            target = self.resolve(child)
            if target in seen:
                continue
            if is_wanted(target):
                seen.add(target)
                found.append(target)
            elif depth > 0 and child.get("reference") is None and len(child):
                self._walk(child, is_wanted, depth - 1, seen, found)


def count_elements(root: Element) -> int:
    """The elements of the document (in C: the parse already bounded the count)."""
    counted = root.xpath("count(//*)")
    return int(counted) if isinstance(counted, float) else 0
