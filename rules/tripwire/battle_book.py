"""A campaign's battles by id, and the indexes the battle rules look them up by.

Ruling BR-13 asks of every new file whether a battle already holds it (the same bytes: its
sha256) or the same report saved again (other bytes, the same content); the ingest pipeline and
``mekref status`` ask which battle holds a file; every file asks which battles are open. Asked
of every battle, these made the n-th battle of a campaign cost n times the first.
:class:`BattleBook` keeps the battles with indexes beside them: derived data, brought up to date
as a battle is added or changed (a battle's files are only ever added to), never written to the
log and never part of the state's JSON or its hash (its JSON is that of the plain mapping).

It is also a :class:`~mekref.rules.codec.Parted` mapping: a snapshot keeps each battle's
canonical JSON apart with a summary of it (number, open or not, engagement, each file's sha256
and content digest), so opening a long campaign builds the indexes from the summaries and
decodes a battle only when a rule reads it. A battle's text, once known, is kept with it, so the
next snapshot or state hash does not encode it again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar, overload

from mekref.rules.codec import JsonValue, Parted, from_jsonable
from mekref.rules.codec_texts import carry_texts, object_text, text_like

if TYPE_CHECKING:
    from mekref.rules.tripwire.battle_model import Battle, BattleFile


class BattleStatus(StrEnum):
    OPEN = "open"
    RESOLVED = "resolved"


def report_content(file: BattleFile) -> BattleFile:
    """What a file reports, without what names its bytes (sha256, path), who uploaded it, or
    what is derived from the campaign at the time it arrived (the reporting side; which units
    a kill's display name matched, which changes once those units are dead). Ruling BR-13: two
    files of the same content are one report saved twice."""
    return replace(
        file,
        sha256="",
        path="",
        reporting_side=None,
        uploaded_by=None,
        kills=tuple(replace(k, killed_unit_ids=()) for k in file.kills),
    )


# The digests of the last few files, by identity (the file is held, so its id is not reused):
# a file's digest is asked when it is submitted and again as its event is folded, twice.
_DIGESTS: dict[int, tuple[BattleFile, str]] = {}
_DIGESTS_KEPT = 8


def content_digest(file: BattleFile) -> str:
    """sha256 of the canonical JSON of :func:`report_content`: equal digests, equal reports."""
    known = _DIGESTS.get(id(file))
    if known is not None and known[0] is file:
        return known[1]
    # The report's text is the file's but for a few small fields: the others' texts are the
    # file's own, made once (and kept for its event's text, ``codec_texts``).
    digest = hashlib.sha256(text_like(report_content(file), file).encode("utf-8")).hexdigest()
    _remember(file, digest)
    return digest


def _remember(file: BattleFile, digest: str) -> None:
    while len(_DIGESTS) >= _DIGESTS_KEPT:
        try:
            del _DIGESTS[next(iter(_DIGESTS))]
        except (KeyError, RuntimeError, StopIteration):  # another thread got there first
            break
    _DIGESTS[id(file)] = (file, digest)


def with_reporting_side(file: BattleFile, side: str | None) -> BattleFile:
    """``file`` with its reporting side set; the side is no part of its content, so the
    digest already computed for ``file`` is the new one's too."""
    out = replace(file, reporting_side=side)
    carry_texts(file, out)
    known = _DIGESTS.get(id(file))
    if known is not None and known[0] is file:
        _remember(out, known[1])
    return out


@dataclass(frozen=True, slots=True)
class BattleSummary:
    """What the indexes need of one battle, kept so that they need not decode it."""

    number: int
    open: bool
    engagement_id: str
    files: tuple[tuple[str, str], ...]  # (sha256, content digest) of each file, in order

    def to_json(self) -> JsonValue:
        return [self.number, self.open, self.engagement_id, [list(f) for f in self.files]]

    @staticmethod
    def from_json(data: JsonValue) -> BattleSummary:
        number, is_open, engagement_id, files = data
        return BattleSummary(number, is_open, engagement_id, tuple((s, d) for s, d in files))


def summarize(battle: Battle, before: BattleSummary | None = None) -> BattleSummary:
    """The summary of ``battle``; the digests of the files ``before`` already held are kept."""
    files = battle.files
    kept = before.files if before is not None else ()
    if len(kept) > len(files) or any(
        f.sha256 != s for f, (s, _) in zip(files[: len(kept)], kept, strict=True)
    ):
        kept = ()
    digests = kept + tuple((f.sha256, content_digest(f)) for f in files[len(kept) :])
    return BattleSummary(
        battle.number, battle.status is BattleStatus.OPEN, battle.engagement_id, digests
    )


class _Entry:
    """One battle, as its value, its canonical JSON or both (either is made from the other when
    first asked, and kept: the same immutable value, so threads may race harmlessly), and its
    summary. A snapshot read from a store gives the JSON as a view of its UTF-8 bytes, decoded
    when first read."""

    __slots__ = ("battle", "summary", "text")

    def __init__(
        self, battle: Battle | None, text: str | memoryview | None, summary: BattleSummary
    ) -> None:
        self.battle = battle
        self.text = text
        self.summary = summary

    def value(self) -> Battle:
        battle = self.battle
        if battle is None:
            from mekref.rules.tripwire.battle_model import Battle

            text = self.text
            assert text is not None
            battle = from_jsonable(
                Battle, json.loads(text if isinstance(text, str) else bytes(text))
            )
            self.battle = battle
        return battle

    def canonical(self) -> str:
        text = self.text
        if isinstance(text, memoryview):
            text = str(text, "utf-8")
            self.text = text
        elif text is None:
            # Written around the texts its files and resolution kept from their events.
            text = object_text(self.battle)
            self.text = text
            if not self.summary.open:
                # A resolved battle is seldom read again: its text is kept instead of its
                # value, a fifth of the memory (decoded again if a rule reads it).
                self.battle = None
        return text


K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")
_ABSENT: Any = object()
#: A layered map merges its changes into its base once they number this many, or an eighth
#: of the base if more.
_TOP_MIN, _TOP_SHARE = 32, 8


class _Layers(Generic[K, V]):
    """A map changed by making a new one, at a cost that does not grow with it.

    The items set since the last merge sit in a small dict over a large one, which the maps
    made before share (never changed once shared); the two are merged when the small one has
    grown to an eighth of the large one. Copying the whole dict for each change (as a battle
    file was folded) made a campaign's n-th battle cost n times its first."""

    __slots__ = ("_base", "_size", "_top")

    def __init__(self, base: dict[K, V], top: dict[K, V], size: int) -> None:
        self._base, self._top, self._size = base, top, size

    @staticmethod
    def empty() -> _Layers[K, V]:
        return _Layers({}, {}, 0)

    def get(self, key: K, default: Any = None) -> Any:
        found = self._top.get(key, _ABSENT)
        return self._base.get(key, default) if found is _ABSENT else found

    def __contains__(self, key: object) -> bool:
        return key in self._top or key in self._base

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[K]:
        # In the order the keys were first set, as a dict's ({**base, **top} keeps it).
        yield from self._base
        base = self._base
        yield from (key for key in self._top if key not in base)

    def items(self) -> Iterator[tuple[K, V]]:
        for key in self:
            yield key, self.get(key)

    def set(self, key: K, value: V) -> _Layers[K, V]:
        top = {**self._top, key: value}
        size = self._size + (key not in self)
        if len(top) >= max(_TOP_MIN, len(self._base) // _TOP_SHARE):
            return _Layers({**self._base, **top}, {}, size)
        return _Layers(self._base, top, size)

    def put(self, key: K, value: V) -> None:
        """Set in place: only while building a map nothing else holds yet."""
        if key not in self:
            self._size += 1
        if key in self._top:
            self._top[key] = value
        else:
            self._base[key] = value


#: The version of :meth:`BattleBook.part_index`: a snapshot whose index has another one is
#: decoded whole (its digests may have been made otherwise).
_INDEX_VERSION = 1


class BattleBook(Parted):
    """Battle id -> battle, in the order the battles opened (their numbers), with indexes."""

    __slots__ = ("_by_digest", "_by_engagement", "_by_sha", "_entries", "_open")

    def __init__(self, battles: Mapping[str, Battle] | None = None) -> None:
        self._entries: _Layers[str, _Entry] = _Layers.empty()
        self._by_sha: _Layers[str, str] = _Layers.empty()  # file sha256 -> battle id
        # Content digest -> (battle id, index of the file in it).
        self._by_digest: _Layers[str, tuple[str, int]] = _Layers.empty()
        self._open: dict[str, None] = {}  # open battles' ids, in order
        # Engagement id -> the battles linked to it, in order.
        self._by_engagement: _Layers[str, tuple[str, ...]] = _Layers.empty()
        for battle_id, battle in (battles or {}).items():
            self._add(battle_id, _Entry(battle, None, summarize(battle)))

    def _add(self, battle_id: str, entry: _Entry) -> None:
        """Index one more battle (only while building a new book)."""
        summary = entry.summary
        self._entries.put(battle_id, entry)
        for n, (sha, digest) in enumerate(summary.files):
            if sha not in self._by_sha:
                self._by_sha.put(sha, battle_id)
            if digest not in self._by_digest:
                self._by_digest.put(digest, (battle_id, n))
        if summary.open:
            self._open[battle_id] = None
        if summary.engagement_id:
            linked = self._by_engagement.get(summary.engagement_id, ())
            self._by_engagement.put(summary.engagement_id, (*linked, battle_id))

    def _number(self, battle_id: str) -> tuple[int, str]:
        entry: _Entry = self._entries.get(battle_id)
        return (entry.summary.number, battle_id)

    # -- the mapping -------------------------------------------------------------------------
    def __getitem__(self, battle_id: str) -> Battle:
        entry: _Entry | None = self._entries.get(battle_id)
        if entry is None:
            raise KeyError(battle_id)
        return entry.value()

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, battle_id: object) -> bool:
        return battle_id in self._entries

    @overload
    def get(self, battle_id: str, /) -> Battle | None: ...
    @overload
    def get(self, battle_id: str, /, default: Battle | T) -> Battle | T: ...
    def get(self, battle_id: str, /, default: object = None) -> object:
        entry: _Entry | None = self._entries.get(battle_id)
        return default if entry is None else entry.value()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BattleBook):
            return super().__eq__(other)
        if list(self._entries) != list(other._entries):
            return False
        for battle_id, mine in self._entries.items():
            theirs: _Entry = other._entries.get(battle_id)
            if mine is theirs or (mine.text is not None and mine.text == theirs.text):
                continue
            if mine.value() != theirs.value():
                return False
        return True

    __hash__ = None  # type: ignore[assignment]  # as a dict: equal by content, not hashable

    def __repr__(self) -> str:
        return f"BattleBook({len(self)} battles: {', '.join(self)})"

    # -- changing (a new book; this one is unchanged) ----------------------------------------
    def with_battle(self, battle: Battle) -> BattleBook:
        """This book with ``battle`` added, or in place of the one of its id."""
        battle_id = battle.battle_id
        old: _Entry | None = self._entries.get(battle_id)
        before = old.summary if old is not None else None
        summary = summarize(battle, before)
        new = BattleBook.__new__(BattleBook)
        new._entries = self._entries.set(battle_id, _Entry(battle, None, summary))
        new._by_sha, new._by_digest = self._by_sha, self._by_digest
        new._open, new._by_engagement = self._open, self._by_engagement
        known = before.files if before is not None else ()
        if summary.files[: len(known)] != known:  # a file taken away: never, but then rebuild
            return BattleBook._rebuilt(new._entries)
        for n in range(len(known), len(summary.files)):
            sha, digest = summary.files[n]
            if sha not in new._by_sha:
                new._by_sha = new._by_sha.set(sha, battle_id)
            if digest not in new._by_digest:
                new._by_digest = new._by_digest.set(digest, (battle_id, n))
        if before is None or before.open != summary.open:
            opened = [b for b in self._open if b != battle_id] + [battle_id] * summary.open
            new._open = dict.fromkeys(sorted(opened, key=new._number))
        if before is None or before.engagement_id != summary.engagement_id:
            new._by_engagement = _moved(new, battle_id, before, summary)
        return new

    @staticmethod
    def _rebuilt(entries: _Layers[str, _Entry]) -> BattleBook:
        book = BattleBook()
        for battle_id, entry in entries.items():
            book._add(battle_id, entry)
        return book

    # -- the questions the rules ask ---------------------------------------------------------
    def battle_of_file(self, sha256: str) -> str | None:
        """The battle holding the file of this sha256, or None."""
        found: str | None = self._by_sha.get(sha256)
        return found

    def copy_of(self, file: BattleFile) -> tuple[str, BattleFile] | None:
        """(battle id, file) of a file already received that reports exactly what ``file``
        reports (ruling BR-13), or None."""
        found: tuple[str, int] | None = self._by_digest.get(content_digest(file))
        if found is None:
            return None
        battle_id, n = found
        known = self[battle_id].files[n]
        # Equal digests are equal texts; the values are compared all the same, as BR-13 reads.
        return (battle_id, known) if report_content(known) == report_content(file) else None

    def open_battles(self) -> list[Battle]:
        """The open battles, in the order they opened."""
        return [self[b] for b in self._open]

    def summary(self, battle_id: str) -> BattleSummary:
        entry: _Entry = self._entries.get(battle_id)
        return entry.summary

    def fought_for(self, engagement_id: str) -> tuple[str, ...]:
        """The battles linked to an engagement, in the order they opened."""
        found: tuple[str, ...] = self._by_engagement.get(engagement_id, ())
        return found

    def closed_by(self, engagement_id: str) -> str | None:
        """The (last) resolved battle linked to an engagement: it closed it. None if none."""
        resolved = [b for b in self.fought_for(engagement_id) if not self.summary(b).open]
        return resolved[-1] if resolved else None

    # -- kept apart in snapshots (codec.Parted) ----------------------------------------------
    @classmethod
    def from_jsonable(cls, data: dict[str, JsonValue]) -> Self:
        from mekref.rules.tripwire.battle_model import Battle

        battles = {k: from_jsonable(Battle, v) for k, v in data.items()}
        # In the order they opened, as folding the log gives them (the JSON sorts the ids).
        return cls(dict(sorted(battles.items(), key=lambda kv: (kv[1].number, kv[0]))))

    @classmethod
    def from_parts(cls, texts: Mapping[str, str | memoryview], index: JsonValue) -> Self | None:
        if not isinstance(index, dict) or index.get("v") != _INDEX_VERSION:
            return None
        raw = index.get("battles")
        if not isinstance(raw, dict) or raw.keys() != texts.keys():
            return None
        summaries = {k: BattleSummary.from_json(v) for k, v in raw.items()}
        book = cls()
        for battle_id in sorted(texts, key=lambda b: (summaries[b].number, b)):
            book._add(battle_id, _Entry(None, texts[battle_id], summaries[battle_id]))
        return book

    @classmethod
    def mapping_hint(cls) -> Any:
        from mekref.rules.tripwire.battle_model import Battle

        return Mapping[str, Battle]

    def part_texts(self) -> Iterator[tuple[str, str]]:
        return ((battle_id, entry.canonical()) for battle_id, entry in self._entries.items())

    def part_index(self) -> JsonValue:
        battles = {b: entry.summary.to_json() for b, entry in self._entries.items()}
        return {"v": _INDEX_VERSION, "battles": battles}


def _moved(
    book: BattleBook, battle_id: str, before: BattleSummary | None, after: BattleSummary
) -> _Layers[str, tuple[str, ...]]:
    """The engagement index with ``battle_id`` moved from its old engagement to its new one."""
    out = book._by_engagement
    if before is not None and before.engagement_id:
        rest = tuple(b for b in book.fought_for(before.engagement_id) if b != battle_id)
        out = out.set(before.engagement_id, rest)
    if after.engagement_id:
        ids = (*(b for b in out.get(after.engagement_id, ()) if b != battle_id), battle_id)
        out = out.set(after.engagement_id, tuple(sorted(ids, key=book._number)))
    return out
