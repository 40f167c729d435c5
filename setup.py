"""Map the fixed top-level folders onto the ``mekref`` import namespace, and generate the API.

``daemon/`` installs as ``mekref.daemon``, ``adapters/megamek/`` as ``mekref.adapters.megamek``
and so on (see docs/architecture.md). Bare top-level names would collide with popular packages.
Subpackages are discovered by walking each folder for ``__init__.py``.

``mekref.v1`` (the gRPC API code) is not in the source tree: every build generates it from
``proto/mekref/v1/*.proto`` with ``proto/generate.py`` before anything lists or copies package
files, so ``pip install .``, a wheel, an sdist and ``pipx install`` all carry it (grpcio-tools and
mypy-protobuf are build requirements in pyproject.toml).
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent

ROOTS = {
    "mekref.daemon": "daemon",
    "mekref.rules": "rules",
    "mekref.hexmap": "hexmap",
    "mekref.adapters.megamek": "adapters/megamek",
    "mekref.v1": "proto/gen/mekref/v1",
}
GENERATED = "mekref.v1"


def _generate_api() -> None:
    spec = importlib.util.spec_from_file_location(
        "mekref_proto_generate", HERE / "proto/generate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.generate()


# egg_info (metadata, SOURCES.txt) runs first in every build path and lists package files;
# build_py copies them; sdist lists them. Each regenerates, so no path sees stale or missing code.
class EggInfoWithApi(egg_info):
    def run(self) -> None:
        _generate_api()
        super().run()


class BuildPyWithApi(build_py):
    """Also ships the .proto files inside the package (mekref/v1/*.proto), so tools written
    in other languages can generate their own stubs from an installed mekref."""

    def run(self) -> None:
        _generate_api()
        super().run()
        if not self.editable_mode:
            for source in self._proto_sources():
                self.copy_file(str(source), str(self._proto_target(source)))

    def _proto_sources(self) -> list[Path]:
        return sorted((HERE / "proto" / "mekref" / "v1").glob("*.proto"))

    def _proto_target(self, source: Path) -> Path:
        return Path(self.build_lib, "mekref", "v1", source.name)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        return [*outputs, *(str(self._proto_target(s)) for s in self._proto_sources())]


class SdistWithApi(sdist):
    def run(self) -> None:
        _generate_api()
        super().run()


#: Folders of data files with no __init__.py that ship inside a package: listed as packages of
#: their own, as setuptools asks (else it warns that they are "absent from packages").
DATA_PACKAGES = ("mekref.daemon.web.static", "mekref.daemon.web.templates")


def _packages() -> list[str]:
    found: list[str] = [GENERATED, *DATA_PACKAGES]
    for package, folder in ROOTS.items():
        if package == GENERATED:
            continue
        base = HERE / folder
        for init in sorted(base.rglob("__init__.py")):
            rel = init.parent.relative_to(base)
            found.append(".".join([package, *rel.parts]))
    return found


setup(
    packages=_packages(),
    package_dir=dict(ROOTS),
    package_data={
        "": [
            *("*.toml", "*.json", "*.jsonl", "*.mul", "*.mtf", "*.blk", "*.bfs"),
            *("*.pyi", "py.typed", "Units.txt"),
            # The players' pages: templates and their one stylesheet and script.
            *("*.html", "*.css", "*.js"),
        ],
    },
    include_package_data=True,
    cmdclass={"egg_info": EggInfoWithApi, "build_py": BuildPyWithApi, "sdist": SdistWithApi},
)
