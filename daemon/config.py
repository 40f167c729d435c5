"""``mekref serve`` settings: defaults, then the TOML file, then MEKREF_* variables, then flags.

A ``mekref.toml`` holds the same settings as the flags, flat, e.g.::

    db = "~/mekref/campaign.db"          # or "postgresql://mekref@dbhost/mekref"
    watch = ["~/megamek/logs", "~/mekref/inbox"]
    recursive = false
    quarantine = "~/mekref/quarantine"
    units_dir = "~/megamek/data/mekfiles"
    poll = 0                             # seconds; > 0 uses polling (network drives)
    rescan = 60                          # seconds between folder rescans
    settle = 1.0                         # seconds a file must stay unchanged (in-place writers)
    max_file_mb = 32                     # larger battle files are quarantined; raise for huge games
    grpc_address = "127.0.0.1:50051"     # also serve the gRPC API there (omit: no API)
    web_address = "127.0.0.1:8080"       # also serve the players' pages (omit: no pages)
    held_battles_per_side = 3            # held battles a side's uploads may keep open (API)
    tls_cert = "server.pem"              # TLS for the API (with tls_key)
    tls_key = "server.key"
    tls_client_ca = "clients-ca.pem"     # mutual TLS: clients must show a certificate it signed
    log_format = "auto"                  # auto | json | console
    log_level = "info"

Relative paths in the file are taken relative to the file's folder, so a campaign folder with
its own ``mekref.toml`` can be moved as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

LOG_FORMATS = ("auto", "json", "console")
#: Battles held for the referee's confirmation (ruling T-E8) that one side's uploads may keep
#: open: enough for a few bouts off the map between two turns, few enough that a side cannot
#: fill the referee's list.
HELD_BATTLES_PER_SIDE = 3


class ConfigError(Exception):
    """The settings cannot be used; the message says which one and what to do."""


def data_dir() -> Path:
    """Where mekref keeps its default database, by the platform's convention (platformdirs):
    ``$XDG_DATA_HOME/mekref`` or ``~/.local/share/mekref`` on Linux,
    ``~/Library/Application Support/mekref`` on macOS, ``%LOCALAPPDATA%\\mekref`` on Windows."""
    import platformdirs  # only when a default is needed: it is not free to import

    return platformdirs.user_data_path("mekref", appauthor=False)


def default_db() -> str:
    return str(data_dir() / "mekref.db")


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True)
class ServeConfig:
    db: str = field(default_factory=default_db)
    watch: tuple[Path, ...] = ()
    recursive: bool = False
    quarantine: Path | None = None  # None: "quarantine" beside the SQLite database
    units_dir: Path | None = None
    poll: float = 0.0
    rescan: float = 60.0
    settle: float = 1.0
    #: Battle files over this many MiB are quarantined unread (a 400-unit record is ~2 MiB);
    #: files over 4 MiB are read entity by entity, so memory stays near the typed model's.
    max_file_mb: float = 32.0
    grpc_address: str | None = None
    #: Also serve the players' pages there (``--web``, docs/web.md); None: no pages.
    web_address: str | None = None
    #: A side's upload that would open one more held battle than this is refused (the API).
    held_battles_per_side: int = HELD_BATTLES_PER_SIDE
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_client_ca: Path | None = None
    log_format: str = "auto"
    log_level: str = "info"

    def quarantine_dir(self) -> Path:
        if self.quarantine is not None:
            return self.quarantine
        if is_postgres(self.db):
            return data_dir() / "quarantine"
        path = self.db.removeprefix("sqlite:///")
        return Path(path).expanduser().parent / "quarantine"

    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)

    def uploads_dir(self) -> Path:
        """Where files uploaded over the API are kept (named by their sha256)."""
        return self.quarantine_dir().parent / "uploads"

    def check(self) -> ServeConfig:
        if not self.watch and not self.grpc_address and not self.web_address:
            raise ConfigError(
                "nothing to do: pass --watch DIR (e.g. MegaMek's logs folder) or set "
                "watch = [...] in the config file, and/or --grpc HOST:PORT to serve the API, "
                "and/or --web HOST:PORT to serve the players' pages"
            )
        if self.grpc_address:
            grpc_host_port(self.grpc_address)
        if self.web_address:
            grpc_host_port(self.web_address, "--web")
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ConfigError("give both --tls-cert and --tls-key, or neither")
        if self.tls_client_ca is not None and self.tls_cert is None:
            raise ConfigError("--tls-client-ca (mutual TLS) needs --tls-cert and --tls-key")
        for name, marker in _PEM_MARKERS.items():
            path = getattr(self, name)
            if path is not None:
                _check_pem(f"--{name.replace('_', '-')}", path, marker)
        for folder in self.watch:
            if not folder.is_dir():
                raise ConfigError(f"{folder}: not a folder; create it or fix the watch setting")
        if self.log_format not in LOG_FORMATS:
            raise ConfigError(f"log format {self.log_format!r}: use one of {LOG_FORMATS}")
        for name in ("poll", "rescan", "settle"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name} must be zero or more seconds")
        if self.max_file_mb <= 0:
            raise ConfigError("max_file_mb must be more than zero (MiB)")
        if self.held_battles_per_side < 0:
            raise ConfigError(
                "held_battles_per_side must be zero or more (0: a side's upload never opens a "
                "held battle; the referee ingests such files)"
            )
        if self.rescan == 0:
            raise ConfigError("rescan must be more than zero seconds (it retries unmatched files)")
        return self


#: What each TLS file must hold; gRPC's own error for a wrong one says only that it
#: cannot listen.
_PEM_MARKERS = {
    "tls_cert": "-----BEGIN CERTIFICATE-----",
    "tls_key": "PRIVATE KEY-----",
    "tls_client_ca": "-----BEGIN CERTIFICATE-----",
}


def _check_pem(option: str, path: Path, marker: str) -> None:
    if not path.is_file():
        raise ConfigError(f"{option} {path}: no such file")
    try:
        text = path.read_bytes()[: 1 << 20].decode("ascii", errors="replace")
    except OSError as exc:
        raise ConfigError(f"{option} {path}: cannot read it: {exc.strerror or exc}") from None
    if marker not in text:
        what = "a private key" if "KEY" in marker else "a certificate"
        raise ConfigError(f"{option} {path}: not {what} in PEM form (no '{marker.strip('-')}')")


_HOST_PORT_HINT = "write HOST:PORT, e.g. 127.0.0.1:50051, [::1]:50051 or 0.0.0.0:0 (0: any port)"


def grpc_host_port(address: str, flag: str = "--grpc") -> tuple[str, int]:
    """``HOST:PORT`` (IPv6 in brackets) split and checked, or :class:`ConfigError`: gRPC
    itself would take ``127.0.0.1:99999`` and listen on some other port."""
    host, sep, port_text = address.rpartition(":")
    if not sep or not host:
        raise ConfigError(f"{flag} {address!r}: no port; {_HOST_PORT_HINT}")
    if ":" in host and not (host.startswith("[") and host.endswith("]")):
        raise ConfigError(f"{flag} {address!r}: put an IPv6 address in brackets; {_HOST_PORT_HINT}")
    if host in ("[]",) or any(c.isspace() for c in host):
        raise ConfigError(f"{flag} {address!r}: no host; {_HOST_PORT_HINT}")
    if not (port_text.isascii() and port_text.isdigit()) or int(port_text) > 65535:
        raise ConfigError(
            f"{flag} {address!r}: port {port_text!r} is not a number from 0 to 65535; "
            f"{_HOST_PORT_HINT}"
        )
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    import ipaddress  # here: only ``serve`` checks an address, and it costs every command

    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


def _path(value: Any, base: Path, key: str) -> Path:
    if not isinstance(value, str):
        raise ConfigError(f"{key}: expected a path as a string, got {value!r}")
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


def _number(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{key}: expected a number of seconds, got {value!r}")
    return float(value)


def load_toml(path: Path) -> dict[str, Any]:
    """The settings in ``path`` as ServeConfig field values (unknown keys are an error)."""
    import tomllib  # here: most commands run without a config file

    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    known = {f.name for f in fields(ServeConfig)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ConfigError(
            f"{path}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    base = path.parent
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "watch":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list):
                raise ConfigError(f"{path}: watch: expected a list of folders")
            out[key] = tuple(_path(v, base, key) for v in items)
        elif key in ("quarantine", "units_dir", "tls_cert", "tls_key", "tls_client_ca"):
            out[key] = _path(value, base, key)
        elif key == "db":
            if not isinstance(value, str):
                raise ConfigError(f"{path}: db: expected a path or postgresql:// URL")
            out[key] = value if "://" in value else str(_path(value, base, key))
        elif key in ("poll", "rescan", "settle", "max_file_mb"):
            out[key] = _number(value, key)
        elif key == "held_battles_per_side":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{path}: {key}: expected a whole number, got {value!r}")
            out[key] = value
        elif key == "recursive":
            if not isinstance(value, bool):
                raise ConfigError(f"{path}: recursive: expected true or false")
            out[key] = value
        else:
            if not isinstance(value, str):
                raise ConfigError(f"{path}: {key}: expected a string")
            out[key] = value
    return out


def build_config(file: Path | None, overrides: dict[str, Any]) -> ServeConfig:
    """``mekref serve``'s settings, checked: defaults < config file < MEKREF_* variables <
    flags (``overrides``: None = not given); see ``mekref.daemon.open_app.app_config``."""
    from mekref.daemon.open_app import app_config  # it builds on this module

    return app_config(overrides, config_file=file, serve=True)
