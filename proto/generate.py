"""Generate the ``mekref.v1`` API code from ``proto/mekref/v1/*.proto`` for ``mekref-api``.

One generator for every way in: ``make proto`` runs this file, and ``clients/api/setup.py`` (the
build hook of the ``mekref-api`` distribution, behind ``pip install ./clients/api``, its wheel,
its sdist and ``pipx install --preinstall ./clients/api``) imports it, so an installed mekref-api
always has the code its ``.proto`` files describe. Needs ``grpcio-tools`` and ``mypy-protobuf``
(the build requirements in clients/api/pyproject.toml's ``[build-system]``).

Output, in ``clients/api/gen/mekref/v1`` (where the mekref-api package takes it, so an editable
install sees what ``make proto`` wrote): ``*_pb2.py``, ``*_pb2_grpc.py``, their ``.pyi`` type
stubs, ``py.typed`` and an ``__init__.py``. (clients/api/setup.py copies the ``.proto`` files
themselves into the built package, so an installed mekref-api carries its contract:
``protoc -I <site-packages> mekref/v1/campaign.proto`` works.)

Usage: ``python proto/generate.py`` (from any folder).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = ("mekref", "v1")
#: Where ``make proto`` writes in a checkout: the generated folder of the mekref-api package.
CHECKOUT_OUT = HERE.parent / "clients" / "api" / "gen"

INIT = '"""Generated gRPC API code for mekref (from proto/mekref/v1/*.proto; do not edit)."""\n'


class GenerationError(RuntimeError):
    """protoc or one of its plug-ins is missing or failed; the message says what to install."""


def _mypy_plugins() -> list[str]:
    """protoc finds its plug-ins on PATH; name them explicitly so a build environment whose
    scripts folder is not on PATH still gets the type stubs."""
    found: list[str] = []
    folders = [sysconfig.get_path("scripts"), str(Path(sys.executable).parent)]
    for plugin in ("protoc-gen-mypy", "protoc-gen-mypy_grpc"):
        exe = plugin + (".exe" if os.name == "nt" else "")
        where = next((str(Path(d) / exe) for d in folders if (Path(d) / exe).is_file()), None)
        where = where or shutil.which(plugin)
        if where is None:
            raise GenerationError(
                f"{plugin} not found: install mypy-protobuf (a build requirement of mekref-api)"
            )
        found.append(f"--plugin={plugin}={where}")
    return found


def generate(root: Path = HERE, out: Path | None = None) -> list[Path]:
    """Generate the API code of ``root/mekref/v1/*.proto`` into ``out`` (``root/gen``).

    Returns the files written. Raises :class:`GenerationError` when there are no ``.proto``
    files or the tools are missing, so a build never ships a package without its API."""
    out = out or root / "gen"
    sources = sorted((root.joinpath(*PACKAGE)).glob("*.proto"))
    if not sources:
        raise GenerationError(f"no .proto files in {root.joinpath(*PACKAGE)}")
    try:
        from grpc_tools import protoc  # noqa: F401  (only to fail early with a clear message)
    except ImportError as exc:
        raise GenerationError(
            "grpc_tools not importable: install grpcio-tools (a build requirement of mekref-api)"
        ) from exc
    target = out.joinpath(*PACKAGE)
    target.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "grpc_tools.protoc", f"-I{root}",
        f"--python_out={out}", f"--grpc_python_out={out}",
        *_mypy_plugins(),
        f"--mypy_out=quiet:{out}", f"--mypy_grpc_out=quiet:{out}",
        *(str(s.relative_to(root)) for s in sources),
    ]  # fmt: skip
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise GenerationError(f"protoc failed:\n{done.stdout}{done.stderr}")
    (target / "__init__.py").write_text(INIT, encoding="utf-8")
    (target / "py.typed").write_text("", encoding="utf-8")
    # mekref/__init__.py is not written: mekref is a namespace package (see setup.py).
    return sorted(p for p in target.iterdir() if p.is_file())


def main() -> int:
    try:
        written = generate(HERE, CHECKOUT_OUT)
    except GenerationError as exc:
        print(f"proto/generate.py: {exc}", file=sys.stderr)
        return 1
    # Named from the checkout's root, as make prints everything else.
    where = CHECKOUT_OUT.joinpath(*PACKAGE).relative_to(HERE.parent)
    print(f"generated {len(written)} files in {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
