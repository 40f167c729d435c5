"""The service files start a real server: the commands in compose.yaml, the Dockerfile and the
systemd unit (with the mekref.toml that docs/deploy.md gives) are run with the installed
``mekref`` console script, their container and host paths moved into a temporary folder, and
the Dockerfile's HEALTHCHECK command must then report SERVING.

No Docker daemon or systemd is needed (neither is on CI's machine); the linters in
.ci/deploy-check cover the files' syntax. This covers what the linters cannot: that every flag
and setting is one mekref accepts, and that the service comes up with them."""

from __future__ import annotations

import json
import re
import shlex
import signal
import subprocess
import sys
import threading
from pathlib import Path

import yaml
from console_script import MEKREF, mekref

ROOT = Path(__file__).resolve().parents[2]


def _instructions(dockerfile: str) -> list[str]:
    joined = re.sub(r"\\\n", " ", dockerfile)
    return [line.strip() for line in joined.splitlines() if line.strip() and line[0] != "#"]


def _dockerfile() -> tuple[list[str], list[str], list[str]]:
    """(ENTRYPOINT, CMD, HEALTHCHECK's command), each an exec-form list."""
    found: dict[str, list[str]] = {}
    for line in _instructions((ROOT / "Dockerfile").read_text(encoding="utf-8")):
        keyword, _, rest = line.partition(" ")
        if keyword in ("ENTRYPOINT", "CMD"):
            found[keyword] = json.loads(rest)
        elif keyword == "HEALTHCHECK":
            found[keyword] = json.loads(rest[rest.index("CMD ") + 4 :])
    return found["ENTRYPOINT"], found["CMD"], found["HEALTHCHECK"]


def _moved(args: list[str], places: dict[str, str]) -> list[str]:
    out = []
    for arg in args:
        for old, new in places.items():
            if arg == old or arg.startswith(old + "/"):
                arg = new + arg[len(old) :]
        out.append(arg)
    return out


def _serve(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    """Start ``mekref *args``; return it and the address it printed once listening."""
    process = subprocess.Popen(
        [str(MEKREF), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    watchdog = threading.Timer(120, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("listening on "):
                return process, line.removeprefix("listening on ").strip()
    finally:
        watchdog.cancel()
    _, err = process.communicate(timeout=30)
    raise AssertionError(
        f"mekref {shlex.join(args)} never listened (exit {process.returncode}):\n{err}"
    )


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err


def _health(address: str) -> subprocess.CompletedProcess[str]:
    _, _, check = _dockerfile()
    assert check[:3] == ["python", "-m", "mekref.daemon.healthcheck"]
    command = [sys.executable, *_moved(check[1:], {"127.0.0.1:50051": address})]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def _new_store(db: str) -> None:
    made = mekref("campaign", "new", "--db", db, "--name", "Deploy Check", "--seed", "1")
    assert made.returncode == 0, made.stderr


def _folders(tmp: Path, *names: str) -> dict[str, str]:
    for name in names:
        (tmp / name).mkdir(parents=True, exist_ok=True)
    return {f"/{name}": str(tmp / name) for name in names}


def test_dockerfile_cmd_serves_and_its_healthcheck_passes(tmp_path: Path) -> None:
    entrypoint, cmd, _ = _dockerfile()
    assert entrypoint == ["mekref"]
    places = _folders(tmp_path, "var/lib/mekref", "megamek/logs")
    places["0.0.0.0:50051"] = "127.0.0.1:0"
    args = _moved(cmd, places)
    _new_store(args[args.index("--db") + 1])
    process, address = _serve(args)
    try:
        health = _health(address)
        assert (health.returncode, health.stdout.strip()) == (0, f"{address}: SERVING")
    finally:
        _stop(process)


def test_compose_command_serves(tmp_path: Path) -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    command = [str(a) for a in compose["services"]["mekref"]["command"]]
    command = [a.replace("${MEKREF_POLL:-0}", "0") for a in command]
    assert not [a for a in command if "$" in a], "an unresolved variable in the command"
    places = _folders(
        tmp_path, "var/lib/mekref", "megamek/logs", "megamek/savegames", "megamek/data/mekfiles"
    )
    db = str(tmp_path / "var/lib/mekref/mekref.db")
    assert "postgresql://mekref@db:5432/mekref" in command
    places |= {"postgresql://mekref@db:5432/mekref": db, "0.0.0.0:50051": "127.0.0.1:0"}
    _new_store(db)
    process, address = _serve(_moved(command, places))
    try:
        assert _health(address).returncode == 0
    finally:
        _stop(process)


def test_systemd_unit_serves_with_the_documented_config(tmp_path: Path) -> None:
    unit = (ROOT / "deploy" / "mekref.service").read_text(encoding="utf-8")
    exec_start = shlex.split(re.search(r"^ExecStart=(.+)$", unit, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert exec_start[0] == "/opt/mekref/bin/mekref"
    doc = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    toml = re.search(r"`/etc/mekref/mekref.toml`.*?```toml\n(.*?)```", doc, re.DOTALL)
    assert toml, "docs/deploy.md gives no mekref.toml for the unit"
    text = toml.group(1)
    for old, new in {
        "/var/lib/mekref": tmp_path / "state",
        "/home/gm/megamek": tmp_path / "megamek",
        "127.0.0.1:50051": "127.0.0.1:0",
    }.items():
        text = text.replace(old, str(new))
    for folder in ("state", "megamek/logs", "megamek/data/mekfiles"):
        (tmp_path / folder).mkdir(parents=True)
    config = tmp_path / "mekref.toml"
    config.write_text(text, encoding="utf-8")
    _new_store(str(tmp_path / "state" / "mekref.db"))
    process, address = _serve(_moved(exec_start[1:], {"/etc/mekref/mekref.toml": str(config)}))
    try:
        assert _health(address).returncode == 0
    finally:
        _stop(process)
