"""Files that would waste the daemon's time or disk: a file crafted to be slow to read is
refused by its shape; an oversized file is recorded with its reason, sha256 and size but never
copied whole into quarantine, on the first sight or after a restart."""

from __future__ import annotations

from pathlib import Path

from daemon_helpers import Serve, new_campaign, status_json, wait_until

from mekref.adapters.megamek.xml_safety import DEFAULT_MAX_BYTES


def test_an_oversized_file_is_recorded_not_copied_even_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "campaign.db")
    new_campaign(db)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    big = inbox / "huge.mul"
    with big.open("wb") as out:
        out.write(b"<record>")
        out.truncate(DEFAULT_MAX_BYTES + 1024)  # sparse: cheap to make, still over the cap
    quarantine = tmp_path / "quarantine"
    for run in ("first", "after a restart"):
        serve = Serve(db, [inbox], quarantine, tmp_path / f"serve-{run}.log").start()
        try:
            wait_until(lambda: status_json(db)["quarantined"], f"quarantined ({run})")
            note = quarantine / "huge.mul.reason.txt"
            wait_until(note.exists, f"the reason written ({run})")
        finally:
            assert serve.stop() == 0
        assert sorted(p.name for p in quarantine.iterdir()) == ["huge.mul.reason.txt"], run
        text = note.read_text()
        assert "over the" in text and "byte limit" in text
        assert "none (the file is over the size limit)" in text
        (record,) = status_json(db)["quarantined"]
        assert record["copy"] == "(no copy: the file is over the size limit)"


def test_a_file_crafted_to_be_slow_is_quarantined_as_hostile(tmp_path: Path) -> None:
    """20,000 attributes on one element (~200 KB) once cost seconds of CPU in one lxml call;
    the watcher now refuses the shape before reading it, with the limit in the reason."""
    db = str(tmp_path / "campaign.db")
    new_campaign(db)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    attrs = b" ".join(b'a%d="x"' % i for i in range(20_000))
    (inbox / "slow.mul").write_bytes(
        b'<record><entity chassis="A" model="B" type="Biped" ' + attrs + b"/></record>"
    )
    quarantine = tmp_path / "quarantine"
    serve = Serve(db, [inbox], quarantine, tmp_path / "serve.log").start()
    try:
        note = quarantine / "slow.mul.reason.txt"
        wait_until(note.exists, "the crafted file quarantined")
        assert "<entity> has 20,003 attributes, over the 64 limit" in note.read_text()
    finally:
        assert serve.stop() == 0
