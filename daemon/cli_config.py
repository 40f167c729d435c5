"""``mekref config show``: every setting, its value and where it comes from."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mekref.daemon import exit_codes
from mekref.daemon.settings import CONFIG_ENV, ENV, FILE_NAME, gather, user_config_dir
from mekref.daemon.store.open import redact

HELP = "show each setting, its value and where it comes from"
DESCRIPTION = f"""\
Show the value every command would use for each setting, and where it comes from. A flag on
the command line wins over an environment variable, which wins over the settings file, which
wins over the built-in default.

The settings file is the first of: ${CONFIG_ENV}; {FILE_NAME} in the working folder;
{FILE_NAME} in the user's config folder (here: {{user}}). Its keys are those of mekref serve,
one per line (db = "camp.db", watch = ["~/megamek/logs"], grpc_address = "127.0.0.1:50051",
units_dir = "~/megamek/data/mekfiles", ...; see docs/cli.md); relative paths in it are taken
from the file's folder.

environment: {", ".join(f"{name} ({key})" for key, name in ENV.items())}; MEKREF_WATCH holds
folders separated like PATH.
"""
EPILOG = """\
examples:
  mekref config show
  MEKREF_DB=~/campaigns/tripwire.db mekref config show --json | jq -r .settings.db.value
  mekref config show --config ~/campaigns/tripwire/mekref.toml
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "config",
        help=HELP,
        description=DESCRIPTION.replace("{user}", "see 'mekref config show'"),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    show = actions.add_parser(
        "show",
        help=HELP,
        description=DESCRIPTION.replace("{user}", str(user_config_dir())),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    show.add_argument("--config", type=Path, metavar="FILE", help="this settings file instead")
    show.add_argument("--json", action="store_true", help="print JSON (for scripts)")
    show.set_defaults(handler=run)


def _text(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return [_text(v) for v in value]
    return value


def run(args: argparse.Namespace) -> int:
    found = gather(config=args.config)
    values = {k: _text(v) for k, v in found.values.items()}
    values["db"] = redact(str(values["db"]))
    searched = [str(Path.cwd() / FILE_NAME), str(user_config_dir() / FILE_NAME)]
    if args.json:
        json.dump(
            {
                "file": str(found.file) if found.file else None,
                "searched": searched,
                "settings": {
                    k: {"value": values[k], "source": found.sources[k]} for k in sorted(values)
                },
            },
            sys.stdout,
            indent=2,
        )
        sys.stdout.write("\n")
        return exit_codes.OK
    print(f"settings file: {found.file or 'none (looked for ' + ' and '.join(searched) + ')'}")
    width = max(len(k) for k in values)
    for key in sorted(values):
        value = values[key]
        shown = "(none)" if value is None or value == [] else json.dumps(value)
        source = found.sources[key]
        print(f"  {key:<{width}} = {shown}   <- {source}")
    return exit_codes.OK
