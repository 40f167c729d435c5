"""mekref-client: only the generated ``mekref.v1`` gRPC code (and its .proto files).

The code is generated at build time by the server's own generator (``proto/generate.py``) from
the server's ``proto/mekref/v1/*.proto``. In a checkout they are found two folders up; an sdist
carries copies (made by the sdist command below), so it builds on its own.
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


class EggInfo(egg_info):
    def run(self) -> None:
        _generate()
        super().run()


class BuildPy(build_py):
    def run(self) -> None:
        _generate()
        super().run()
        if not self.editable_mode:
            for source in _protos():
                self.copy_file(str(source), str(Path(self.build_lib, "mekref", "v1", source.name)))


class Sdist(sdist):
    def run(self) -> None:
        if _in_checkout():
            (SDIST_PROTO / "mekref" / "v1").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CHECKOUT_PROTO / "generate.py", SDIST_PROTO / "generate.py")
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
