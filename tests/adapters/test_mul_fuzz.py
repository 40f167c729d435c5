"""Mutated real files: every case reads or raises MulReadError, never any other exception.

Mutations are seeded and deterministic (a failure names its seed, fixture and mutation list so
it can be replayed): byte flips, deletions, insertions of the characters that matter to XML
(``<``, ``&``, ``"``, ``>``, ``/``), duplicated spans, truncations and invalid UTF-8. When a
mutated file still reads, what we read must also write and read back equal.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_model import MulFile, RootKind
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import write_mul

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"
ALL_MULS = sorted(FIXTURES.glob("*.mul"))
CASES_PER_FIXTURE = 450  # about 4,000 in all
INSERTS = [b"<", b"&", b'"', b">", b"/", b"</", b"<!", b"&#", b"\x00", b"\xff", b"\xc3", b"\n"]


def _mutate(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    out = bytearray(data)
    done: list[str] = []
    for _ in range(rng.choice((1, 1, 1, 2, 3, 5))):
        if not out:
            break
        kind = rng.choice(("flip", "delete", "insert", "insert", "duplicate", "truncate", "set"))
        at = rng.randrange(len(out))
        if kind == "flip":
            out[at] ^= 1 << rng.randrange(8)
        elif kind == "delete":
            del out[at : at + rng.randint(1, 16)]
        elif kind == "insert":
            out[at:at] = rng.choice(INSERTS)
        elif kind == "duplicate":
            span = bytes(out[at : at + rng.randint(1, 200)])
            out[at:at] = span
        elif kind == "truncate":
            del out[at:]
        else:
            out[at] = rng.randrange(256)
        done.append(f"{kind}@{at}")
    return bytes(out), done


def _check(data: bytes, label: str) -> MulFile | None:
    try:
        mul = read_mul_bytes(data, label)
    except MulReadError as err:
        assert err.hint, label
        assert err.exit_code in (3, 4), label
        return None
    except Exception as exc:
        raise AssertionError(f"{label}: {type(exc).__name__}: {exc}") from exc
    return mul


@pytest.mark.parametrize("path", ALL_MULS, ids=lambda p: p.name)
def test_mutated_fixtures_read_or_fail_cleanly(path: Path) -> None:
    original = path.read_bytes()
    rng = random.Random(f"mul-fuzz:{path.name}")
    parsed = refused = 0
    for case in range(CASES_PER_FIXTURE):
        data, mutations = _mutate(original, rng)
        label = f"{path.name} case {case} {mutations}"
        mul = _check(data, label)
        if mul is None:
            refused += 1
            continue
        parsed += 1
        assert mul.root in (RootKind.UNIT, RootKind.RECORD), label
        # What we could read, we can write and read back unchanged.
        assert read_mul_bytes(write_mul(mul).encode("utf-8"), label) == mul, label
    # The mutations are neither all harmless nor all fatal.
    assert parsed > 0 and refused > 0


def test_mutations_are_deterministic() -> None:
    data = ALL_MULS[0].read_bytes()
    first = [_mutate(data, random.Random("seed"))[1] for _ in range(3)]
    again = [_mutate(data, random.Random("seed"))[1] for _ in range(3)]
    assert first == again


@pytest.mark.parametrize("seed", range(40))
def test_random_xml_shaped_noise(seed: int) -> None:
    rng = random.Random(seed)
    pieces = [b"<unit>", b"<record>", b"<entity chassis='a' model='b' type='c'>", b"</entity>",
              b"<pilot name='x' hits='Dead'/>", b"<location index='1'>", b"</location>",
              b"<slot index='N/A' type='t' shots='1'/>", b"<armor points='Destroyed'/>",
              b"<kills>", b"<kill killed='k' killer='None'/>", b"</kills>", b"</unit>",
              b"</record>", b"<survivors>", b"</survivors>", b"&", b"<", b"\"", b"text",
              b"<crew crewType='dual'>", b"<crewMember slot='x'/>", b"</crew>"]  # fmt: skip
    data = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))
    _check(data, f"noise seed {seed}")
