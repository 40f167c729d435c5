"""A limb MegaMek blew off is lost, whichever door the unit comes through (ruling R-IMP-7).

The real record ``daemon/samples/replay/02-clusterstrike.mul`` (a ClusterStrike batchall)
writes the Rifleman RFL-8D's left arm as MegaMek's ``EntityListFile`` writes a blown-off
location, with the values it had and the flag beside them::

    <location index="5"> Left Arm has been blown off.
        <armor points="0"/>
        <armor points="8" type="Internal"/>
        <blownOff/>

``inspect`` lists that arm as lost, the campaign keeps it with no armor and no structure, and
the record handed back to MekHQ writes it destroyed, as the savegame reader already took a
blown-off location.
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref_fresh

REPLAY = Path(__file__).resolve().parents[2] / "daemon" / "samples" / "replay"
RECORD = REPLAY / "02-clusterstrike.mul"


def _rifleman(units: list[dict[str, object]]) -> dict[str, object]:
    (found,) = [u for u in units if u.get("model") == "RFL-8D"]
    return found


def test_inspect_lists_a_blown_off_arm_as_lost() -> None:
    run = mekref_fresh("inspect", str(RECORD), "--units-dir", str(REPLAY / "units"), "--json")
    assert run.returncode == 0, run.stderr
    rifleman = _rifleman(json.loads(run.stdout)["units"])
    assert "Left Arm" in rifleman["destroyed_locations"]  # type: ignore[operator]
    assert "Left Arm" not in rifleman["damaged_locations"]  # type: ignore[operator]


def test_the_campaign_and_the_record_for_mekhq_keep_the_arm_lost(tmp_path: Path) -> None:
    db = str(tmp_path / "camp.db")
    replayed = mekref_fresh("replay", str(REPLAY), "--seed", "7", "--db", db)
    assert replayed.returncode == 0, replayed.stderr
    listed = mekref_fresh("force", "list", "--db", db, "--json")
    assert listed.returncode == 0, listed.stderr
    rifleman = _rifleman(json.loads(listed.stdout))
    locations: list[dict[str, object]] = rifleman["locations"]  # type: ignore[assignment]
    (arm,) = [loc for loc in locations if loc["name"] == "Left Arm"]
    assert (arm["armor"], arm["internal"], arm["destroyed"]) == (0, 0, True)
    out = tmp_path / "fedsuns.mul"
    exported = mekref_fresh(
        "battle", "export-record", "--db", db, "--side", "fedsuns", "-o", str(out)
    )
    assert exported.returncode == 0, exported.stderr
    text = out.read_text(encoding="utf-8")
    rifleman_xml = text[text.index('model="RFL-8D"') :]
    rifleman_xml = rifleman_xml[: rifleman_xml.index("</entity>")]
    assert '<location index="5" isDestroyed="true" /> Left Arm' in rifleman_xml
