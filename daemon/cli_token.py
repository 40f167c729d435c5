"""``mekref token``: issue, list and revoke API bearer tokens (see ``DESCRIPTION``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from mekref.daemon import exit_codes
from mekref.daemon.cli_common import (
    CliError,
    add_command,
    add_store,
    campaign_id_of,
    db_origin,
    print_json,
)
from mekref.daemon.grpc.tokens import Role, TokenStore
from mekref.daemon.store import CampaignNotFound, StoreError, StoreMissing, open_store
from mekref.daemon.store.open import redact

DESCRIPTION = """\
Issue, list and revoke bearer tokens for the gRPC API.

A token is printed once and stored only as its sha256, in the campaign database itself (table
api_tokens). A side token acts for one side of one campaign; a referee token for one campaign,
or for every campaign (and may create campaigns) when no campaign is named.
"""

EXIT_OK = exit_codes.OK
EXIT_USAGE = exit_codes.USAGE
EXIT_STORE = exit_codes.STORE

EPILOG = """\
examples:
  mekref token create --db campaign.db --referee
  mekref token create --db campaign.db --side davion --label "Davion Discord bot"
  mekref token create --db campaign.db --campaign 5f0c... --side liao
  mekref token list --db campaign.db
  mekref token revoke --db campaign.db 3fa2c1d09b7e

Send the token as gRPC metadata: 'authorization: Bearer <token>'.
"""


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers,
        "token",
        help="issue, list and revoke API tokens",
        description=DESCRIPTION,
        epilog=EPILOG,
    )
    sub = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    kw: dict[str, Any] = {"epilog": EPILOG}

    create = add_command(sub, "create", help="issue a token (printed once)", **kw)
    add_store(create)
    who = create.add_mutually_exclusive_group(required=True)
    who.add_argument("--side", metavar="SIDE_ID", help="a token acting for this side")
    who.add_argument("--referee", action="store_true", help="a referee token")
    create.add_argument(
        "--campaign",
        metavar="ID",
        help="the campaign: its name, id or a unique start of its id (default: the only one "
        "in the database; for --referee: all)",
    )
    create.add_argument("--label", default="", help="a note saying who holds the token")
    create.add_argument("--json", action="store_true", help="the token and its grant as JSON")
    create.set_defaults(handler=_reported(_create))

    listing = add_command(sub, "list", help="list tokens (ids and grants, never secrets)", **kw)
    add_store(listing)
    listing.add_argument("--json", action="store_true", help="the tokens as JSON")
    listing.set_defaults(handler=_reported(_list))

    revoke = add_command(sub, "revoke", help="revoke a token by its id", **kw)
    add_store(revoke)
    revoke.add_argument("token_id", help="the id shown by 'mekref token list'")
    revoke.set_defaults(handler=_reported(_revoke))


def _reported(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Wrap a handler: a database it cannot open or use is one line on stderr, exit 5."""

    def handler(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except StoreMissing as exc:
            print(f"mekref token: {exc}{db_origin(args)}", file=sys.stderr)
            return EXIT_STORE
        except ValueError as exc:  # a database URL or campaign id that is not one
            print(f"mekref token: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except (StoreError, OSError) as exc:
            print(
                f"mekref token: cannot use the database {redact(args.db)}: {exc}", file=sys.stderr
            )
            return EXIT_STORE

    return handler


def _campaign_for_side(db: str, requested: str | None, side: str) -> tuple[str, str]:
    """The campaign a side token is for, and the side as the campaign spells it (``davion``
    stands for ``Davion``: names are matched without case, as ``game do`` matches them)."""
    from mekref.daemon.open_app import app_config, opened_app
    from mekref.rules.allowed import spelled

    with opened_app(app_config({"db": db}), create=False) as app:
        cid = campaign_id_of(app.store, requested)
        runner = app.runner
        sides = runner.game(cid).sides_of(runner.load(cid).state)
        same = spelled(side, sides)
        if same is not None:
            return cid, same
        known = ", ".join(sorted(sides)) or "none: only referee tokens for this rule set"
        raise ValueError(f"campaign {cid} has no side {side!r} (sides: {known})")


def _create(args: argparse.Namespace) -> int:
    cid: str | None
    try:
        side = args.side
        if side is not None:
            cid, side = _campaign_for_side(args.db, args.campaign, side)
            role = Role.SIDE
        else:
            cid = None
            if args.campaign:
                with open_store(args.db, create=False) as store:
                    cid = campaign_id_of(store, args.campaign)
            role = Role.REFEREE
    except (ValueError, CampaignNotFound, CliError) as exc:
        print(f"mekref token: {exc}", file=sys.stderr)
        return EXIT_USAGE
    with open_store(args.db, create=False) as store:
        issued = TokenStore(store).issue(role, campaign_id=cid, side_id=side, label=args.label)
    grant = "referee" if role is Role.REFEREE else f"side {side}"
    scope = f"campaign {cid}" if cid else "every campaign"
    if args.json:
        print_json(
            {
                "token": issued.secret,
                "token_id": issued.principal.token_id,
                "role": role.value,
                "campaign_id": cid,
                "side_id": side,
                "label": args.label,
            }
        )
    else:
        print(issued.secret)
    print(
        f"token {issued.principal.token_id}: {grant}, {scope}. Shown once: keep it secret.",
        file=sys.stderr,
    )
    return EXIT_OK


def _list(args: argparse.Namespace) -> int:
    with open_store(args.db, create=False) as store:
        records = TokenStore(store).list()
        names = {c.id: c.name for c in store.list_campaigns()}
    if args.json:
        print_json(
            [
                {
                    "token_id": r.principal.token_id,
                    "role": "referee" if r.principal.side_id is None else "side",
                    "campaign_id": r.principal.campaign_id,
                    "campaign_name": names.get(r.principal.campaign_id or ""),
                    "side_id": r.principal.side_id,
                    "label": r.principal.label,
                    "created_at": r.created_at,
                    "revoked_at": r.revoked_at,
                }
                for r in records
            ]
        )
        return EXIT_OK
    for record in records:
        p = record.principal
        state = f"revoked {record.revoked_at}" if record.revoked_at else "active"
        who = "referee" if p.side_id is None else f"side {p.side_id}"
        # The id as 'token create --campaign' takes it back, and the campaign's name beside it.
        named = names.get(p.campaign_id or "")
        scope = p.campaign_id or "every campaign"
        where = f"{scope} ({named})" if named else scope
        print(f"{p.token_id}  {who:<16} {where:<36}  {state}  {p.label}")
    return EXIT_OK


def _revoke(args: argparse.Namespace) -> int:
    with open_store(args.db, create=False) as store:
        if not TokenStore(store).revoke(args.token_id):
            print(
                f"mekref token: no active token {args.token_id} ('mekref token list' shows them)",
                file=sys.stderr,
            )
            return EXIT_USAGE
    print(f"token {args.token_id} revoked (servers notice within a few seconds)")
    return EXIT_OK
