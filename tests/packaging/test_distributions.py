"""The three distributions of a checkout, built as wheels and installed into fresh venvs.

``mekref-api`` (clients/api) alone installs ``mekref/v1``; the server (``mekref``) and
``mekref-client`` (clients/python) both require it, share no file, and removing either leaves
the other working (issue 32; docs/install.md). The wheels are built from a copy of the sources
with this venv's build tools (no network); each fresh venv sees this venv's third-party
packages through a folder of links that leaves out every mekref distribution, so only the
wheels under test provide ``mekref``, and ``pip install --no-index`` proves their declared
dependencies resolve among themselves. .ci/wheel-check does the same with a real index.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from console_script import MEKREF

ROOT = Path(__file__).resolve().parents[2]
SERVER_PARTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE")
SERVER_TREES = ("daemon", "rules", "hexmap", "adapters")
LEFT_OUT = shutil.ignore_patterns("__pycache__", "build", "gen", "*.egg-info", "proto")
#: No mekref distribution, editable link or pip of this venv may leak into a fresh one.
NOT_SHARED = ("mekref", "__editable__", "pip", "_virtualenv")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return {**env, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "NO_COLOR": "1"}


def _run(*args: str | Path, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=_env(),
        check=False,
    )


def _copy_sources(to: Path) -> dict[str, Path]:
    """The three projects' sources, laid out as in a checkout (clients/api finds ../../proto)."""
    for name in SERVER_PARTS:
        shutil.copy2(ROOT / name, to / name)
    for tree in SERVER_TREES:
        shutil.copytree(ROOT / tree, to / tree, ignore=shutil.ignore_patterns("__pycache__"))
    (to / "proto" / "mekref").mkdir(parents=True)
    shutil.copy2(ROOT / "proto" / "generate.py", to / "proto" / "generate.py")
    shutil.copytree(ROOT / "proto" / "mekref" / "v1", to / "proto" / "mekref" / "v1")
    for client in ("api", "python"):
        shutil.copytree(ROOT / "clients" / client, to / "clients" / client, ignore=LEFT_OUT)
    return {"api": to / "clients" / "api", "server": to, "client": to / "clients" / "python"}


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("dists")
    (tmp / "src").mkdir()
    built: dict[str, Path] = {}
    for name, project in _copy_sources(tmp / "src").items():
        out = tmp / "dist" / name
        done = _run(
            sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
            "--no-build-isolation", "--wheel-dir", out, project,
            cwd=tmp,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        (built[name],) = out.glob("*.whl")
    return built


def _installed_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {n for n in archive.namelist() if ".dist-info/" not in n}


def _fresh_venv(where: Path) -> Path:
    """A new venv whose only mekref is what gets installed into it; returns its python."""
    done = _run(sys.executable, "-m", "venv", where / "venv", cwd=where)
    assert done.returncode == 0, done.stderr
    python = where / "venv" / "bin" / "python"
    deps = where / "deps"
    deps.mkdir()
    for source in map(Path, site.getsitepackages()):
        for entry in source.iterdir():
            if entry.name.startswith(NOT_SHARED) or entry.suffix == ".pth":
                continue
            if not (deps / entry.name).exists():
                (deps / entry.name).symlink_to(entry)
    purelib = _run(
        python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=where
    )
    Path(purelib.stdout.strip(), "zz_this_venvs_dependencies.pth").write_text(f"{deps}\n")
    return python


def _install(python: Path, *wheels: Path) -> None:
    done = _run(python, "-m", "pip", "install", "--quiet", "--no-index", *wheels, cwd=python.parent)
    assert done.returncode == 0, done.stderr


def _uninstall(python: Path, name: str) -> None:
    done = _run(python, "-m", "pip", "uninstall", "--yes", name, cwd=python.parent)
    assert done.returncode == 0, done.stderr
    assert f"Successfully uninstalled {name}" in done.stdout


def _imports(python: Path, module: str, cwd: Path) -> bool:
    return _run(python, "-c", f"import {module}", cwd=cwd).returncode == 0


@contextmanager
def _serving(mekref: Path, run: Path) -> Iterator[str]:
    """``mekref serve --grpc 127.0.0.1:0`` with that console script; yields its address."""
    args = [mekref, "serve", "--db", run / "c.db", "--create", "--grpc", "127.0.0.1:0"]
    server = subprocess.Popen(
        [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=run, env=_env(),
    )  # fmt: skip
    watchdog = threading.Timer(120, server.kill)
    watchdog.start()
    try:
        assert server.stdout is not None
        address = next(
            (ln.removeprefix("listening on ").strip() for ln in server.stdout
             if ln.startswith("listening on ")),
            None,
        )  # fmt: skip
        watchdog.cancel()
        assert address, f"mekref serve never listened: {server.communicate(timeout=30)[1]}"
        yield address
    finally:
        watchdog.cancel()
        server.terminate()
        server.communicate(timeout=60)


def test_the_server_and_the_client_share_no_file(wheels: dict[str, Path]) -> None:
    api, server, client = (_installed_files(wheels[n]) for n in ("api", "server", "client"))
    assert server & client == set()
    assert api & server == set() and api & client == set()
    assert {"mekref/v1/campaign_pb2.py", "mekref/v1/campaign.proto"} <= api
    assert not [n for n in server | client if n.startswith("mekref/v1/")]
    assert "mekref/client/__init__.py" in client
    assert "mekref/daemon/cli.py" in server


def test_removing_the_client_leaves_the_server_serving(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    python = _fresh_venv(tmp_path)
    _install(python, wheels["api"], wheels["server"], wheels["client"])
    assert _imports(python, "mekref.client", tmp_path)
    _uninstall(python, "mekref-client")
    assert not _imports(python, "mekref.client", tmp_path)
    with _serving(python.with_name("mekref"), tmp_path) as address:
        probe = _run(python, "-m", "mekref.daemon.healthcheck", address, cwd=tmp_path)
    assert (probe.returncode, probe.stdout.strip()) == (0, f"{address}: SERVING"), probe.stderr


CLIENT_SCRIPT = """
import sys
from mekref.client import connect
from mekref.v1 import common_pb2, diagnostics_pb2, diagnostics_pb2_grpc
with connect(sys.argv[1], sys.argv[2]) as channel:
    me = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel).WhoAmI(
        diagnostics_pb2.WhoAmIRequest(), timeout=30)
print(common_pb2.Role.Name(me.role))
"""


def test_removing_the_server_leaves_the_client_working(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    python = _fresh_venv(tmp_path)
    _install(python, wheels["api"], wheels["client"], wheels["server"])
    assert _imports(python, "mekref.daemon", tmp_path)
    _uninstall(python, "mekref")
    assert not _imports(python, "mekref.daemon", tmp_path)
    assert not python.with_name("mekref").exists()
    # A server of this checkout's venv to talk to, and a referee token of its store.
    made = _run(MEKREF, "campaign", "new", "--db", tmp_path / "c.db", "--name", "C", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    issued = _run(MEKREF, "token", "create", "--db", tmp_path / "c.db", "--referee", cwd=tmp_path)
    token = next(w for w in issued.stdout.split() if w.startswith("mkr_"))
    with _serving(MEKREF, tmp_path) as address:
        who = _run(python, "-c", CLIENT_SCRIPT, address, token, cwd=tmp_path)
    assert (who.returncode, who.stdout.strip()) == (0, "ROLE_REFEREE"), who.stderr
