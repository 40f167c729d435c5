"""One configuration for one store, through the installed console script and a real gRPC
client: ``mekref battle ingest``, a folder ``mekref serve`` watches and an upload over the API
put a file over the size cap in the same configured quarantine folder, under the same
``max_file_mb``, whether both come from ``mekref.toml`` or from ``MEKREF_*`` variables; and
``mekref config show`` prints exactly those values."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from console_script import MEKREF

from mekref.v1 import battle_pb2, battle_pb2_grpc

RECORD = Path(__file__).parents[1] / "fixtures" / "megamek" / "bob.mul"
#: The settings file in the working folder: a cap below the record's 12,821 bytes.
TOML = 'quarantine = "q-configured"\nmax_file_mb = 0.01\n'
#: The variables, which win over the file: another folder, another cap.
ENV = {"MEKREF_QUARANTINE": "q-env", "MEKREF_MAX_FILE_MB": "0.011"}


def _bytes(n: int) -> bytes:
    """The record with a comment of its own: other bytes (sha256), still over the cap."""
    return RECORD.read_bytes() + f"<!-- copy {n} -->\n".encode()


@contextmanager
def _serving(cwd: Path, env: dict[str, str], db: str, inbox: Path) -> Iterator[str]:
    argv = [str(MEKREF), "serve", "--db", db, "--watch", str(inbox), "--grpc", "127.0.0.1:0",
            "--log-format", "json"]  # fmt: skip
    proc = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), line
        yield "127.0.0.1:" + line.rsplit(":", 1)[1].strip()
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0


def _wait_for(folder: Path, count: int) -> list[Path]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = sorted(folder.glob("*.reason.txt")) if folder.is_dir() else []
        if len(found) >= count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{folder}: fewer than {count} reason files after 30 s")


@pytest.mark.parametrize("layer", ["mekref.toml", "MEKREF_*"])
def test_every_way_in_uses_the_configured_quarantine_and_cap(tmp_path: Path, layer: str) -> None:
    (tmp_path / "mekref.toml").write_text(TOML)
    env = {**os.environ, "NO_COLOR": "1"}
    for name in ("MEKREF_CONFIG", "MEKREF_DB", "MEKREF_QUARANTINE", "MEKREF_MAX_FILE_MB"):
        env.pop(name, None)
    if layer == "MEKREF_*":
        env.update(ENV)
    folder = tmp_path / ("q-env" if layer == "MEKREF_*" else "q-configured")
    cap_mb = 0.011 if layer == "MEKREF_*" else 0.01
    limit = f"over the {int(cap_mb * 1024 * 1024)} byte limit"
    source = "MEKREF_" if layer == "MEKREF_*" else str(tmp_path / "mekref.toml")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([str(MEKREF), *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120, check=False)  # fmt: skip
        return done

    shown = run("config", "show", "--json")
    assert shown.returncode == 0, shown.stderr
    settings = json.loads(shown.stdout)["settings"]
    assert Path(tmp_path, settings["quarantine"]["value"]) == folder
    assert settings["max_file_mb"]["value"] == cap_mb
    assert settings["quarantine"]["source"].startswith(source)
    assert settings["max_file_mb"]["source"].startswith(source)

    db = str(tmp_path / "c.db")
    made = run("campaign", "new", "--db", db, "--name", "C", "--seed", "1",
               "--side", "a:A", "--side", "b:B")  # fmt: skip
    assert made.returncode == 0, made.stderr
    token = run("token", "create", "--db", db, "--referee")
    assert token.returncode == 0, token.stderr
    status = run("status", "--db", db, "--json")
    cid = json.loads(status.stdout)["campaigns"][0]["id"]

    # 1. mekref battle ingest
    (tmp_path / "ingested.mul").write_bytes(_bytes(1))
    ingested = run("battle", "ingest", "--db", db, str(tmp_path / "ingested.mul"))
    assert ingested.returncode != 0 and limit in ingested.stderr, ingested.stderr
    assert len(_wait_for(folder, 1)) == 1

    # 2. a folder mekref serve watches (taken on its first scan) and 3. an upload over the API
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "watched.mul").write_bytes(_bytes(2))
    with _serving(tmp_path, env, db, inbox) as address:
        _wait_for(folder, 2)
        with grpc.insecure_channel(address) as channel:
            battles = battle_pb2_grpc.BattleServiceStub(channel)
            request = battle_pb2.UploadBattleFileRequest(
                campaign_id=cid, file_name="uploaded.mul", content=_bytes(3)
            )
            md = (("authorization", f"Bearer {token.stdout.strip()}"),)
            with pytest.raises(grpc.RpcError) as refused:
                battles.UploadBattleFile(request, metadata=md, timeout=60)
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert limit in (refused.value.details() or "")
        reasons = _wait_for(folder, 3)

    assert len(reasons) == 3
    texts = [path.read_text(encoding="utf-8") for path in reasons]
    assert all(limit in text for text in texts), texts
    for name in ("ingested.mul", "watched.mul", "uploaded.mul"):
        assert any(name in text for text in texts), (name, texts)
    # Nothing went to the built-in default beside the database.
    assert not (tmp_path / "quarantine").exists()
