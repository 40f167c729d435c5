"""An entity's locations in a MUL file: armour, internal structure and the critical slots of each
location (``<location>``, ``<armor>``, ``<slot>``), read by :mod:`.mul_reader`."""

from __future__ import annotations

from lxml import etree

from mekref.adapters.megamek.mul_fields import (
    _bool_or_none,
    _Context,
    _flag,
    _int,
    _int_or_none,
    _items,
    _raw,
    _required,
    _true,
)
from mekref.adapters.megamek.mul_model import (
    ARMOR_DESTROYED,
    ARMOR_NA,
    Location,
    Slot,
    build,
)
from mekref.adapters.megamek.mul_vocabulary import (
    ARMOR_FIELDS,
    BLOWN_OFF_SUFFIX,
    SLOT_ATTRIBUTES,
)


def _armor_points(ctx: _Context, el: etree._Element) -> int:
    raw = (el.get("points") or "").strip()
    if raw == "Destroyed":
        return ARMOR_DESTROYED
    if raw == "N/A":
        return ARMOR_NA
    return _int(ctx, el, "points", raw)


def _location_name(el: etree._Element) -> str:
    # A location with children carries its name as .text; a self-closing destroyed one as .tail.
    # Files reflowed by an editor wrap names across lines ("Center\n\t\tTorso"): collapse runs
    # of whitespace rather than keeping only the first line.
    text = el.text
    if (not text or text.isspace()) and len(el) == 0:
        text = el.tail
    return " ".join(text.split()) if text else ""


def _read_location(ctx: _Context, el: etree._Element) -> Location:
    name = _location_name(el)
    # The suffix follows the name after a space; with an empty name only its words remain.
    blown_off = f" {name}".endswith(BLOWN_OFF_SUFFIX)
    if blown_off:
        name = f" {name}"[: -len(BLOWN_OFF_SUFFIX)].strip()
    values: dict[str, object] = {}
    slots: list[Slot] = []
    unknown: list[str] = []
    read_slot = _read_slot
    for child in el.iterchildren(etree.Element):  # as _elements(), without the extra call
        tag = child.tag
        if tag == "slot":
            slots.append(read_slot(ctx, child))
        elif tag == "armor":
            kind = child.get("type", "Front")
            key = ARMOR_FIELDS.get(kind)
            if key is None:
                raise ctx.error(
                    child,
                    f"armor type={kind!r} is not Front, Internal or Rear",
                    "the file was edited by hand or damaged; export it again from MegaMek",
                )
            values[key] = _armor_points(ctx, child)
        elif tag == "blownOff":
            blown_off = True
        elif tag == "breached":
            values["breached"] = True
        elif tag == "stabilizer":
            values["stabilizer_hit"] = _flag(child, "isHit")
        else:
            ctx.note(child, f"unknown element <{tag}> in location kept as-is")
            unknown.append(_raw(child))
    raw_index = el.get("index")
    if raw_index is None:
        raw_index = _required(ctx, el, "index")
    return build(
        Location,
        index=_int(ctx, el, "index", raw_index),
        name=name,
        destroyed=_true(el.get("isDestroyed")),
        blown_off=blown_off,
        slots=tuple(slots),
        unknown=tuple(unknown),
        **values,
    )


#: A plain slot's state: every field at its default; ``_plain_slot`` fills index, type and shots.
_PLAIN_SLOT_STATE = build(Slot, index=None, type="", shots=None).__dict__


def _plain_slot(index: int | None, type_: str, shots: int | None) -> Slot:
    """``build(Slot, index=..., type=..., shots=...)`` without the per-call keyword packing and
    name checks: the names are fixed and ``build`` checked them once for the template above.
    Most slots take this path, and these per-call costs were most of a slot's construction."""
    slot: Slot = object.__new__(Slot)
    state = slot.__dict__
    state.update(_PLAIN_SLOT_STATE)
    state["index"] = index
    state["type"] = type_
    state["shots"] = shots
    return slot


def _read_slot(ctx: _Context, el: etree._Element) -> Slot:
    # Most slots carry only index, type and shots: three get() calls and a count of the
    # attributes cost half of copying them all into a dict, which only the others need.
    raw_index = el.get("index")
    if raw_index is None:
        raw_index = _required(ctx, el, "index")
    raw_type = el.get("type")
    if raw_type is None:
        raw_type = _required(ctx, el, "type")
    raw_shots = el.get("shots")
    raw_index = raw_index.strip()
    # ProtoMeks, gun emplacements and pre-0.4x tanks write equipment outside the crit table.
    index = None if raw_index == "N/A" else _int_or_none(ctx, el, "index", raw_index)
    shots = _int_or_none(ctx, el, "shots", raw_shots)
    if len(el.attrib) == (2 if raw_shots is None else 3):  # no attribute but these
        # Plain slots repeat from unit to unit of a design; one shared (frozen) object per
        # distinct slot keeps a large file's model small and saves building it again.
        key = (index, raw_type, shots)
        plain = ctx.plain_slots.get(key)
        if plain is None:
            plain = ctx.plain_slots[key] = _plain_slot(index, raw_type, shots)
        return plain
    a = dict(_items(el))
    get = a.get
    return build(
        Slot,
        index=index,
        type=raw_type,
        shots=shots,
        is_hit=_true(get("isHit")),
        is_destroyed=_bool_or_none(get("isDestroyed")),
        is_missing=_true(get("isMissing")),
        is_rear=_true(get("isRear")),
        is_turreted=_true(get("isTurreted")),
        armor_hit=_true(get("armorHit")),
        is_repairable=_bool_or_none(get("isRepairable")),
        munition=get("munition"),
        capacity=get("capacity"),
        quirks=get("quirks"),
        extra=()
        if a.keys() <= SLOT_ATTRIBUTES
        else tuple((k, v) for k, v in a.items() if k not in SLOT_ATTRIBUTES),
    )
