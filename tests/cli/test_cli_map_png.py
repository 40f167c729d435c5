"""``mekref map`` writes a PNG picture when the output file asks for one."""

from __future__ import annotations

from pathlib import Path

from mekref.daemon.cli import main


def test_map_show_writes_a_png_by_extension(tmp_path: Path) -> None:
    out = tmp_path / "ginestra.png"
    assert main(["map", "show", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # Width and height from the IHDR chunk: a real picture, not an empty canvas.
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 500 and height > 400


def test_map_show_writes_svg_otherwise(tmp_path: Path) -> None:
    out = tmp_path / "ginestra.svg"
    assert main(["map", "show", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").lstrip().startswith(("<svg", "<?xml"))
