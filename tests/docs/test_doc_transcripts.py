"""The README's and the main docs' command blocks, run (issue 32: "every command shown in the
README and in docs/*.md runs in CI against the bundled samples (a transcript test: the command
and the lines of its output that matter), so a doc that drifts fails the build").

Each doc runs in its own folder (``doc_world``): its commands in the order the doc shows them,
through the installed console script, each in a fresh process. A command must succeed unless
the doc shows it failing (an output line ``mekref ...: ...``); the output lines a console block
shows must appear in what it printed. ``mekref serve`` runs until it has started its watcher
(and its API and pages when asked), then gets SIGTERM and must exit 0.

What a doc names that the folder cannot have verbatim is replaced, and only that: the example
ids the docs show (``battle-0a1b2c3d4e5f``, ``<id>``, ``U``, ``$CID``, a token id) by the real
ones of the folder's campaign, ``~`` by the folder's HOME, the ports by free ones, and
``/home/ann/tripwire`` by the folder. Developer commands (pytest, bench) are CI's own steps.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from console_script import MEKREF
from doc_grpc import Grpc, grpcurl, objectives_variables, run_grpcurl, session_variables
from doc_world import (
    OMNI,
    ROOT,
    World,
    alpha_vs_fox_records,
    first,
    legal_on_the_map,
    new_world,
    run,
    with_an_omni,
)
from transcripts import (
    DocCommand,
    doc_commands,
    names,
    not_run,
    shown,
    split_env,
    substitute,
)

pytestmark = pytest.mark.e2e

DOCS = ["README.md", "docs/cli.md", "docs/campaign.md", "docs/daemon.md", "docs/api.md"]
FREE_PORTS = {"127.0.0.1:50051": "127.0.0.1:0", "0.0.0.0:50051": "127.0.0.1:0",
              "127.0.0.1:8080": "127.0.0.1:0"}  # fmt: skip
#: Seconds ``serve`` must stay quiet after its first scan before it is stopped (the files it
#: found wait for the daemon's default settle time, one second, before they are applied).
QUIET = 3.0


def _toml_block(doc: str, subs: dict[str, str]) -> str:
    """The doc's first ``toml`` block: its example settings file."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    body = text.split("```toml\n", 1)[1].split("```", 1)[0]
    return substitute(body, subs)


def _home(world: World) -> dict[str, str]:
    return {"~/megamek": str(world.home / "megamek"), "~/.local": str(world.home / ".local")}


def _readme(folder: Path) -> World:
    world = new_world(folder)
    alpha_vs_fox_records(world.home / "megamek" / "logs")
    db = ("--db", "ginestra.db")
    world.subs = {
        **_home(world),
        "<id>": lambda: first(world, "status", *db, key="battle_id", table="waiting"),
        "<unit>": lambda: _unit(world, "ginestra.db", "Marauder"),
    }
    world.grpc = _grpc(world, [(0, "api.db", session_variables("api.db"))])
    return world


def _grpc(world: World, dbs: list[Any]) -> Grpc:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEKREF_")}
    return Grpc(dbs=dbs, work=world.work, env={**env, **world.env})


def _unit(world: World, db: str, chassis: str) -> str:
    """The id of the damaged unit of that chassis."""
    rows = json.loads(run(world, "force", "list", "--db", db, "--json"))
    return next(str(r["id"]) for r in rows
                if r["chassis"] == chassis and r["armor"] < r["armor_max"])  # fmt: skip


_GINESTRA: list[Path] = []
_GAMES: list[Path] = []


def _ginestra_after_two_days() -> Path:
    """The bundled Ginestra campaign after the demo's two days (a battle resolved)."""
    if not _GINESTRA:
        out = Path(os.environ.get("TMPDIR", "/tmp")) / f"mekref-docs-ginestra-{os.getpid()}"
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run(
            [str(MEKREF.with_name("python")), "-m", "mekref.daemon.samples.ginestra.demo",
             "--out", str(out)], cwd=ROOT, capture_output=True, check=True, timeout=600,
        )  # fmt: skip
        _GINESTRA.append(out)
    return _GINESTRA[0]


def _games() -> Path:
    """The other rule sets' bundled games, played to their ends."""
    if not _GAMES:
        out = Path(os.environ.get("TMPDIR", "/tmp")) / f"mekref-docs-games-{os.getpid()}"
        shutil.rmtree(out, ignore_errors=True)
        for ruleset in ("dystopian_wars", "succession_wars"):
            subprocess.run([str(MEKREF), "game", "demo", "--ruleset", ruleset, "--out", str(out)],
                           capture_output=True, check=True, timeout=600)  # fmt: skip
        _GAMES.append(out)
    return _GAMES[0]


def _cli(folder: Path) -> World:
    world = new_world(folder)
    subs = {**_home(world), "/home/ann/tripwire": str(world.work)}
    (world.work / "mekref.toml").write_text(_toml_block("docs/cli.md", subs), encoding="utf-8")
    for name in ("g.db", "c.db"):
        shutil.copy(_ginestra_after_two_days() / "ginestra.db", world.work / name)
    shutil.copy(_games() / "dystopian_wars-demo.db", world.work / "dw.db")
    shutil.copy(_games() / "succession_wars-demo.db", world.work / "sw.db")
    run(world, "game", "start", "--db", "hr.db", "--ruleset", "house_rules", "--name", "Contract",
        "HRSetUp", "actor=ref", "seed=house-3058")  # fmt: skip
    battle = lambda: first(world, "status", "--db", "c.db", key="battle_id", table="ingested")  # noqa: E731
    world.subs = {
        **subs,
        "battle-0a1b2c3d4e5f": battle,
        # `battle correct --unit`: the rebel Marauder of that battle, and a unit not in it.
        "13c7c66b": lambda: _of_battle(world, "c.db", battle(), "Marauder")[:8],
        "12c1f40d": lambda: _of_battle(world, "c.db", battle(), None)[:8],
    }
    return world


def _of_battle(world: World, db: str, battle_id: str, chassis: str | None) -> str:
    """The id of the first unit of that chassis the battle booked (None: the first unit the
    battle did not book)."""
    report = json.loads(run(world, "report", "--db", db, "--json"))
    [fought] = [b for b in report["battles"] if b["id"] == battle_id]
    booked = {o["id"] for o in fought["units"]}
    return next(str(u["id"]) for u in report["units"]
                if (u["id"] in booked and u["chassis"] == chassis)
                or (chassis is None and u["id"] not in booked))  # fmt: skip


def _campaign(folder: Path) -> World:
    world = new_world(folder)
    with_an_omni(world)
    legal_on_the_map(world, "g.db")
    (world.work / "logs").mkdir()
    alpha_vs_fox_records(world.work / "logs")
    world.subs = {
        **_home(world),
        "U": lambda: _salvage(world),
        "P": lambda: _person(world),
        "UNIT": lambda: _unit(world, "ginestra.db", "Atlas"),
        "6fb5303f": lambda: _id_of(world, "ginestra.db", OMNI[0])[:8],
        "a92093ba": lambda: _id_of(world, "g.db", "Union", "--side", "loyalist")[:8],
    }
    return world


def _id_of(world: World, db: str, chassis: str, *side: str) -> str:
    """The id of the first unit of that chassis (of that ``--side S``)."""
    rows = json.loads(run(world, "force", "list", "--db", db, *side, "--json"))
    return next(str(r["id"]) for r in rows if r["chassis"] == chassis)


def _salvage(world: World) -> str:
    """The loyalists' salvage: the Hornet they hold after the skirmish."""
    listed = json.loads(run(world, "salvage", "list", "--db", "ginestra.db", "--side",
                            "loyalists", "--json"))  # fmt: skip
    return str(listed["salvage"][0]["unit_id"])


def _person(world: World) -> str:
    """The pilot the doc's block hires: a person in no unit."""
    listed = json.loads(run(world, "salvage", "list", "--db", "ginestra.db", "--side",
                            "loyalists", "--json"))  # fmt: skip
    return next(str(p["person_id"]) for p in listed["people"] if p["name"] == "Nia Kell")


def _daemon(folder: Path) -> World:
    world = new_world(folder)
    subs = {**_home(world), **FREE_PORTS}
    (world.work / "mekref.toml").write_text(_toml_block("docs/daemon.md", subs), encoding="utf-8")
    (world.work / "inbox").mkdir()
    for db in ("campaign.db", "camp.db"):
        run(world, "campaign", "new", "--db", db, "--name", "TripWire", "--seed", "7")
    world.subs = {
        **subs,
        "daemon/samples/replay": str(ROOT / "daemon" / "samples" / "replay"),
        "DIR": "~/megamek/logs", "QUARANTINE": "quarantine", "UNITS": "~/megamek/data/mekfiles",
        "PATH": "camp.db", "SECONDS": "1", "MIB": "32", "HOST:PORT": "127.0.0.1:0", "N": "3",
        "LEVEL": "info", "FOLDER": str(ROOT / "daemon" / "samples" / "replay"), "R": "tripwire",
        "FILE": "replay.db",
    }  # fmt: skip
    world.subs = {k: substitute(v, _home(world)) if isinstance(v, str) else v
                  for k, v in world.subs.items()}  # fmt: skip
    return world


def _api(folder: Path) -> World:
    world = new_world(folder)
    shutil.copy(_games() / "succession_wars-demo.db", world.work / "campaign.db")
    cid = lambda: first(world, "game", "list", "--db", "campaign.db", key="id")  # noqa: E731
    token = lambda: first(world, "token", "list", "--db", "campaign.db", key="token_id")  # noqa: E731
    world.subs = {**_home(world), **FREE_PORTS, "$CID": cid, "3fa2c1d09b7e": token,
                  "mkr_63ec1d29bc53_3q9v": "mkr_", "mkr_df2c20610bf1_Qm7x": "mkr_"}  # fmt: skip
    # The examples before the session use a tracker of their own (its seqs are the doc's);
    # the session serves campaign.db, where its ``mekref token create`` lines write.
    session = _line_of("docs/api.md", "## A grpcurl session")
    world.grpc = _grpc(world, [(0, "objectives.db", objectives_variables("objectives.db")),
                               (session, "campaign.db", lambda _g, _s: {})])  # fmt: skip
    return world


def _line_of(doc: str, heading: str) -> int:
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    return lines.index(heading) + 1


WORLDS: dict[str, Callable[[Path], World]] = {
    "README.md": _readme, "docs/cli.md": _cli, "docs/campaign.md": _campaign,
    "docs/daemon.md": _daemon, "docs/api.md": _api,
}  # fmt: skip


def _resolved(world: World, text: str) -> str:
    subs = {}
    # A variable the doc's own session set (``CID=...``) is the session's, not the folder's.
    assigned = world.grpc.assigned if world.grpc else {}
    for key, value in world.subs.items():
        if callable(value):
            if names(key, text):
                # Found once, at the first command naming it: the unit kept stays that unit.
                subs[key] = world.subs[key] = value()
        else:
            subs[key] = value
    subs.update({f"${name}": value for name, value in assigned.items()})
    return substitute(text, subs)


def _run(world: World, cmd: DocCommand) -> str:
    """What went wrong running ``cmd`` as the doc shows it ("" when nothing)."""
    if cmd.kind != "mekref":
        return _shell(world, cmd)
    given, argv = split_env(_resolved(world, cmd.text))
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEKREF_")}
    env.update(world.env)
    env.update(given)
    expected = [_resolved(world, line) for line in cmd.expected]
    if argv[1] == "serve":
        return _serve(world, argv, env)
    done = subprocess.run([str(MEKREF), *argv[1:]], cwd=world.work, env=env, text=True,
                          capture_output=True, timeout=300, check=False)  # fmt: skip
    printed = done.stdout + "\n" + done.stderr
    if world.grpc:
        world.grpc.saw(printed)
    fails = any(line.startswith("mekref ") and ": " in line for line in expected)
    if (done.returncode != 0) != fails:
        return f"exit {done.returncode}:\n{printed[-1500:]}"
    missing = [line for line in expected if not shown(line, printed)]
    return f"not printed: {missing}\n{printed[-1500:]}" if missing else ""


def _serve(world: World, argv: list[str], env: dict[str, str]) -> str:
    """``mekref serve`` until it has scanned its folders and been quiet for QUIET seconds
    (the files it found applied), then SIGTERM: it must stop with exit 0."""
    proc = subprocess.Popen([str(MEKREF), *argv[1:], "--log-format", "json"], cwd=world.work,
                            env=env, text=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(x) for x in proc.stderr or ()])
    reader.start()
    seen: list[str] = []
    deadline = time.monotonic() + 90
    scanned = False
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=QUIET if scanned else 1.0)
        except queue.Empty:
            if scanned:
                break
            if proc.poll() is not None:
                reader.join()
                return f"serve exited {proc.returncode}:\n{''.join(seen)[-1500:]}"
            continue
        seen.append(line)
        scanned = scanned or '"scan.done"' in line
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        return "serve did not stop within 60 s of SIGTERM"
    reader.join()
    if not scanned or proc.returncode != 0:
        return f"serve exited {proc.returncode}:\n{''.join(seen)[-1500:]}"
    return ""


def _shell(world: World, cmd: DocCommand) -> str:
    """A console session's grpcurl call or shell variable (``tests/docs/doc_grpc.py``)."""
    assert world.grpc is not None, f"{cmd.where}: no gRPC server for this doc's folder"
    if cmd.kind == "set":
        return world.grpc.assign(cmd.text)
    if grpcurl() is None:
        pytest.skip("grpcurl is not installed (pip install -e '.[dev]')")
    return run_grpcurl(world.grpc, cmd.line, cmd.text, cmd.expected)


@pytest.mark.parametrize("doc", DOCS)
def test_every_command_of_the_doc_runs_as_shown(doc: str, tmp_path: Path) -> None:
    world = WORLDS[doc](tmp_path)
    commands = doc_commands(ROOT / doc, ROOT)
    assert commands, doc
    problems = []
    try:
        for cmd in commands:
            wrong = _run(world, cmd)
            if wrong:
                problems.append(f"{cmd.where}: {cmd.text}\n  {wrong}")
    finally:
        problems.extend(world.grpc.stop() if world.grpc else [])
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("doc", DOCS)
def test_a_block_not_run_names_the_test_that_runs_its_command(doc: str) -> None:
    """The few blocks a doc marks as not run (what they need the sample lacks) each name an
    existing test that runs the command instead."""
    for why in not_run((ROOT / doc).read_text(encoding="utf-8")):
        named = re.findall(r"tests/[\w/]+\.py", why)
        assert named and all((ROOT / t).is_file() for t in named), (doc, why)
