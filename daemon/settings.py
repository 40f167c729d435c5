"""Where each option's value comes from: a flag, then ``MEKREF_*``, then ``mekref.toml``, then
the built-in default. One place decides it for every command, and ``mekref config show`` prints
the answer with its source.

The settings file is the first of: ``--config FILE`` (serve), ``$MEKREF_CONFIG``, ``mekref.toml``
in the working folder, ``mekref.toml`` in the user's config folder (``~/.config/mekref`` on
Linux, ``~/Library/Application Support/mekref`` on macOS, ``%APPDATA%\\mekref`` on Windows).
Its keys are those of ``mekref serve`` (see ``mekref.daemon.config``); every command takes the
ones it has a flag for (``db``, ``units_dir``...).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from mekref.daemon.config import ConfigError, ServeConfig, load_toml

FILE_NAME = "mekref.toml"
CONFIG_ENV = "MEKREF_CONFIG"

#: The environment variables, by setting. Lists (watch) are separated like PATH (os.pathsep).
ENV: dict[str, str] = {
    "db": "MEKREF_DB",
    "watch": "MEKREF_WATCH",
    "grpc_address": "MEKREF_GRPC",
    "web_address": "MEKREF_WEB",
    "units_dir": "MEKREF_UNITS_DIR",
    "quarantine": "MEKREF_QUARANTINE",
    "max_file_mb": "MEKREF_MAX_FILE_MB",
}
#: The flag that sets each setting, for ``config show`` and messages.
FLAGS: dict[str, str] = {"grpc_address": "--grpc", "web_address": "--web"}

DEFAULT = "built-in default"


def flag_of(key: str) -> str:
    return FLAGS.get(key, "--" + key.replace("_", "-"))


def user_config_dir() -> Path:
    """The user's config folder for mekref, by the platform's convention (platformdirs)."""
    import platformdirs

    return platformdirs.user_config_path("mekref", appauthor=False, roaming=True)


def find_file(
    explicit: Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Path | None:
    """The settings file in force, or None. A file named explicitly must exist."""
    env = os.environ if env is None else env
    named = explicit or (Path(env[CONFIG_ENV]) if env.get(CONFIG_ENV) else None)
    if named is not None:
        named = named.expanduser()
        if not named.is_file():
            how = "--config" if explicit else f"${CONFIG_ENV}"
            raise ConfigError(f"{how} {named}: no such file")
        return named
    for folder in ((cwd or Path.cwd()), user_config_dir()):
        candidate = folder / FILE_NAME
        if candidate.is_file():
            return candidate
    return None


def _env_value(key: str, text: str) -> Any:
    if key == "watch":
        return tuple(Path(p).expanduser() for p in text.split(os.pathsep) if p)
    if key in ("units_dir", "quarantine"):
        return Path(text).expanduser()
    if key == "max_file_mb":
        try:
            return float(text)
        except ValueError:
            raise ConfigError(
                f"{ENV[key]}={text!r}: expected a number of MiB, e.g. {ENV[key]}=64"
            ) from None
    return text


@dataclass(frozen=True)
class Settings:
    """Every setting's value and where it came from (a flag, a variable, a file, default)."""

    values: dict[str, Any]
    sources: dict[str, str]
    file: Path | None

    def get(self, key: str) -> Any:
        return self.values[key]


def gather(
    flags: Mapping[str, Any] | None = None,
    *,
    config: Path | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Settings:
    """Defaults < settings file < environment < flags (``flags`` may hold None: not given)."""
    env = os.environ if env is None else env
    defaults = ServeConfig()
    values: dict[str, Any] = {f.name: getattr(defaults, f.name) for f in fields(ServeConfig)}
    sources = dict.fromkeys(values, DEFAULT)
    file = find_file(config, env=env, cwd=cwd)
    if file is not None:
        for key, value in load_toml(file).items():
            values[key], sources[key] = value, str(file)
    for key, name in ENV.items():
        text = env.get(name)
        if text:
            values[key], sources[key] = _env_value(key, text), name
    for key, value in (flags or {}).items():
        if value is not None:
            values[key], sources[key] = value, flag_of(key)
    return Settings(values, sources, file)


def store_url(flag: str | None) -> tuple[str, str]:
    """The campaign store a command uses, and where that came from."""
    found = gather({"db": flag})
    return str(found.get("db")), found.sources["db"]


def units_dir(flag: Path | None) -> Path | None:
    """MegaMek's unit files folder from --units-dir, MEKREF_UNITS_DIR or the settings file."""
    value: Path | None = gather({"units_dir": flag}).get("units_dir")
    return value
