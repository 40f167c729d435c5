"""Map the fixed top-level folders onto the ``mekref`` import namespace.

``daemon/`` installs as ``mekref.daemon``, ``adapters/megamek/`` as ``mekref.adapters.megamek``
and so on (see docs/architecture.md). Bare top-level names would collide with popular packages.
Subpackages are discovered by walking each folder for ``__init__.py``.

``mekref.v1`` (the gRPC API code and its ``.proto`` files) is not part of this distribution: it
is ``mekref-api`` (clients/api), which the server requires at the same version and which the
client package (``mekref-client``, clients/python) requires too, so the two never install the
same file (docs/install.md).
"""

from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent

ROOTS = {
    "mekref.daemon": "daemon",
    "mekref.rules": "rules",
    "mekref.hexmap": "hexmap",
    "mekref.adapters.megamek": "adapters/megamek",
}
#: Folders of data files with no __init__.py that ship inside a package: listed as packages of
#: their own, as setuptools asks (else it warns that they are "absent from packages").
DATA_PACKAGES = ("mekref.daemon.web.static", "mekref.daemon.web.templates")


def _packages() -> list[str]:
    found: list[str] = [*DATA_PACKAGES]
    for package, folder in ROOTS.items():
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
)
