"""Turn untrusted bytes into an XML tree without letting the file hurt us.

MegaMek writes its MUL files by string concatenation, so real files carry quirks we must accept
(an unescaped ``&`` in a name, CRLF, a wrong encoding) while hostile or broken input must be
refused: no DTD (so no entity expansion and no external entities), no network, a size cap, a new
parser per document, and strict well-formedness so a truncated file is never read as a shorter
list. ``recover=True`` is deliberately never used: it silently accepts truncated documents.

A small file can still cost a lot to read: lxml answers ``element.items()`` in time quadratic in
the number of attributes (it looks each value up by name), so one element with 16,000 attributes
took most of a second and a 649 KB file took minutes. :class:`ReadLimits` bounds the shape of a
document (elements, attributes per element, nesting depth, length of one text) far above any
file MegaMek writes and checks it in C right after the strict parse, before any Python walks the
tree: reading is then linear in the file's size and bounded per file, a budget of work rather
than of time, so it holds the same on any machine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypedDict

from lxml import etree

from mekref.adapters.megamek.errors import FilePosition, MulReadError
from mekref.adapters.megamek.mul_model import Notice

#: Far above any real unit list (a 400-unit record is ~2 MiB) and far below memory trouble.
DEFAULT_MAX_BYTES = 32 * 1024 * 1024

_BOM = b"\xef\xbb\xbf"
_DECLARATION = re.compile(r"\A(\s*)<\?xml[^>]*\?>")
_DTD = re.compile(r"<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST)\b", re.IGNORECASE)
# Only XML's five predefined entities and character references are real references: with no DTD
# every other ``&`` is MegaMek's unescaped ampersand (e.g. "Smith & Sons").
_STRAY_AMPERSAND = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)")
_REPEATED_POSITION = re.compile(r"\s*,\s*line [0-9]+, column [0-9]+\s*\Z")


@dataclass(frozen=True)
class ReadLimits:
    """The largest document mekref agrees to read. Real MegaMek files stay far below each: a
    400-unit battle record has ~45,000 elements; an entity carries at most ~50 attributes;
    unit lists nest 5 deep; the longest text is a name or a quirk list of a few hundred
    characters."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_elements: int = 250_000
    max_attributes: int = 64
    max_depth: int = 32
    max_text_chars: int = 65_536


DEFAULT_LIMITS = ReadLimits()


def limits_for(max_bytes: int) -> ReadLimits:
    """The limits for a file of up to ``max_bytes``: the element budget grows with the size
    past the default's (a MegaMek element takes 45 bytes or more; this allows one per 32)."""
    if max_bytes <= DEFAULT_LIMITS.max_bytes:
        return ReadLimits(max_bytes=max_bytes)
    return ReadLimits(
        max_bytes=max_bytes, max_elements=max(DEFAULT_LIMITS.max_elements, max_bytes // 32)
    )


@dataclass(frozen=True)
class SafeDocument:
    root: etree._Element
    notices: tuple[Notice, ...]


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def decode_untrusted(data: bytes, notices: list[Notice]) -> str:
    """The text of a file's bytes: UTF-8, else Windows-1252 with a notice."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Files edited on Windows sometimes come back as Windows-1252; names like "Muñóz" would
        # otherwise make the whole battle unreadable.
        text = data.decode("cp1252", errors="replace")
        notices.append(
            Notice(
                _line_of(text, exc.start),
                "file is not valid UTF-8; read as Windows-1252 (check non-ASCII names)",
            )
        )
        return text


def _column_of(text: str, offset: int) -> int:
    return offset - text.rfind("\n", 0, offset)


def _refuse(
    path: str, problem: str, hint: str, line: int | None = None, column: int | None = None
) -> MulReadError:
    return MulReadError(FilePosition(path, line, column), problem, hint, refused=True)


def over_limit(path: str, size: int, max_bytes: int) -> MulReadError:
    """A file over the size cap, refused (a caller that knows the size need not read it)."""
    return _refuse(
        path,
        f"file is {size:,} bytes, over the {max_bytes:,}-byte limit",
        "this is not a MegaMek unit list; raise the limit only if you trust the file "
        "(--max-file-mb)",
    )


def refuse_unreadable(data: bytes, path: str, max_bytes: int) -> None:
    """The checks made before any parsing: the size cap and an empty file."""
    if len(data) > max_bytes:
        raise over_limit(path, len(data), max_bytes)
    # Same test as ``not data.strip()`` without copying the whole file: isspace() stops at the
    # first non-blank byte.
    if not data or data.isspace():
        raise MulReadError(
            FilePosition(path, 1, 1),
            "file is empty",
            "MegaMek may still be writing it; wait until it is complete, or save it again",
        )


def refuse_dtd(path: str, declared: str, line: int, column: int) -> MulReadError:
    return _refuse(
        path,
        f"document declares <!{declared}>; DTDs and entities are refused",
        "MegaMek never writes one; the file was altered or is not from MegaMek",
        line,
        column,
    )


def stray_ampersand_notice(line: int, count: int) -> Notice:
    message = f"{count} unescaped '&' (MegaMek does not escape names) read as literal text"
    return Notice(line, message)


class SafeParserOptions(TypedDict):
    resolve_entities: bool
    no_network: bool
    load_dtd: bool
    dtd_validation: bool
    huge_tree: bool
    remove_pis: bool
    collect_ids: bool


def safe_parser_options() -> SafeParserOptions:
    """lxml parser options for untrusted bytes: no entities, network, DTD or PIs."""
    return SafeParserOptions(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_pis=True,
        collect_ids=False,
    )


def syntax_error(exc: etree.XMLSyntaxError, last_line: int, path: str) -> MulReadError:
    """The refusal of a document that is not well-formed; ``last_line`` is its last non-blank
    line (an error there means the document simply stops: a half-written file)."""
    line, column = exc.position
    # libxml2 words some errors over two lines, and lxml repeats the position at the end: a
    # person sees one line, with the position once (in front).
    message = " ".join(_REPEATED_POSITION.sub("", exc.msg or "").split()) or "unknown error"
    if message.startswith("Excessive depth in document"):
        # libxml2's own nesting limit, met while parsing, before the tree's depth is checked.
        return _refuse(
            path, "elements nest more than 256 levels deep", _OVER_LIMIT_HINT, line, column
        )
    return MulReadError(
        FilePosition(path, line, column),
        f"not well-formed XML: {message}",
        _hint_for(exc, at_end=line >= last_line, savegame=_is_savegame(path)),
    )


def _is_savegame(path: str) -> bool:
    """A savegame's name (``.sav.gz``, ``.sav``): its hints speak of saving the game."""
    return path.lower().endswith((".sav.gz", ".sav"))


def parse_untrusted_xml(
    data: bytes,
    path: str,
    *,
    max_bytes: int | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> SafeDocument:
    """Parse ``data`` strictly and safely, or raise :class:`MulReadError`.

    ``max_bytes`` overrides ``limits.max_bytes`` (the callers' historical knob)."""
    refuse_unreadable(data, path, limits.max_bytes if max_bytes is None else max_bytes)
    notices: list[Notice] = []
    text = decode_untrusted(data, notices)
    # Every refused declaration starts with "<!"; a plain substring scan is much faster than the
    # case-insensitive pattern, which then runs only on files with comments or CDATA.
    dtd = _DTD.search(text) if "<!" in text else None
    if dtd:
        raise refuse_dtd(
            path, dtd.group(1), _line_of(text, dtd.start()), _column_of(text, dtd.start())
        )
    # The declaration may name an encoding we already decoded; drop it (keeping line numbers) so
    # lxml parses the text we re-encode as UTF-8.
    text = _DECLARATION.sub(lambda m: m.group(1), text, count=1)
    stray = _STRAY_AMPERSAND.search(text) if "&" in text else None
    if stray:
        count = len(_STRAY_AMPERSAND.findall(text))
        notices.append(stray_ampersand_notice(_line_of(text, stray.start()), count))
        text = _STRAY_AMPERSAND.sub("&amp;", text)
    parser = etree.XMLParser(**safe_parser_options())
    try:
        root = etree.fromstring(text.encode("utf-8"), parser)
    except etree.XMLSyntaxError as exc:
        raise syntax_error(exc, text.rstrip().count("\n") + 1, path) from None
    _check_shape(root, path, len(data), limits)
    return SafeDocument(root, tuple(notices))


_OVER_LIMIT_HINT = (
    "a crafted or damaged file, or a very large real game: the referee may read a trusted file "
    "with a higher limit ('mekref battle ingest --max-file-mb N', 'mekref inspect --max-file-mb N')"
)


@lru_cache(maxsize=32)
def _xpath(expression: str) -> etree.XPath:
    # Compiled once per limit value: compiling costs as much as running on a small file.
    return etree.XPath(expression)


def _xpath_first(root: etree._Element, expression: str) -> Any:
    found = _xpath(f"({expression})[1]")(root)
    return found[0] if isinstance(found, list) and found else None


def _check_shape(root: etree._Element, path: str, size: int, limits: ReadLimits) -> None:
    """Refuse a document whose shape no MegaMek file has, using XPath (C, linear) only: no
    Python loop over elements and no ``items()``, whose cost is what the limits bound."""
    # An element takes at least 4 bytes ("<a/>"; no entity is expanded), so a file under
    # 4 bytes per allowed element cannot hold too many: the count is skipped then.
    check_subtree_shape(
        root, path, size, limits, depth=1, count=size >= 4 * limits.max_elements, counted=0
    )


def shape_within_limits(node: etree._Element, limits: ReadLimits, *, depth: int) -> bool:
    """Whether ``node``'s subtree (``node`` at ``depth``) keeps the attribute, depth and text
    limits, in one XPath run: a streamed read asks this of every entity, and only on a "no"
    runs :func:`check_subtree_shape` for the refusal (which checks in a fixed order)."""
    cap = limits.max_text_chars
    found = _xpath_first(
        node,
        f"descendant-or-self::*[@*[{limits.max_attributes + 1}]]"
        f" | self::*{'/*' * (limits.max_depth + 1 - depth)}"
        f" | descendant::text()[string-length(.) > {cap}]"
        f" | descendant-or-self::*/@*[string-length(.) > {cap}]",
    )
    return found is None


def count_descendants(node: etree._Element) -> int:
    counted = _xpath("count(descendant::*)")(node)
    return int(counted) if isinstance(counted, float) else 0


def check_subtree_shape(
    node: etree._Element,
    path: str,
    size: int,
    limits: ReadLimits,
    *,
    depth: int,
    count: bool,
    counted: int,
) -> int:
    """Refuse ``node``'s subtree (``node`` at ``depth``; the root is 1) if no MegaMek file has
    its shape. ``counted`` elements were already read elsewhere in the document (a streamed read
    checks one entity at a time); returns the elements in the subtree, ``node`` included, when
    ``count`` asks for them (0 otherwise)."""
    elements = _xpath("count(descendant-or-self::*)")(node) if count else 0.0
    total = counted + int(elements) if isinstance(elements, float) else counted
    if total > limits.max_elements:
        # Below the root this is a streamed read's count so far, not the whole document's.
        raise refuse_elements(path, total, limits, at_least=depth > 1)
    _check_attributes(node, path, limits)
    deep = _xpath_first(node, "self::*" + "/*" * (limits.max_depth + 1 - depth))
    if deep is not None:
        raise refuse_depth(path, limits, _source_line(deep))
    _check_texts(node, path, size, limits)
    return int(elements) if isinstance(elements, float) else 0


def check_attributes_and_text(
    node: etree._Element, path: str, size: int, limits: ReadLimits
) -> None:
    """Refuse ``node``'s subtree for its attributes or texts: what is left to check once its
    elements and their nesting were counted while parsing."""
    _check_attributes(node, path, limits)
    _check_texts(node, path, size, limits)


def _check_attributes(node: etree._Element, path: str, limits: ReadLimits) -> None:
    # "has an attribute number N+1" is "has more than N attributes", and libxml2 answers it
    # without counting every element's attributes (a third of the checks' time on small files).
    crowded = _xpath_first(node, f"descendant-or-self::*[@*[{limits.max_attributes + 1}]]")
    if crowded is not None:
        raise _refuse(
            path,
            f"<{crowded.tag}> has {len(crowded.attrib):,} attributes, over the "
            f"{limits.max_attributes} limit",
            _OVER_LIMIT_HINT,
            _source_line(crowded),
        )


def _check_texts(node: etree._Element, path: str, size: int, limits: ReadLimits) -> None:
    cap = limits.max_text_chars
    if size > cap:  # no text can be longer than the file: else spare the two scans below
        long_text = _xpath_first(node, f"descendant::text()[string-length(.) > {cap}]")
        long_value = _xpath_first(node, f"descendant-or-self::*/@*[string-length(.) > {cap}]")
        for found, what in ((long_text, "a text"), (long_value, "an attribute value")):
            if found is not None:
                owner = found.getparent()
                raise _refuse(
                    path,
                    f"{what} of {len(found):,} characters, over the {cap:,} limit",
                    _OVER_LIMIT_HINT,
                    _source_line(owner) if owner is not None else None,
                )


def refuse_elements(path: str, total: int, limits: ReadLimits, *, at_least: bool) -> MulReadError:
    """The refusal of a document with more elements than ``limits`` allow (``at_least``: the
    count is how far the read got, not the whole document's)."""
    return _refuse(
        path,
        f"document has {'at least ' if at_least else ''}{total:,} elements, over the "
        f"{limits.max_elements:,} limit",
        _OVER_LIMIT_HINT,
    )


def refuse_depth(path: str, limits: ReadLimits, line: int | None) -> MulReadError:
    return _refuse(
        path, f"elements nest deeper than {limits.max_depth} levels", _OVER_LIMIT_HINT, line
    )


def _source_line(element: etree._Element) -> int | None:
    line: object = element.sourceline
    return line if isinstance(line, int) else None


def _hint_for(exc: etree.XMLSyntaxError, *, at_end: bool, savegame: bool = False) -> str:
    msg = exc.msg or ""
    truncated_words = ("Premature end", "end of data", "EndTag", "expected '>'")
    if at_end or any(word in msg for word in truncated_words):
        again = "save the game again (/save NAME)" if savegame else "save the unit list again"
        return (
            f"the file looks truncated or half-written; wait until MegaMek has finished, or {again}"
        )
    if "Start tag expected" in msg or "Document is empty" in msg:
        if savegame:
            return "this is not a MegaMek savegame; save the game again from MegaMek (/save NAME)"
        return "this is not an XML unit list; export it again from MegaMek (File > Units > Save)"
    return "open the file in a text editor at that position, or export it again from MegaMek"
