"""Canonical JSON put together from the texts of its parts, when those parts were encoded before.

A battle file arriving is encoded whole three times over its life in a campaign: its report's
content digest (ruling BR-13), the event that records it, and the battle that holds it (in a
snapshot or the state hash); its resolution twice (its event, the battle). Those are the same
immutable values, so their texts are the same: a value of a class registered here
(:func:`keep_texts`) keeps its canonical JSON on the instance the first time it is made, and a
text that holds it (the event, the battle) is written around it instead of encoding it again.

The text is exactly :func:`~mekref.rules.codec.canonical_json`'s: an object is its keys in
sorted order, each key as ``json.dumps`` writes it, ``:`` and its value's text, joined by
``,`` between braces (what ``json.dumps(sort_keys=True, separators=(",", ":"))`` writes for
the dict ``to_jsonable`` makes of it, ``OMIT_IF_DEFAULT`` fields left out alike); a list is its
items' texts joined by ``,`` between brackets. Rules values are never changed once made (frozen
dataclasses of tuples), so a text kept on one stays its text; a copy made with ``replace`` is a
new instance and keeps nothing. The text lives as long as the value: an open battle's files
hold theirs beside their value until the battle is resolved and its own text made (then the
battle book keeps the text instead of the value, ``battle_book``).
"""

from __future__ import annotations

import json
from typing import Any, cast

from mekref.rules.codec import canonical_json, object_items

#: The classes whose instances keep their text (their own ``__dict__``, never a field).
_KEPT: set[type] = set()
#: Where an instance keeps its whole text, and the texts of its fields (name -> (the field's
#: value, its text)) while a text of something made from it may still reuse them.
_TEXT = "_canonical_text"
_FIELDS = "_canonical_fields"


def keep_texts(*classes: type) -> None:
    """Have instances of ``classes`` (dataclasses without slots) keep their canonical JSON."""
    for cls in classes:
        if "__slots__" in vars(cls):
            raise TypeError(f"{cls.__name__} has slots: it cannot keep its text")
        _KEPT.add(cls)


def _key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _joined(texts: dict[str, str]) -> str:
    return "{" + ",".join(_key(k) + ":" + texts[k] for k in sorted(texts)) + "}"


def text_of(value: object) -> str:
    """:func:`canonical_json` of ``value``, made from the texts its kept parts hold."""
    tp = type(value)
    if tp in _KEPT:
        state: dict[str, Any] = vars(value)
        text: str | None = state.get(_TEXT)
        if text is None:
            fields = state.pop(_FIELDS, None)
            if fields is None:
                text = _joined({k: text_of(v) for k, v in object_items(value) or ()})
            else:
                text = _joined({k: t for k, (_, t) in fields.items()})
            state[_TEXT] = text
        return text
    if tp is tuple and _starts_kept(value):
        return "[" + ",".join(text_of(v) for v in cast(tuple[object, ...], value)) + "]"
    return canonical_json(value)


def _starts_kept(items: object) -> bool:
    """Whether a tuple's first item keeps its text (a battle's files are all files)."""
    first = cast(tuple[object, ...], items)[:1]
    return bool(first) and type(first[0]) in _KEPT


def object_text(value: object, extra: dict[str, str] | None = None) -> str:
    """:func:`canonical_json` of a dataclass ``value`` (the dict ``{**extra, **fields}``,
    ``extra`` given as texts), its fields' texts made by :func:`text_of`."""
    items = object_items(value)
    if items is None:
        raise TypeError(f"{type(value).__name__} is not encoded as a JSON object")
    texts = dict(extra or {})
    for key, item in items:
        texts[key] = text_of(item)
    return _joined(texts)


def holds_kept(value: object) -> bool:
    """Whether one of a dataclass ``value``'s fields is (or is a tuple starting with) a value
    that keeps its text: then :func:`object_text` writes around it.

    Read from the instance's attributes, not :func:`object_items`, which also compares each
    ``OMIT_IF_DEFAULT`` field with its default: every event stored pays this check, and for
    an order it cost as much as encoding the event. A field left out for holding its default
    is looked at too; either answer gives the same text, only the way it is made differs."""
    state = getattr(value, "__dict__", None)
    items = state.values() if state is not None else (v for _, v in object_items(value) or ())
    for item in items:
        tp = type(item)
        if tp in _KEPT or (tp is tuple and _starts_kept(item)):
            return True
    return False


def _field_texts(value: object) -> dict[str, tuple[object, str]]:
    state: dict[str, Any] = vars(value)
    fields: dict[str, tuple[object, str]] | None = state.get(_FIELDS)
    if fields is None:
        fields = {k: (v, text_of(v)) for k, v in object_items(value) or ()}
        if state.get(_TEXT) is None:  # kept until the whole text is made from them
            state[_FIELDS] = fields
    return fields


def text_like(value: object, model: object) -> str:
    """:func:`canonical_json` of a dataclass ``value`` made from ``model`` (a kept instance)
    by changing some of its fields: the fields it shares with ``model`` (the same objects)
    take their texts from ``model``'s, made once and kept there."""
    known = _field_texts(model)
    texts: dict[str, str] = {}
    for key, item in object_items(value) or ():
        found = known.get(key)
        texts[key] = found[1] if found is not None and found[0] is item else text_of(item)
    return _joined(texts)


def carry_texts(old: object, new: object) -> None:
    """Give ``new`` (``old`` with some fields changed, both kept instances) the texts of the
    fields it shares with ``old``, if ``old`` made them."""
    known: dict[str, tuple[object, str]] | None = vars(old).get(_FIELDS)
    if known is None or type(new) not in _KEPT:
        return
    fields: dict[str, tuple[object, str]] = {}
    for key, item in object_items(new) or ():
        found = known.get(key)
        fields[key] = found if found is not None and found[0] is item else (item, text_of(item))
    vars(new)[_FIELDS] = fields
