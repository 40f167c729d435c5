"""``make demo``: the referee daemon at work on the bundled sample campaign.

It starts ``mekref serve`` on SQLite in a temporary folder, sets up the sample campaign
(``daemon/samples/replay/setup.json``), copies the recorded battle files into the daemon's
inbox one at a time and shows each being applied, with the referee's decisions in between.
It also drops a copy of a file already applied (skipped: same sha256) and a broken file
(quarantined with a reason). Then it stops the daemon with SIGTERM and prints what it did
(``mekref status``), the campaign's books (``mekref report``) and, last, the referee's overview
with the VP total of each side against the end conditions (``mekref report --overview``).
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from rich.console import Console

from mekref.daemon.cli import main as cli
from mekref.daemon.cli_common import out_console
from mekref.daemon.open_app import app_config, opened_app
from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.daemon.tripwire.cli_replay import AFTER, load_commands
from mekref.rules.messages import Command
from mekref.rules.tripwire.commands import CreateCampaign
from mekref.rules.tripwire.designs import RecordDesigns

TIMEOUT = 60.0
#: The log lines worth showing, and how.
SHOWN = {
    "serve.started": "daemon started, watching {watch}",
    "scan.done": "scanned the folders: {files} file(s)",
    "file.applied": "[green]applied[/] {name} ({events} event(s), battle {battle_id})",
    "file.already_applied": "[yellow]skipped[/] {name}: already applied (same sha256 {short})",
    "file.quarantined": "[red]quarantined[/] {name}: {what}",
    "file.unmatched": "[yellow]held[/] {name}: {reason}",
    # Taken in, but its battle matches no engagement of the strategic map (ruling T-E8).
    "file.held": "[yellow]held for the referee[/] {name}: {reason}",
    # The sample's units were set up without their designs: the books say so, unit by unit.
    "file.unpriced_unit": "[yellow]warning[/] {name}: {warning}",
    "battle.report_received": "battle {battle_id}: report received",
    "battle.waiting": "battle {battle_id}: waiting (sides {sides_expected}, reported "
    "{sides_reported})",
    "battle.resolved": "battle {battle_id}: resolved",
    "serve.stopping": "daemon stopping ({signal})",
    "serve.stopped": "daemon stopped cleanly",
}


class Demo:
    def __init__(self, root: Path, console: Console) -> None:
        self.console = console
        # The daemon runs in the demo's folder and is given paths relative to it, so what it
        # logs and stores (and the demo shows) reads "inbox/01-bob.mul", not a temporary path.
        self.root = root
        self.db = str(root / "campaign.db")
        self.inbox = root / "inbox"
        self.quarantine = root / "quarantine"
        self.inbox.mkdir()
        self.lines: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self.proc: subprocess.Popen[bytes] | None = None

    # -- the daemon -------------------------------------------------------------------------
    def start(self) -> None:
        inbox, quarantine = self.inbox.name, self.quarantine.name
        db = Path(self.db).name
        argv = [sys.executable, "-m", "mekref.daemon.cli", "serve", "--watch", inbox]
        argv += ["--db", db, "--quarantine", quarantine]
        argv += ["--log-format", "json", "--settle", "0.3", "--web", "127.0.0.1:0"]
        self.console.print(f"$ mekref serve --watch {inbox} --db {db}", style="dim")
        self.proc = subprocess.Popen(argv, stderr=subprocess.PIPE, cwd=self.root)
        assert self.proc.stderr is not None
        threading.Thread(target=self._read, args=(self.proc.stderr,), daemon=True).start()
        self.wait_for(lambda: self.seen("scan.done"), "the daemon to start")

    def _read(self, stream: IO[bytes]) -> None:
        for raw in stream:
            try:
                line = json.loads(raw)
            except ValueError:
                self.console.print(raw.decode(errors="replace").rstrip(), style="dim")
                continue
            with self._lock:
                self.lines.append(line)
            self._show(line)

    def _show(self, line: dict[str, Any]) -> None:
        template = SHOWN.get(str(line.get("event")))
        if template is None:
            if line.get("level") in ("error", "warning"):
                self.console.print(f"  [red]{line.get('event')}[/] {line}")
            return
        fields = dict(line)
        fields["name"] = Path(str(line.get("path", ""))).name
        fields["short"] = str(line.get("sha256", ""))[:12]
        fields.setdefault("battle_id", "-")
        try:
            self.console.print("  " + template.format_map(_Default(fields)))
        except (ValueError, KeyError):
            self.console.print(f"  {line.get('event')}")

    def seen(self, event: str, **match: str) -> bool:
        with self._lock:
            return any(
                line.get("event") == event and all(line.get(k) == v for k, v in match.items())
                for line in self.lines
            )

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not condition():
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"the daemon exited ({self.proc.returncode}) waiting for {what}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            time.sleep(0.05)

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=TIMEOUT)
        self.wait_for(lambda: self.seen("serve.stopped"), "the daemon to stop")
        return code

    # -- the campaign -----------------------------------------------------------------------
    def set_up(self) -> str:
        setup = load_commands(SAMPLE / "setup.json")
        create = setup[0]
        assert isinstance(create, CreateCampaign)
        with opened_app(app_config({"db": self.db}, layered=False)) as app:
            runner = app.runner
            cid = runner.create(create).campaign_id
            for command in setup[1:]:
                runner.execute(cid, command)
        sides = ", ".join(s.name for s in create.sides)
        self.console.print(f"campaign [bold]{create.name}[/]: sides {sides}")
        # What 'mekref force designs --units-dir units' records: the books can price each unit.
        designed = sum(len(c.units) for c in setup if isinstance(c, RecordDesigns))
        self.console.print(f"designs recorded for {designed} unit(s), from the sample's units/")
        self.tokens(cid, [s.side_id for s in create.sides])
        return cid

    def tokens(self, cid: str, sides: list[str]) -> None:
        """A token per side and the referee's, for the pages (the daemon prints their address
        as 'pages on ...'; docs/web.md)."""
        from mekref.daemon.grpc.tokens import Role

        with opened_app(app_config({"db": self.db}, layered=False)) as app:
            issue = app.tokens.issue
            for side in sides:
                token = issue(Role.SIDE, campaign_id=cid, side_id=side).secret
                self.console.print(f"  token of side {side}: {token}", soft_wrap=True)
            token = issue(Role.REFEREE, campaign_id=cid).secret
            self.console.print(f"  token of the referee: {token}", soft_wrap=True)

    def referee(self, cid: str, commands: list[Command]) -> None:
        with opened_app(app_config({"db": self.db}, layered=False)) as app:
            runner = app.runner
            for command in commands:
                self.console.print(f"  referee: {_describe(command)}")
                done = runner.execute(cid, command)
                for event in done.events:
                    self.console.print(f"    -> {type(event).TYPE}", style="dim")

    def drop(self, source: Path, name: str, path_field: str, data: bytes | None = None) -> None:
        """Land a file in the inbox as MegaMek does (written, then closed) and wait for it."""
        target = self.inbox / name
        self.console.print(f"[bold]>>[/] {name} lands in the inbox")
        if data is None:
            shutil.copyfile(source, target)
        else:
            target.write_bytes(data)
        where = str(target.relative_to(self.root))
        self.wait_for(lambda: self.seen(path_field, path=where), f"{name} to be handled")


class _Default(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "-"


def _describe(command: Command) -> str:
    fields = {k: v for k, v in vars(command).items() if k not in ("actor", "note")}
    return f"{type(command).TYPE} " + ", ".join(f"{k}={v}" for k, v in fields.items())


def run_demo(console: Console) -> int:
    with tempfile.TemporaryDirectory(prefix="mekref-demo-") as tmp:
        demo = Demo(Path(tmp), console)
        console.rule("[bold]1. The campaign and the daemon")
        cid = demo.set_up()
        demo.start()
        try:
            console.rule("[bold]2. Battle files land one by one")
            files = sorted(SAMPLE.glob("*.mul"))
            for path in files:
                demo.drop(path, path.name, "file.applied")
                demo.referee(cid, load_commands(path.with_name(path.name + AFTER)))
            console.rule("[bold]3. The same file again, and a broken one")
            demo.drop(files[0], "copy of " + files[0].name, "file.already_applied")
            broken = files[0].read_bytes()[:2000]
            demo.drop(files[0], "truncated.mul", "file.quarantined", data=broken)
            console.print((demo.quarantine / "truncated.mul.reason.txt").read_text(), style="dim")
        finally:
            console.rule("[bold]4. SIGTERM: finish the file in hand, close the store")
            code = demo.stop()
        if code != 0:
            console.print(f"the daemon exited with {code}")
            return 1
        console.rule("[bold]5. mekref status")
        cli(["status", "--db", demo.db])
        console.rule("[bold]6. mekref report")
        code = cli(["report", "--db", demo.db])
        console.rule("[bold]7. mekref report --overview: the referee's overview and the VP total")
        return code or cli(["report", "--db", demo.db, "--overview"])


def main() -> int:
    # The CLI's own console: off a terminal (make demo piped to a file or a pager) rich would
    # wrap at 80 columns, cutting the daemon's lines and the quarantine reason mid-sentence.
    return run_demo(out_console(markup=True))


if __name__ == "__main__":
    sys.exit(main())
