"""Helpers for daemon tests: a sample campaign, battle files, a ``mekref serve`` subprocess."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.store import EventStore, open_store
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, OpenPool, SideSpec
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    Lance,
    UnitKind,
)
from mekref.rules.tripwire.state import PoolKind

HERE = Path(__file__).parent
FIXTURES = HERE.parent / "fixtures" / "megamek"
BATTLE = FIXTURES / "bob.mul"  # a real end-of-game record whose units carry externalIds
OTHER_FORCE = FIXTURES / "mekhq-fixedmuls-AlliedCavLance.mul"  # ids in no campaign
SERVE = HERE / "serve_with_fake.py"
#: Events the sample set-up writes (created, force imported, pool opened).
SETUP_EVENTS = 3
TIMEOUT = 60.0


def battle_bytes(n: int) -> bytes:
    """A distinct battle file (distinct sha256): the real record plus a numbered comment."""
    return BATTLE.read_bytes() + f"\n<!-- battle {n} -->\n".encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sample_force(path: Path = BATTLE) -> ForceDescription:
    mul = read_mul_bytes(path.read_bytes(), str(path))
    units = []
    for entity in mul.entities:
        assert entity.external_id is not None
        crew = tuple(
            CrewSkills(person_id=m.external_id, name=m.name, gunnery=4, piloting=5)
            for m in entity.members
            if m.external_id
        )
        units.append(
            ForceUnit(
                unit_id=entity.external_id,
                chassis=entity.chassis,
                model=entity.model,
                kind=UnitKind.MEK,
                tonnage=Fraction(50),
                bv=1000,
                crew=crew,
            )
        )
    lance = Lance(name="All", units=tuple(units))
    return ForceDescription(
        companies=(Company(name="Alpha", role=CompanyRole.MEK_COMPANY, lances=(lance,)),)
    )


def setup_campaign(store: EventStore) -> str:
    runner = CampaignRunner(store)
    referee = "referee"
    created = runner.create(
        CreateCampaign(
            actor=referee,
            name="Test campaign",
            ruleset="tripwire",
            seed="7",
            sides=(SideSpec(side_id="a", name="Side A"), SideSpec(side_id="b", name="Side B")),
        )
    )
    cid = created.campaign_id
    runner.execute(
        cid,
        ImportForce(
            actor=referee,
            side_id="a",
            force=sample_force(),
            accept_unchecked=RefereeNote(referee=referee, reason="test force"),
        ),
    )
    runner.execute(
        cid,
        OpenPool(
            actor=referee,
            pool_id="a-cargo",
            side_id="a",
            name="Cargo",
            kind=PoolKind.CARGO,
            cargo_tons=Fraction(100),
        ),
    )
    return cid


def new_campaign(url: str) -> str:
    with open_store(url) as store:
        return setup_campaign(store)


def wait_until(condition: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    """Poll ``condition`` until it is truthy; fail with ``what`` after a generous timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for: {what}")
        time.sleep(0.05)


@dataclass
class Serve:
    """A ``mekref serve`` subprocess with the test battle input; JSON log lines in a file."""

    db: str
    watch: Sequence[Path]
    quarantine: Path
    log_path: Path
    extra: Sequence[str] = ()
    env: dict[str, str] = field(default_factory=dict)
    #: False: the real battle ingestion (``python -m mekref.daemon.cli``), not the stand-in.
    fake: bool = True
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Serve:
        program = [str(SERVE)] if self.fake else ["-m", "mekref.daemon.cli"]
        argv = [sys.executable, *program, "serve", "--db", self.db]
        for folder in self.watch:
            argv += ["--watch", str(folder)]
        argv += ["--quarantine", str(self.quarantine), "--log-format", "json", "--settle", "0.3"]
        argv += list(self.extra)
        env = {**os.environ, **self.env}
        self._log = self.log_path.open("ab")
        self.proc = subprocess.Popen(argv, stdout=self._log, stderr=self._log, env=env)
        wait_until(lambda: self.events("scan.done") or self.proc_exited(), "daemon start")
        if self.proc_exited():
            raise AssertionError(f"mekref serve exited at start:\n{self.log_path.read_text()}")
        return self

    def proc_exited(self) -> bool:
        assert self.proc is not None
        return self.proc.poll() is not None

    def lines(self) -> list[dict[str, Any]]:
        found = []
        for raw in self.log_path.read_text(errors="replace").splitlines():
            try:
                found.append(json.loads(raw))
            except ValueError:
                continue
        return found

    def events(self, name: str) -> list[dict[str, Any]]:
        return [line for line in self.lines() if line.get("event") == name]

    def stop(self, sig: int = signal.SIGTERM) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        code = self.proc.wait(timeout=TIMEOUT)
        self._log.close()
        return code

    def wait_exit(self) -> int:
        assert self.proc is not None
        code = self.proc.wait(timeout=TIMEOUT)
        self._log.close()
        return code


def ingested(url: str, cid: str | None = None) -> list[Any]:
    with open_store(url) as store:
        return store.ingested_files(cid)


def event_count(url: str, cid: str) -> int:
    with open_store(url) as store:
        return store.last_seq(cid)


def status_json(db: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.cli", "status", "--db", db, "--json"],
        check=True,
        capture_output=True,
        timeout=TIMEOUT,
    )
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def drop(folder: Path, name: str, data: bytes) -> Path:
    """Land a file the way MegaMek does: written and closed in place."""
    path = folder / name
    path.write_bytes(data)
    return path
