"""One way to open the app: the configuration from the settings layers, then the app on it.

Every entry point goes through here: ``mekref serve`` (and ``python -m mekref.daemon.grpc``),
every CLI command that opens a campaign store, ``mekref replay``, ``make demo`` and the
benchmarks. So ``mekref battle ingest``, the watched folders and an upload over the API put a
bad file in the same quarantine folder and apply the same size cap, and ``mekref config
show`` prints exactly the values they use.

The layers, last wins: the built-in defaults, ``mekref.toml`` (see ``mekref.daemon.settings``
for where it is looked for), the ``MEKREF_*`` variables, the command-line flags. A replay and
the benchmarks take the defaults and their own flags only (``layered=False``): a replay must
give the same hash on any machine, whatever its settings file says.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mekref.daemon.app import App
from mekref.daemon.campaigns import SNAPSHOT_EVERY
from mekref.daemon.config import ConfigError, ServeConfig
from mekref.daemon.settings import gather
from mekref.daemon.store import open_store

if TYPE_CHECKING:  # a hint only: the MUL model loads with the rule set that reads battle files
    from mekref.adapters.megamek.mul_summary import DesignLookup


def app_config(
    flags: Mapping[str, Any] | None = None,
    *,
    config_file: Path | None = None,
    layered: bool = True,
    serve: bool = False,
) -> ServeConfig:
    """The configuration: defaults < ``mekref.toml`` < ``MEKREF_*`` < ``flags`` (a None in
    ``flags``: not given). ``layered=False`` skips the file and the variables. ``serve``
    checks everything ``mekref serve`` needs (something to watch or serve, TLS files...);
    otherwise only the settings every command uses are checked."""
    if layered:
        values = gather(flags, config=config_file).values
    else:
        defaults = ServeConfig()
        values = {f.name: getattr(defaults, f.name) for f in fields(ServeConfig)}
        values.update({k: v for k, v in (flags or {}).items() if v is not None})
    config = ServeConfig(**values)
    if serve:
        return config.check()
    if config.max_file_mb <= 0:
        raise ConfigError("max_file_mb must be more than zero (MiB)")
    return config


def start_app(
    config: ServeConfig,
    *,
    designs: DesignLookup | None = None,
    create: bool = True,
    snapshot_every: int | None = SNAPSHOT_EVERY,
    durable: bool = True,
) -> App:
    """The app on the store ``config.db`` names; the caller closes it (``App.close``).

    ``create=False`` refuses a store that is not there (``StoreMissing``), so a typo in --db
    never leaves an empty store behind. ``durable=False`` is for a throw-away SQLite store
    (``mekref replay``'s temporary one): commits are not flushed to disk."""
    store = open_store(config.db, create=create, durable=durable)
    return App(config, store, designs, snapshot_every)


@contextmanager
def opened_app(
    config: ServeConfig,
    *,
    designs: DesignLookup | None = None,
    create: bool = True,
    snapshot_every: int | None = SNAPSHOT_EVERY,
    durable: bool = True,
) -> Iterator[App]:
    """:func:`start_app` as a ``with`` block: the app is closed after it."""
    app = start_app(
        config, designs=designs, create=create, snapshot_every=snapshot_every, durable=durable
    )
    try:
        yield app
    finally:
        app.close()
