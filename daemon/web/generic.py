"""The page of a campaign under any other rule set, built from its command schemas.

The rule set's side view (RulesService.GetView), one form per command it lists (the fields of
``mekref game commands``; a value is read as JSON when it parses, else as text), the outcome of
each command in the rule set's words (RulesService.ExecuteCommand, which checks the side as it
does for a gRPC client), and the live feed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mekref.daemon.grpc import typed
from mekref.daemon.grpc.tokens import Principal
from mekref.daemon.web.calls import PageRefusal, call
from mekref.daemon.web.site import RulesetPages, Site
from mekref.v1 import rules_pb2


async def _schema(site: Site, principal: Principal, ruleset: str) -> Any:
    listed = await call(principal, site.rules.ListRuleSets, rules_pb2.ListRuleSetsRequest())
    return next((r for r in listed.rule_sets if r.name == ruleset), None)


async def home(site: Site, request: Request, principal: Principal, cid: str) -> Response:
    campaign = await site.campaign(principal, cid)
    view = await call(principal, site.rules.GetView, rules_pb2.GetViewRequest(campaign_id=cid))
    schema = await _schema(site, principal, campaign.ruleset)
    commands = [c for c in (schema.commands if schema else ()) if not c.setup]
    return site.render(
        request,
        "generic.html",
        campaign=campaign,
        title=schema.title if schema else campaign.ruleset,
        side_id=view.side_id or "referee",
        view=json.dumps(typed.view_json(view.view), indent=2, ensure_ascii=False),
        commands=commands,
        defaults={
            c.type: {f.name: "" if f.default_json == "null" else f.default_json for f in c.fields}
            for c in commands
        },
    )


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


#: The request field the page fills from its form: a refusal naming it names the form instead.
_FIELD = "command_json: "


def _for_page(message: str) -> str:
    """The API's refusal as the page's user reads it: the page sent the form as the request's
    ``command_json``, a field the user never saw, so the refusal is about the form's values."""
    if not message.startswith(_FIELD):
        return message
    return f"the form's values were refused: {message.removeprefix(_FIELD)}"


def _routes(site: Site) -> Sequence[BaseRoute]:
    async def execute(request: Request) -> Response:
        cid, principal = await site.who(request)
        form = await site.form(request)
        kind = str(form.get("type") or "")
        command: dict[str, Any] = {"type": kind}
        for key, given in form.multi_items():
            if key.startswith("f.") and isinstance(given, str) and given.strip():
                command[key[2:]] = _value(given.strip())
        try:
            done = await call(
                principal,
                site.rules.ExecuteCommand,
                rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=json.dumps(command)),
            )
        except PageRefusal as refusal:
            site.flash(request, "refused", f"{kind}: {_for_page(refusal.message)}")
            return site.back(cid)
        for outcome in done.events:
            site.flash(request, "ok", f"{outcome.type}: {outcome.outcome}")
        if not done.events:
            site.flash(request, "ok", f"{kind}: done")
        return site.back(cid)

    return [Route("/c/{cid}/command", execute, methods=["POST"])]


def pages() -> RulesetPages:
    """Every rule set without pages of its own (registered as the fallback)."""
    return RulesetPages("", _routes, home)
