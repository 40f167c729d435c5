"""Map the fixed top-level folders onto the ``mekref`` import namespace.

``daemon/`` installs as ``mekref.daemon``, ``adapters/megamek/`` as ``mekref.adapters.megamek``
and so on (see docs/architecture.md). Bare top-level names would collide with popular packages.
Subpackages are discovered by walking each folder for ``__init__.py``.
"""

from pathlib import Path

from setuptools import setup

ROOTS = {
    "mekref.daemon": "daemon",
    "mekref.rules": "rules",
    "mekref.hexmap": "hexmap",
    "mekref.adapters.megamek": "adapters/megamek",
    "mekref.v1": "proto/gen/mekref/v1",
}


def _packages() -> list[str]:
    found: list[str] = []
    for package, folder in ROOTS.items():
        base = Path(folder)
        for init in sorted(base.rglob("__init__.py")):
            rel = init.parent.relative_to(base)
            found.append(".".join([package, *rel.parts]))
    return found


setup(
    packages=_packages(),
    package_dir=dict(ROOTS),
    package_data={
        "": ["*.toml", "*.json", "*.mul", "*.mtf", "*.blk", "*.bfs", "*.pyi", "py.typed"]
    },
    include_package_data=True,
)
