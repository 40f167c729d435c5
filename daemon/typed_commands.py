"""Commands a person can type: ``TYPE key=value ...`` instead of a JSON object.

``mekref game do`` and ``game start`` take a command as words on the command line, and a
script (``game do --script``) takes a line of the same words, so no command needs hand-written
JSON. A value is read as JSON when it is JSON (``3``, ``true``, ``["a", "b"]``), as text
otherwise; a key with dots fills a nested object or list (``results.1.fleet_id=brit``: the
number only orders the list's items).

Then, whatever the form (typed or JSON), :func:`match_names` puts the command in the rule set's
spelling: its type, its field names and the values of enumerated fields are matched without
case, and a name matching none is refused with the list of valid ones.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from mekref.rules.kernel import RuleSet
from mekref.rules.schema import FieldSchema, command_schema


class TypedCommandError(ValueError):
    """A typed command that cannot be read or named: one line saying what to write."""


def not_a_command(ruleset: str) -> str:
    """The refusal's opening words: "not a tripwire command", "not an objectives command"."""
    article = "an" if ruleset[:1].lower() in "aeiou" else "a"
    return f"not {article} {ruleset} command"


def split_line(line: str, where: str) -> list[str]:
    """The words of a typed script line, quoted as a shell would (``name="Word of Blake"``)."""
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise TypedCommandError(f"{where}: cannot split the line into words ({exc})") from None


def parse_words(words: Sequence[str], where: str) -> dict[str, Any]:
    """``TYPE key=value ...`` as the command's JSON object (its type not yet matched)."""
    if not words:
        raise TypedCommandError(f"{where}: no command: write TYPE key=value ...")
    kind, *pairs = words
    if "=" in kind:
        raise TypedCommandError(
            f"{where}: {kind!r}: a typed command starts with its type, then key=value words"
        )
    data: dict[str, Any] = {"type": kind}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise TypedCommandError(f"{where}: {pair!r}: write key=value (no spaces around =)")
        _put(data, name.split("."), read_value(value), where, name)
    out: dict[str, Any] = _lists(data)
    return out


def read_value(value: str) -> Any:
    """A typed value: JSON when it reads as JSON, the text itself otherwise."""
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


def _put(data: dict[str, Any], path: list[str], value: Any, where: str, key: str) -> None:
    head, *rest = path
    if not head:
        raise TypedCommandError(f"{where}: {key!r}: an empty name between dots")
    if not rest:
        if head in data:
            raise TypedCommandError(f"{where}: {key!r} is given twice")
        data[head] = value
        return
    inner = data.setdefault(head, {})
    if not isinstance(inner, dict):
        raise TypedCommandError(f"{where}: {key!r}: {head!r} already has a value of its own")
    _put(inner, rest, value, where, key)


def _lists(value: Any) -> Any:
    """Objects whose keys are all numbers become lists, in the numbers' order."""
    if not isinstance(value, dict):
        return value
    items = {k: _lists(v) for k, v in value.items()}
    if items and all(k.isdigit() for k in items):
        return [items[k] for k in sorted(items, key=int)]
    return items


# -- names matched without case -----------------------------------------------------------
def campaign_names(game: RuleSet[Any], state: Any) -> Mapping[str, tuple[str, ...]]:
    """The names a campaign gives its fields (Houses, Regions, fleets...), by field name."""
    return game.field_names(state) if game.field_names is not None else {}


def start_names(game: RuleSet[Any], data: Mapping[str, Any]) -> Mapping[str, tuple[str, ...]]:
    """The names a start command's fields take (its Houses, its board's Regions, the
    referee), from the rule set's wing; match them with ``strict=False``: a name matching none
    is left for the rules to refuse."""
    from mekref.daemon.wings import wing_for  # the wings load their rule sets' helpers

    names = campaign_names(game, game.initial_state())
    wing = wing_for(game.name)
    if wing is not None and wing.start_names is not None:
        return {**names, **wing.start_names(dict(data))}
    return names


def match_names(
    game: RuleSet[Any],
    data: dict[str, Any],
    where: str,
    names: Mapping[str, tuple[str, ...]] | None = None,
    *,
    strict: bool = True,
) -> dict[str, Any]:
    """``data`` in the rule set's spelling. ``names``: the allowed values of fields the campaign
    decides (its Houses, Regions, fleets...), by field name, from the rule set's hook. Not
    ``strict``: a campaign name matching none is left as written (a script's later line may
    name what an earlier one creates); the schema's own values are always checked."""
    kind = data.get("type")
    if not isinstance(kind, str):
        return data  # the codec says what is missing
    types = {t.lower(): t for t in game.commands.names()}
    canonical = types.get(kind.lower())
    if canonical is None:
        raise TypedCommandError(
            f"{where}: {game.title} has no command {kind!r}; one of: "
            f"{', '.join(sorted(types.values()))} "
            f"(see 'mekref game commands --ruleset {game.name}')"
        )
    cls = game.commands.class_of(canonical)
    schema = command_schema(cls)
    # Every field of the dataclass may be given, those the schema leaves out (rolls) too.
    extra = tuple(f.name for f in dataclasses.fields(cls))
    rest = {k: v for k, v in data.items() if k != "type"}
    names = names or {}
    match = _Matcher(dict(schema.objects), names, where, canonical, strict)
    return {"type": canonical, **match.fields(rest, schema.fields, extra, "")}


@dataclasses.dataclass(frozen=True)
class _Matcher:
    """Matches an object's field names and values, and those of the objects it holds (a
    Placement's region, a retreat's path), by the schema of each."""

    objects: Mapping[str, tuple[FieldSchema, ...]]
    names: Mapping[str, tuple[str, ...]]
    where: str
    kind: str
    strict: bool

    def fields(
        self, data: Mapping[str, Any], fields: tuple[FieldSchema, ...], extra: tuple[str, ...],
        prefix: str,
    ) -> dict[str, Any]:  # fmt: skip
        by_name = {f.name: f for f in fields}
        lowered = {n.lower(): n for n in (*by_name, *extra)}
        out: dict[str, Any] = {}
        for key, value in data.items():
            name = lowered.get(key.lower())
            if name is None:
                owner = f"{self.kind} {prefix.rstrip('.')}" if prefix else self.kind
                raise TypedCommandError(
                    f"{self.where}: {owner} has no field {key!r}; its fields: {', '.join(by_name)}"
                )
            if name in out:
                raise TypedCommandError(
                    f"{self.where}: {self.kind} {prefix}{name} is given under two spellings; "
                    "write one"
                )
            f = by_name.get(name)
            out[name] = value if f is None else self.value(f, value, prefix + name, not prefix)
        return out

    def value(self, f: FieldSchema, value: Any, dotted: str, top: bool) -> Any:
        inner = _object_of(f.type, self.objects)
        if inner is not None:
            return self.nested(value, inner, dotted)
        if not (allowed := allowed_values(f, self.names)):
            return value
        # A nested object may name what it creates (a requisitioned squadron, a new squad):
        # its campaign names are matched without case, never refused here.
        check = (self.strict and top) or bool(f.allowed)
        return _match_value(value, allowed, self.where, self.kind, dotted, check)

    def nested(self, value: Any, fields: tuple[FieldSchema, ...], dotted: str) -> Any:
        if isinstance(value, list):
            return [self.nested(v, fields, f"{dotted}.{n}") for n, v in enumerate(value, 1)]
        if isinstance(value, dict):
            return self.fields(value, fields, (), dotted + ".")
        return value  # the codec says what is wrong with it


def _object_of(
    type_text: str, objects: Mapping[str, tuple[FieldSchema, ...]]
) -> tuple[FieldSchema, ...] | None:
    """The fields of the object a field holds ("Placement", "list of RetreatMove")."""
    name = type_text.removeprefix("list of ").removesuffix(" or null")
    return objects.get(name)


#: A fixed-length tuple of names ("[str, str]": the two fleets of a battle).
_STR_TUPLE = re.compile(r"(list of )?\[str(, str)*\]")


def allowed_values(f: FieldSchema, names: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The values a str (or list of str) field takes: its schema's, else the campaign's."""
    if f.allowed:
        return f.allowed
    if f.type in ("str", "list of str", "str or null") or _STR_TUPLE.fullmatch(f.type):
        return names.get(f.name, ())
    return ()


def _match_value(
    value: Any, allowed: tuple[str, ...], where: str, kind: str, name: str, check: bool
) -> Any:
    if isinstance(value, list):
        return [_match_value(v, allowed, where, kind, name, check) for v in value]
    # Not a name: a number, null, or the empty text a field takes for "none".
    if not isinstance(value, str) or value == "" or value in allowed:
        return value
    matches = [a for a in allowed if a.lower() == value.lower()]
    if len(matches) == 1:
        return matches[0]
    if not check:
        return value
    shown = ", ".join(json.dumps(a, ensure_ascii=False) for a in allowed)
    raise TypedCommandError(f"{where}: {kind} {name}={value!r} is none of: {shown}")
