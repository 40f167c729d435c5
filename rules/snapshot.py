"""A state's snapshot text: its canonical JSON, with its big mappings kept apart.

A snapshot (written by the daemon's runner, ``daemon/campaigns.py``) is a cache of a fold: the
state after event N, so that opening a campaign folds only the events after it. As the state's
canonical JSON, it had to be decoded whole: opening a long campaign decoded every battle it ever
fought. Here a :class:`~mekref.rules.codec.Parted` mapping (a TripWire campaign's battles) is
kept apart, one value per line, with its index (what it needs to answer questions without
decoding its values)::

    #mekref-state 2
    {"parts":[{"path":["battles","battles"],"keys":[...],"index":...}]}
    <the state's canonical JSON, with each parted mapping written as {}>
    <the canonical JSON of each value of each parted mapping, one per line, in "keys" order>

Canonical JSON holds no line break (one inside a text is written ``\\n``), so lines frame it.
The state hash is unchanged: it is the hash of the canonical JSON the pieces make up. A state
with no parted mapping is written as its canonical JSON alone, and a text without the first
line is read that way (every snapshot written before this format).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any, TypeVar

from mekref.rules.codec import CodecError, Parted, canonical_json, decode

T = TypeVar("T")

HEADER = "#mekref-state 2"
_HEADER_UTF8 = (HEADER + "\n").encode()
#: How deep in the state's dataclasses a parted mapping is looked for.
_DEPTH = 3


def _parts(value: object, path: tuple[str, ...] = (), depth: int = _DEPTH) -> Iterator[Any]:
    """(path of field names, parted mapping) of every parted mapping in ``value``'s fields."""
    if depth == 0 or not dataclasses.is_dataclass(value) or isinstance(value, type):
        return
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        if isinstance(item, Parted):
            yield (*path, f.name), item
        else:
            yield from _parts(item, (*path, f.name), depth - 1)


def _replace_at(value: Any, path: tuple[str, ...], new: object) -> Any:
    head, *rest = path
    inner = new if not rest else _replace_at(getattr(value, head), tuple(rest), new)
    return dataclasses.replace(value, **{head: inner})


def _get_at(value: Any, path: list[str]) -> Any:
    for name in path:
        value = getattr(value, name)
    return value


def state_text(state: object) -> str:
    """The snapshot text of ``state`` (see the module's docstring)."""
    found = list(_parts(state))
    if not found:
        return canonical_json(state)
    skeleton = state
    header: list[dict[str, Any]] = []
    lines: list[str] = []
    for path, parted in found:
        pairs = list(parted.part_texts())
        header.append(
            {"path": list(path), "keys": [k for k, _ in pairs], "index": parted.part_index()}
        )
        lines += [text for _, text in pairs]
        skeleton = _replace_at(skeleton, path, type(parted)())
    head = json.dumps({"parts": header}, separators=(",", ":"), ensure_ascii=False)
    return "\n".join([HEADER, head, canonical_json(skeleton), *lines])


def _utf8_lines(data: bytes) -> list[memoryview]:
    """The lines of ``data`` as views into it: no line is copied (a long campaign's snapshot
    is tens of MB, and most of its battles are never read)."""
    whole = memoryview(data)
    lines: list[memoryview] = []
    start = 0
    while (end := data.find(b"\n", start)) >= 0:
        lines.append(whole[start:end])
        start = end + 1
    lines.append(whole[start:])
    return lines


def _text(line: str | memoryview) -> str:
    return line if isinstance(line, str) else str(line, "utf-8")


def state_from_text(cls: type[T], text: str | bytes) -> T:
    """The state a snapshot text was written from; its parted mappings' values stay text
    until read. ``text`` may be the text's UTF-8 bytes, as a store keeps them: then only the
    lines read are decoded (a parted mapping keeps its values' lines as views into them)."""
    if isinstance(text, bytes):
        if not text.startswith(_HEADER_UTF8):
            return decode(cls, json.loads(text))
        lines: list[Any] = _utf8_lines(text)
    elif not text.startswith(HEADER + "\n"):
        return decode(cls, json.loads(text))
    else:
        lines = text.split("\n")
    try:
        header = json.loads(_text(lines[1]))
        state: Any = decode(cls, json.loads(_text(lines[2])))
        at = 3
        for part in header["parts"]:
            keys, path = part["keys"], part["path"]
            texts = dict(zip(keys, lines[at : at + len(keys)], strict=True))
            at += len(keys)
            kind = type(_get_at(state, path))
            if not issubclass(kind, Parted):
                raise CodecError(f"the snapshot keeps {'.'.join(path)} apart; it is no mapping")
            built = kind.from_parts(texts, part["index"])
            if built is None:  # an index this code cannot use: decode the values
                built = kind.from_jsonable({k: json.loads(_text(t)) for k, t in texts.items()})
            state = _replace_at(state, tuple(path), built)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        if isinstance(exc, CodecError):
            raise
        raise CodecError(f"a damaged snapshot: {exc}") from exc
    if not isinstance(state, cls):
        raise CodecError(f"decoded {type(state).__name__}, expected {cls.__name__}")
    return state
