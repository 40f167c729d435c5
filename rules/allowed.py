"""The values a command's text fields take (their ``metadata["allowed"]``), held for every
command the kernel decides: typed words, JSON and the API's typed messages alike.

A value is put in the rule set's spelling first, matched without case as the typed words are
(``daemon.typed_commands``): "Low" is the "low" table whichever way it came. A value that is
none of them leaves the rule set's own refusal first (it quotes its rule's line); a command the
rules would take, or could not read, with such a value is refused (``not_allowed``), naming
the field and its values: never rolled on another table, never a crash."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, TypeVar, get_args, get_type_hints

from mekref.rules.refusal import Refusal

T = TypeVar("T")


@cache
def _checked_fields(cls: type) -> tuple[tuple[str, tuple[str, ...], object], ...]:
    """(name, allowed values, default or MISSING) of each field that lists its values."""
    out = []
    for f in dataclasses.fields(cls):
        allowed = f.metadata.get("allowed")
        if allowed:
            out.append((f.name, tuple(str(a) for a in allowed), f.default))
    return tuple(out)


@cache
def _nested_fields(cls: type) -> tuple[str, ...]:
    """The fields whose type hints name a dataclass that has (or holds one that has) fields
    with listed values: the only ones worth opening (a battle's record holds thousands)."""
    hints = get_type_hints(cls)
    return tuple(
        f.name
        for f in dataclasses.fields(cls)
        if any(_has_listed(leaf, frozenset()) for leaf in _leaves(hints.get(f.name)))
    )


def _leaves(hint: Any) -> list[Any]:
    args = get_args(hint)
    if not args:
        return [hint]
    return [leaf for a in args if a is not Ellipsis for leaf in _leaves(a)]


def _has_listed(hint: Any, seen: frozenset[type]) -> bool:
    if not (isinstance(hint, type) and dataclasses.is_dataclass(hint)) or hint in seen:
        return False
    if _checked_fields(hint):
        return True
    hints = get_type_hints(hint)
    inner = seen | {hint}
    return any(
        _has_listed(leaf, inner)
        for f in dataclasses.fields(hint)
        for leaf in _leaves(hints[f.name])
    )


def spelled(item: str, allowed: Iterable[str]) -> str | None:
    """``item`` as ``allowed`` spells it (matched without case), or None when none or several
    match: how typed words, ``--side`` and token sides read a name."""
    allowed = tuple(allowed)
    if item in allowed:
        return item
    matches = [a for a in allowed if a.casefold() == item.casefold()]
    return matches[0] if len(matches) == 1 else None


def canonical(value: T, where: str, wrong: list[str]) -> T:
    """``value`` with each allowed-values field in its field's spelling (nested objects too);
    what matches none is kept as given and described in ``wrong``. A field left at its
    default is never wrong (the rule set chose it)."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    changes: dict[str, Any] = {}
    for name, allowed, default in _checked_fields(type(value)):
        given = getattr(value, name)
        items = given if isinstance(given, tuple) else (given,)
        out = []
        for item in items:
            if not isinstance(item, str) or item == default:
                out.append(item)
                continue
            spelled_as = spelled(item, allowed)
            if spelled_as is None:
                shown = ", ".join(repr(a) for a in allowed)
                wrong.append(f"{where} {name}={item!r} is none of: {shown}")
            out.append(item if spelled_as is None else spelled_as)
        fixed = tuple(out) if isinstance(given, tuple) else out[0]
        if fixed != given:
            changes[name] = fixed
    for name in _nested_fields(type(value)):
        given = getattr(value, name)
        if isinstance(given, Mapping):
            fixed_map = {k: canonical(v, f"{where} {name}[{k}]", wrong) for k, v in given.items()}
            if any(fixed_map[k] is not v for k, v in given.items()):
                changes[name] = fixed_map
        elif isinstance(given, tuple):
            fixed_items = tuple(canonical(i, f"{where} {name}", wrong) for i in given)
            if any(a is not b for a, b in zip(fixed_items, given, strict=True)):
                changes[name] = fixed_items
        else:
            fixed_one = canonical(given, f"{where} {name}", wrong)
            if fixed_one is not given:
                changes[name] = fixed_one
    return dataclasses.replace(value, **changes) if changes else value


def decide_allowed(decide: Callable[[T], list[Any]], command: T) -> list[Any]:
    """``decide`` on ``command`` in its fields' spelling, refusing a value none of them."""
    wrong: list[str] = []
    name = str(getattr(type(command), "TYPE", "") or type(command).__name__)
    command = canonical(command, name, wrong)
    if not wrong:
        return decide(command)
    try:
        decide(command)
    except Refusal:
        raise  # the rule set's own word on it, with its line
    except (ValueError, KeyError, LookupError):
        pass  # a value the rules could not read: refused below
    raise Refusal("not_allowed", "; ".join(wrong))
