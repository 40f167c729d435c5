"""mekref-api: the generated ``mekref.v1`` gRPC code and the ``.proto`` files it comes from.

The one distribution that installs ``mekref/v1``: the server (``mekref``) and the client
package (``mekref-client``) both depend on it, so neither ever installs a file of the other
and removing one leaves the other working (docs/install.md).

The code is generated at build time by ``proto/generate.py`` from ``proto/mekref/v1/*.proto``
into ``gen/`` beside this file (``make proto`` writes to the same place, so an editable install
of this package serves what ``make proto`` and ``make proto-schema`` just wrote). In a checkout
the ``proto`` folder is found two folders up; an sdist carries copies (made by the sdist
command below), so it builds on its own.
"""

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
CHECKOUT_PROTO = HERE.parent.parent / "proto"
SDIST_PROTO = HERE / "proto"
GEN = HERE / "gen"


def _in_checkout() -> bool:
    return HERE.parent.name == "clients" and (CHECKOUT_PROTO / "generate.py").exists()


def _proto_root() -> Path:
    return CHECKOUT_PROTO if _in_checkout() else SDIST_PROTO


def _generate() -> None:
    root = _proto_root()
    spec = importlib.util.spec_from_file_location("mekref_proto_generate", root / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.generate(root, GEN)


def _protos() -> list[Path]:
    return sorted((_proto_root() / "mekref" / "v1").glob("*.proto"))


# egg_info (metadata, SOURCES.txt) runs first in every build path and lists package files;
# build_py copies them; sdist lists them. Each regenerates, so no path sees stale or missing code.
class EggInfo(egg_info):
    def run(self) -> None:
        _generate()
        super().run()


class BuildPy(build_py):
    """Also ships the .proto files inside the package (mekref/v1/*.proto), so tools written
    in other languages can generate their own stubs from an installed mekref-api."""

    def run(self) -> None:
        _generate()
        super().run()
        if not self.editable_mode:
            for source in _protos():
                self.copy_file(str(source), str(self._target(source)))

    def _target(self, source: Path) -> Path:
        return Path(self.build_lib, "mekref", "v1", source.name)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        return [*outputs, *(str(self._target(s)) for s in _protos())]


class Sdist(sdist):
    def run(self) -> None:
        if _in_checkout():
            (SDIST_PROTO / "mekref" / "v1").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CHECKOUT_PROTO / "generate.py", SDIST_PROTO / "generate.py")
            for old in (SDIST_PROTO / "mekref" / "v1").glob("*.proto"):
                old.unlink()  # a .proto removed from the checkout must not linger here
            for source in (CHECKOUT_PROTO / "mekref" / "v1").glob("*.proto"):
                shutil.copyfile(source, SDIST_PROTO / "mekref" / "v1" / source.name)
        _generate()
        super().run()


setup(
    packages=["mekref.v1"],
    package_dir={"mekref.v1": "gen/mekref/v1"},
    package_data={"mekref.v1": ["*.pyi", "py.typed"]},
    cmdclass={"egg_info": EggInfo, "build_py": BuildPy, "sdist": Sdist},
)
