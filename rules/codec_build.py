"""The code :mod:`mekref.rules.codec` runs for each dataclass, written once per class.

Encoding or decoding a long campaign walks hundreds of thousands of dataclass values. A loop
over a class's fields (an attribute read by name, a decoder looked up per field, a check per
field for ``OMIT_IF_DEFAULT``) costs more than the values themselves; so, once per class, the
function a person would write by hand for it is generated and compiled: one attribute read and
one expression per field, with the common field types (text, numbers, nested dataclasses,
tuples and string-keyed dicts of them) handled inline.

Every inline path is guarded by an exact type test and falls back to the generic codec
(``to_jsonable``, or the decoder the type hint gives), so what a field holds, not what its hint
says, decides the output: the same bytes, values and errors as the generic codec.
"""

from __future__ import annotations

import dataclasses
import keyword
import threading
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from fractions import Fraction
from typing import Any, Union, get_args, get_origin

from mekref.rules import codec

_MISSING = object()


class _Source:
    """The text of one generated function and the names its expressions refer to."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {
            "PLAIN": codec._PLAIN,
            "ANY": codec.to_jsonable,
            "MISSING": _MISSING,
            "CodecError": codec.CodecError,
            "KEY": _text_key,
            "Fraction": Fraction,
        }
        self.depth = 0  # nesting of comprehensions, for their variable names

    def nested(self, expr_of: Callable[[Any, str, _Source], str], hint: Any, item: str) -> str:
        """``expr_of`` for one item of a container: comprehensions inside it name their
        variables one level deeper than the container's."""
        self.depth += 1
        each = expr_of(hint, item, self)
        self.depth -= 1
        return each

    def name(self, prefix: str, value: Any) -> str:
        key = f"{prefix}{len(self.names)}"
        self.names[key] = value
        return key


def _text_key(key: Any) -> str:
    """A mapping's key as the generic encoder takes it: text (a StrEnum too), or refused."""
    if not isinstance(key, str):
        raise codec.CodecError(f"mapping keys must be str, got {type(key).__name__}")
    return key


def _optional_of(hint: Any) -> Any:
    """``X`` for ``X | None`` (or ``Optional[X]``), else None."""
    if get_origin(hint) not in (Union, types.UnionType):
        return None
    others = [a for a in get_args(hint) if a is not type(None)]
    return others[0] if len(others) == 1 and len(get_args(hint)) == 2 else None


def _is_dataclass(hint: Any) -> bool:
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


# --- encoders ---------------------------------------------------------------------------------


def _encode_expr(hint: Any, var: str, src: _Source) -> str:
    """An expression giving ``to_jsonable(var)`` for a value whose hint is ``hint``."""
    generic = f"({var} if type({var}) in PLAIN else ANY({var}))"
    inner = _optional_of(hint)
    if inner is not None:
        if _is_dataclass(inner) or get_origin(inner) in (tuple, dict, Mapping):
            return f"(None if {var} is None else {_encode_expr(inner, var, src)})"
        return generic
    origin = get_origin(hint)
    if _is_dataclass(hint):
        enc = src.name("E", encoder_of(hint))
        cls = src.name("C", hint)
        return f"({enc}({var}) if type({var}) is {cls} else ANY({var}))"
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = f"i{src.depth}"
            each = src.nested(_encode_expr, args[0], item)
            return f"([{each} for {item} in {var}] if type({var}) is tuple else ANY({var}))"
        return generic
    if origin in (dict, Mapping):
        key_hint, value_hint = get_args(hint)
        if key_hint is not str:
            return generic
        item, key = f"v{src.depth}", f"k{src.depth}"
        each = src.nested(_encode_expr, value_hint, item)
        keyed = f"({key} if type({key}) is str else KEY({key}))"
        return (
            f"({{{keyed}: {each} for {key}, {item} in {var}.items()}} "
            f"if type({var}) is dict else ANY({var}))"
        )
    if hint is Fraction:
        text = f"f'{{{var}.numerator}}/{{{var}.denominator}}'"
        return f"({text} if type({var}) is Fraction else ANY({var}))"
    return generic


def _attribute(name: str) -> str:
    # A field name is an identifier; one that is not (made with make_dataclass) is read by name.
    if name.isidentifier() and not keyword.iskeyword(name):
        return f".{name}"
    return f".__getattribute__({name!r})"


def _compile(text: str, names: dict[str, Any], func: str, qualname: str) -> Any:
    code = compile(text, f"<codec {qualname}>", "exec")
    exec(code, names)  # the text is built here from field names and type hints only
    return names[func]


def _build_encoder(tp: type) -> Callable[[Any], Any]:
    src = _Source()
    hints = _hints(tp)
    lines = ["def encode(value):", "    out = {}"]
    for n, f in enumerate(dataclasses.fields(tp)):
        var = f"f{n}"
        expr = _encode_expr(hints.get(f.name, Any), var, src)
        lines.append(f"    {var} = value{_attribute(f.name)}")
        if f.metadata.get("omit_if_default"):
            default = src.name("D", codec._default_of(f)())
            # Left out while it holds its default (OMIT_IF_DEFAULT); the default is made once:
            # defaults are never changed in place, so comparing with one copy is the same.
            lines.append(f"    if not bool({var} == {default}):")
            lines.append(f"        out[{f.name!r}] = {expr}")
        else:
            lines.append(f"    out[{f.name!r}] = {expr}")
    lines.append("    return out")
    return typing.cast(
        Callable[[Any], Any], _compile("\n".join(lines), src.names, "encode", tp.__qualname__)
    )


# Building a class's encoder (or decoder) builds those of the dataclasses its fields hold; a
# class that holds itself (or one that holds it back) is reached again while it is being built:
# it is then called through its table, filled once its build is done (``_built_once``).
_ENCODERS: dict[type, Callable[[Any], Any]] = {}
_BUILDING: set[type] = set()
_LOCK = threading.RLock()


def _built_once(
    table: dict[type, Callable[[Any], Any]],
    tp: type,
    build: Callable[[type], Callable[[Any], Any]],
) -> Callable[[Any], Any]:
    """``table``'s function for ``tp``, built under the lock the first time; reached again
    while it is being built, a call that looks it up in ``table`` when it runs."""
    with _LOCK:
        if tp in table:
            return table[tp]
        if tp in _BUILDING:
            return lambda value: table[tp](value)
        _BUILDING.add(tp)
        try:
            built = build(tp)
        finally:
            _BUILDING.discard(tp)
        table[tp] = built
        return built


def encoder_of(tp: type) -> Callable[[Any], Any]:
    """The compiled encoder of dataclass ``tp``."""
    found = _ENCODERS.get(tp)
    return found if found is not None else _built_once(_ENCODERS, tp, _build_encoder)


# --- decoders ---------------------------------------------------------------------------------


def _decode_expr(hint: Any, var: str, src: _Source) -> str:
    """An expression giving ``from_jsonable(hint, var)``: the same value, or the same error."""
    if hint is Any:
        return var
    if _is_dataclass(hint):
        return f"{src.name('F', decoder_of(hint))}({var})"
    slow = src.name("G", codec._decoder(hint))
    if hint in (str, int, bool):
        return f"({var} if type({var}) is {hint.__name__} else {slow}({var}))"
    inner = _optional_of(hint)
    if inner is not None:
        if inner in (str, int, bool):
            return f"({var} if {var} is None or type({var}) is {inner.__name__} else {slow}({var}))"
        if _is_dataclass(inner):
            # Any failure goes through the union's decoder, which words the error.
            fast = src.name("T", _or_else(decoder_of(inner), codec._decoder(hint)))
            return f"(None if {var} is None else {fast}({var}))"
        return f"{slow}({var})"
    origin = get_origin(hint)
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = f"i{src.depth}"
            each = src.nested(_decode_expr, args[0], item)
            listed = f"tuple([{each} for {item} in {var}])"
            return f"({listed} if type({var}) is list else {slow}({var}))"
        return f"{slow}({var})"
    if origin in (dict, Mapping) and get_args(hint)[0] is str:
        item, key = f"v{src.depth}", f"k{src.depth}"
        each = src.nested(_decode_expr, get_args(hint)[1], item)
        text_key = src.name("S", codec._decoder(str))
        keyed = f"({key} if type({key}) is str else {text_key}({key}))"
        return (
            f"({{{keyed}: {each} for {key}, {item} in {var}.items()}} "
            f"if type({var}) is dict else {slow}({var}))"
        )
    if isinstance(hint, type) and issubclass(hint, Enum):
        members = hint._value2member_map_
        if all(type(value) is str for value in members):
            table = src.name("M", members)
            return f"({table}[{var}] if type({var}) is str and {var} in {table} else {slow}({var}))"
    return f"{slow}({var})"


def _or_else(fast: Callable[[Any], Any], slow: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def decode(data: Any) -> Any:
        try:
            return fast(data)
        except (codec.CodecError, TypeError, ValueError):
            return slow(data)  # words the error as the generic decoder does (or raises it)

    return decode


def _build_decoder(cls: type) -> Callable[[Any], Any]:
    src = _Source()
    fields = codec._fields_of(cls)
    required = tuple(
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    # A command is named as its users type it (DWStake), not by its Python class.
    name = getattr(cls, "TYPE", "") or cls.__name__
    src.names.update(KNOWN=frozenset((*fields, "type")), CLS=cls, NAME=name, REQUIRED=required)
    lines = [
        "def decode(data):",
        "    if type(data) is not dict and not isinstance(data, dict):",
        '        raise CodecError(f"expected an object for {NAME}, got {repr(data)[:60]}")',
        "    if not KNOWN.issuperset(data):",
        '        raise CodecError(f"unknown fields for {NAME}: {sorted(set(data) - KNOWN)}")',
        "    kw = {}",
    ]
    for name, hint in fields.items():
        lines.append(f"    v = data.get({name!r}, MISSING)")
        lines.append("    if v is not MISSING:")
        lines.append(f"        kw[{name!r}] = {_decode_expr(hint, 'v', src)}")
    lines += [
        "    try:",
        "        return CLS(**kw)",
        "    except (TypeError, ValueError) as exc:",
        "        gone = [n for n in REQUIRED if n not in kw]",
        "        if gone:",
        "            raise CodecError(f\"{NAME} needs {', '.join(gone)}\") from exc",
        '        raise CodecError(f"cannot build {NAME}: {exc}") from exc',
    ]
    return typing.cast(
        Callable[[Any], Any], _compile("\n".join(lines), src.names, "decode", cls.__qualname__)
    )


_DECODERS: dict[type, Callable[[Any], Any]] = {}


def decoder_of(cls: type) -> Callable[[Any], Any]:
    """The compiled decoder of dataclass ``cls``; built on first use, when every class its
    hints name is defined."""
    found = _DECODERS.get(cls)
    return found if found is not None else _built_once(_DECODERS, cls, _build_decoder)


def _hints(tp: type) -> dict[str, Any]:
    """Field name -> type hint, or nothing when a hint cannot be resolved (every field is then
    encoded by the generic path, which needs no hint)."""
    try:
        return codec._fields_of(tp)
    except (NameError, TypeError, AttributeError):
        return {}
