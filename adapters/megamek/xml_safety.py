"""Turn untrusted bytes into an XML tree without letting the file hurt us.

MegaMek writes its MUL files by string concatenation, so real files carry quirks we must accept
(an unescaped ``&`` in a name, CRLF, a wrong encoding) while hostile or broken input must be
refused: no DTD (so no entity expansion and no external entities), no network, a size cap, a new
parser per document, and strict well-formedness so a truncated file is never read as a shorter
list. ``recover=True`` is deliberately never used: it silently accepts truncated documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


@dataclass(frozen=True)
class SafeDocument:
    root: etree._Element
    notices: tuple[Notice, ...]


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _decode(data: bytes, notices: list[Notice]) -> str:
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


def parse_untrusted_xml(
    data: bytes, path: str, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> SafeDocument:
    """Parse ``data`` strictly and safely, or raise :class:`MulReadError`."""
    if len(data) > max_bytes:
        raise _refuse(
            path,
            f"file is {len(data):,} bytes, over the {max_bytes:,}-byte limit",
            "this is not a MegaMek unit list; raise the limit only if you trust the file",
        )
    # Same test as ``not data.strip()`` without copying the whole file: isspace() stops at the
    # first non-blank byte.
    if not data or data.isspace():
        raise MulReadError(
            FilePosition(path, 1, 1),
            "file is empty",
            "MegaMek may still be writing it; wait until it is complete, or save it again",
        )
    notices: list[Notice] = []
    text = _decode(data, notices)
    # Every refused declaration starts with "<!"; a plain substring scan is much faster than the
    # case-insensitive pattern, which then runs only on files with comments or CDATA.
    dtd = _DTD.search(text) if "<!" in text else None
    if dtd:
        raise _refuse(
            path,
            f"document declares <!{dtd.group(1)}>; DTDs and entities are refused",
            "MegaMek never writes one; the file was altered or is not from MegaMek",
            _line_of(text, dtd.start()),
            _column_of(text, dtd.start()),
        )
    # The declaration may name an encoding we already decoded; drop it (keeping line numbers) so
    # lxml parses the text we re-encode as UTF-8.
    text = _DECLARATION.sub(lambda m: m.group(1), text, count=1)
    stray = _STRAY_AMPERSAND.search(text) if "&" in text else None
    if stray:
        count = len(_STRAY_AMPERSAND.findall(text))
        notices.append(
            Notice(
                _line_of(text, stray.start()),
                f"{count} unescaped '&' (MegaMek does not escape names) read as literal text",
            )
        )
        text = _STRAY_AMPERSAND.sub("&amp;", text)
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_pis=True,
        collect_ids=False,
    )
    try:
        root = etree.fromstring(text.encode("utf-8"), parser)
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        # An error on the last line means the document simply stops: a half-written file.
        at_end = line >= text.rstrip().count("\n") + 1
        raise MulReadError(
            FilePosition(path, line, column),
            f"not well-formed XML: {exc.msg}",
            _hint_for(exc, at_end=at_end),
        ) from None
    return SafeDocument(root, tuple(notices))


def _hint_for(exc: etree.XMLSyntaxError, *, at_end: bool) -> str:
    msg = exc.msg or ""
    truncated_words = ("Premature end", "end of data", "EndTag", "expected '>'")
    if at_end or any(word in msg for word in truncated_words):
        return (
            "the file looks truncated or half-written; wait until MegaMek has finished, "
            "or save the unit list again"
        )
    if "Start tag expected" in msg or "Document is empty" in msg:
        return "this is not an XML unit list; export it again from MegaMek (File > Units > Save)"
    return "open the file in a text editor at that position, or export it again from MegaMek"
