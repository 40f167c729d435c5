"""Options from a flag, then MEKREF_*, then mekref.toml (working folder, else the user's config
folder), then the built-in default; ``mekref config show`` says where each value came from."""

from __future__ import annotations

import json
import os
from pathlib import Path

from console_script import mekref, mekref_fresh


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    # A config folder of the test's own (platformdirs follows XDG_CONFIG_HOME on Linux), and
    # none of the caller's MEKREF_* settings.
    clean = {k: "" for k in os.environ if k.startswith("MEKREF_")}
    return {**clean, "XDG_CONFIG_HOME": str(tmp / "config"), **extra}


def _campaign(db: Path, name: str) -> None:
    made = mekref("campaign", "new", "--db", str(db), "--name", name, "--seed", "1")
    assert made.returncode == 0, made.stderr


def _report_name(tmp: Path, *argv: str, cwd: Path, **env: str) -> str:
    done = mekref("report", "--json", *argv, env=_env(tmp, **env), cwd=cwd)
    assert done.returncode == 0, done.stderr
    name: str = json.loads(done.stdout)["campaign"]
    return name


def test_flag_beats_environment_beats_file(tmp_path: Path) -> None:
    for name in ("flag", "env", "here", "user"):
        _campaign(tmp_path / f"{name}.db", name)
    work = tmp_path / "work"
    work.mkdir()
    user = tmp_path / "config" / "mekref"
    user.mkdir(parents=True)
    (user / "mekref.toml").write_text(f'db = "{tmp_path / "user.db"}"\n', encoding="utf-8")
    assert _report_name(tmp_path, cwd=work) == "user"
    # Relative paths in a file are taken from the file's folder.
    (work / "mekref.toml").write_text('db = "../here.db"\n', encoding="utf-8")
    assert _report_name(tmp_path, cwd=work) == "here"
    env = {"MEKREF_DB": str(tmp_path / "env.db")}
    assert _report_name(tmp_path, cwd=work, **env) == "env"
    flag = ["--db", str(tmp_path / "flag.db")]
    assert _report_name(tmp_path, *flag, cwd=work, **env) == "flag"


def test_config_show_names_each_source(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "mekref.toml").write_text(
        'db = "camp.db"\nwatch = ["logs"]\ngrpc_address = "127.0.0.1:50051"\n', encoding="utf-8"
    )
    env = _env(tmp_path, MEKREF_GRPC="0.0.0.0:6000")
    shown = mekref("config", "show", "--json", env=env, cwd=work)
    assert shown.returncode == 0, shown.stderr
    found = json.loads(shown.stdout)
    settings = found["settings"]
    assert found["file"] == str(work / "mekref.toml")
    assert settings["db"] == {"value": str(work / "camp.db"), "source": str(work / "mekref.toml")}
    assert settings["watch"]["value"] == [str(work / "logs")]
    assert settings["grpc_address"] == {"value": "0.0.0.0:6000", "source": "MEKREF_GRPC"}
    assert settings["poll"]["source"] == "built-in default"
    text = mekref("config", "show", env=env, cwd=work)
    assert "grpc_address" in text.stdout and "<- MEKREF_GRPC" in text.stdout


def test_serve_takes_its_folders_from_the_environment(tmp_path: Path) -> None:
    db = tmp_path / "camp.db"
    _campaign(db, "S")
    missing = tmp_path / "no-such-logs"
    env = _env(tmp_path, MEKREF_DB=str(db), MEKREF_WATCH=str(missing))
    done = mekref_fresh("serve", env=env, cwd=tmp_path)
    assert done.returncode == 2
    assert f"{missing}: not a folder" in done.stderr


def test_a_broken_settings_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "mekref.toml").write_text("db = \n", encoding="utf-8")
    done = mekref("report", env=_env(tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not valid TOML" in done.stderr
    (tmp_path / "mekref.toml").write_text('dbb = "x.db"\n', encoding="utf-8")
    done = mekref("status", env=_env(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "unknown setting(s) dbb" in done.stderr


def test_no_store_anywhere_names_the_default_and_how_to_set_one(tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = mekref("report", env=_env(tmp_path, XDG_DATA_HOME=str(data)), cwd=tmp_path)
    assert done.returncode == 5
    assert f"no campaign store at {data / 'mekref' / 'mekref.db'}" in done.stderr
    assert "[--db from built-in default]" in done.stderr
    assert not data.exists()
    typo = mekref("status", env=_env(tmp_path, MEKREF_DB=str(tmp_path / "cmap.db")), cwd=tmp_path)
    assert typo.returncode == 5 and "[--db from MEKREF_DB]" in typo.stderr


def test_units_dir_from_the_environment_but_never_for_a_replay(tmp_path: Path) -> None:
    missing = tmp_path / "no-mekfiles"
    env = _env(tmp_path, MEKREF_UNITS_DIR=str(missing))
    bob = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "bob.mul"
    inspected = mekref("inspect", str(bob), env=env, cwd=tmp_path)
    assert inspected.returncode == 2 and str(missing) in inspected.stderr
    replay = Path(__file__).resolve().parents[2] / "daemon" / "samples" / "replay"
    done = mekref("replay", str(replay), "--ruleset", "tripwire", "--seed", "7", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == (
        "state-hash: 14b5414521547c4111eeaeb478029ec4eb6d4e6a20f872cdfdd6b617ec9631c2"
    )
