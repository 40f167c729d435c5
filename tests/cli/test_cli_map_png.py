"""``mekref map`` writes a PNG picture when the output file asks for one."""

from __future__ import annotations

from pathlib import Path

from console_script import mekref

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


def test_a_missing_libcairo_is_one_line_naming_it_and_the_svg_still_works(tmp_path: Path) -> None:
    # cairosvg loads libcairo through cairocffi when imported; where the library is missing
    # that import raises OSError. A module of the same name earlier on the path does the same
    # to the installed console script, in a fresh process.
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "cairosvg.py").write_text(
        'raise OSError("no library called \\"cairo-2\\" was found\\n'
        "cannot load library 'libcairo.so.2': libcairo.so.2: cannot open shared object file\")\n",
        encoding="utf-8",
    )
    env = {"PYTHONPATH": str(shadow)}
    png = tmp_path / "map.png"
    done = mekref("map", "show", "-o", str(png), env=env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "libcairo" in done.stderr and "no library called" in done.stderr
    assert f"-o {tmp_path / 'map.svg'}" in done.stderr
    assert not png.exists()
    svg = tmp_path / "map.svg"
    drawn = mekref("map", "show", "-o", str(svg), env=env)
    assert drawn.returncode == 0, drawn.stderr
    assert svg.read_text(encoding="utf-8").lstrip().startswith(("<svg", "<?xml"))


def test_an_output_suffix_that_is_neither_svg_nor_png_is_refused(tmp_path: Path) -> None:
    """Issue 32: "output formats follow the file suffix or refuse it" (`-o x.jpg` wrote SVG)."""
    jpg = tmp_path / "map.jpg"
    done = mekref("map", "show", "-o", str(jpg))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"mekref map show: -o {jpg}: the map is written as .svg or .png, chosen by the suffix; "
        "give map.svg or map.png"
    )
    assert not jpg.exists()
