"""RulesService: every rule set through one door, with each rule set's own visibility rule.

Commands, events and views are typed messages generated from the rule sets' dataclasses
(:mod:`mekref.daemon.grpc.typed`); the deprecated JSON fields carry the same values as text.
ListRuleSets describes every command field by field, from the same dataclasses. A side's
token runs only the commands its rule set says that side gives (``RuleSet.acting_side``), and
reads only what the rule set's :class:`~mekref.rules.kernel.SideViews` lets it see.
"""

from __future__ import annotations

from typing import Any

import grpc

from mekref.daemon.campaigns import Executed
from mekref.daemon.grpc import auth, typed
from mekref.daemon.grpc.errors import ApiError, denied, invalid
from mekref.daemon.grpc.services.base import (
    Context,
    Services,
    campaign_caller,
    legacy_text,
    rpc,
    wants_legacy_json,
)
from mekref.daemon.grpc.services.campaign import campaign_message
from mekref.daemon.grpc.services.command_input import (
    REFEREE_ACTOR,
    command_data,
    decode,
    referee_command,
)
from mekref.daemon.grpc.tokens import Principal
from mekref.daemon.typed_commands import campaign_names
from mekref.rules.codec import canonical_json
from mekref.rules.kernel import RuleSet, describe_json
from mekref.rules.messages import Command, message_to_json
from mekref.rules.refusal import Refusal
from mekref.rules.registry import all_rulesets, ruleset
from mekref.rules.schema import FieldSchema, command_schema
from mekref.v1 import rules_pb2, rules_pb2_grpc


def _field(f: FieldSchema) -> rules_pb2.FieldSchema:
    return rules_pb2.FieldSchema(
        name=f.name,
        type=f.type,
        required=f.required,
        allowed_values=list(f.allowed),
        default_json=canonical_json(f.default),
    )


def ruleset_message(game: RuleSet[Any]) -> rules_pb2.RuleSetInfo:
    commands = []
    for cls in game.commands.classes():
        schema = command_schema(cls)
        commands.append(
            rules_pb2.CommandSchema(
                type=schema.type,
                description=schema.doc,
                fields=[_field(f) for f in schema.fields],
                objects=[
                    rules_pb2.ObjectSchema(name=name, fields=[_field(f) for f in fields])
                    for name, fields in schema.objects
                ],
                example_json=canonical_json(schema.example),
                setup=cls in game.setup,
            )
        )
    return rules_pb2.RuleSetInfo(name=game.name, title=game.title, commands=commands)


def _outcomes(
    game: RuleSet[Any], state: Any, executed: Executed, side: str | None, legacy: bool
) -> list[rules_pb2.EventOutcome]:
    out = []
    for seq, event in enumerate(executed.events, start=executed.first_seq):
        whole = message_to_json(event)
        seen = game.event_for(state, whole, side)
        if seen is None:
            continue  # the caller's command caused it, but it is not the caller's to see
        # The rule set's words for an event the reader sees whole; a cut one (a hand face
        # down) only by its visible fields, so the words cannot tell what the cut hides.
        text = game.outcome(event) if side is None or seen == whole else describe_json(seen)
        out.append(
            rules_pb2.EventOutcome(
                seq=seq,
                type=event.TYPE,
                outcome=text,
                event_json=legacy_text(legacy, seen),
                event=typed.ruleset_event(game, seen),
            )
        )
    return out


class RulesServicer(rules_pb2_grpc.RulesServiceServicer):
    def __init__(self, services: Services) -> None:
        self.s = services

    @rpc
    async def ListRuleSets(
        self, request: rules_pb2.ListRuleSetsRequest, context: Context
    ) -> rules_pb2.ListRuleSetsResponse:
        auth.current_principal()
        return rules_pb2.ListRuleSetsResponse(
            rule_sets=[ruleset_message(game) for game in all_rulesets()]
        )

    @rpc
    async def StartCampaign(
        self, request: rules_pb2.StartCampaignRequest, context: Context
    ) -> rules_pb2.StartCampaignResponse:
        auth.require_global_referee(auth.current_principal())
        legacy = wants_legacy_json(context)
        if not request.name.strip():
            raise invalid("name", "a campaign needs a name")
        try:
            game = ruleset(request.ruleset)
        except Refusal:
            # Only an unknown name: a rule set that fails to load is a server fault, not this.
            raise invalid(
                "ruleset", f"no rule set {request.ruleset!r}", "unknown_ruleset"
            ) from None
        data, field = command_data(game, request, {}, start=True)
        command = decode(game, data, REFEREE_ACTOR, field)
        if not isinstance(command, game.setup):
            names = ", ".join(c.TYPE for c in game.setup)
            raise invalid("command", f"a {game.name} campaign starts with {names}")

        def start() -> rules_pb2.StartCampaignResponse:
            executed = self.s.runner.start(request.name, game.name, command)
            campaign = self.s.store.get_campaign(executed.campaign_id)
            return rules_pb2.StartCampaignResponse(
                campaign=campaign_message(campaign, game, executed.state, executed.last_seq),
                events=_outcomes(game, executed.state, executed, None, legacy),
            )

        return await self.s.run(context, start)

    @rpc
    async def ExecuteCommand(
        self, request: rules_pb2.ExecuteCommandRequest, context: Context
    ) -> rules_pb2.ExecuteCommandResponse:
        cid, principal = campaign_caller(request)
        legacy = wants_legacy_json(context)
        game, state = await self.s.run(context, self._current, cid)
        data, field = command_data(game, request, campaign_names(game, state))
        if principal.is_referee:
            command = referee_command(game, state, data, field)
        else:
            command = decode(game, data, str(principal.side_id), field)
        self._authorize(principal, game, state, command)
        executed = await self.s.execute(context, cid, command)
        return rules_pb2.ExecuteCommandResponse(
            first_seq=executed.first_seq,
            last_seq=executed.last_seq,
            events=_outcomes(game, executed.state, executed, principal.side_id, legacy),
        )

    @rpc
    async def GetView(
        self, request: rules_pb2.GetViewRequest, context: Context
    ) -> rules_pb2.GetViewResponse:
        cid, principal = campaign_caller(request)
        side: str | None = principal.side_id
        if principal.is_referee:
            side = request.side_id or None
        elif request.side_id and request.side_id != principal.side_id:
            raise denied("this token acts for another side")
        legacy = wants_legacy_json(context)

        def view() -> rules_pb2.GetViewResponse:
            loaded = self.s.runner.load(cid)
            game = self.s.runner.game(cid)
            if side is not None and side not in game.sides_of(loaded.state):
                raise invalid("side_id", "no such side in this campaign", "unknown_side")
            seen = game.view_for(loaded.state, side)
            # The words come from the same builder as `mekref game report --side`.
            sections = game.report_for(loaded.state, side) if game.summarize else ()
            return rules_pb2.GetViewResponse(
                side_id=side or "",
                last_seq=loaded.last_seq,
                view_json=legacy_text(legacy, seen),
                state_hash=game.state_hash(loaded.state) if side is None else "",
                view=typed.ruleset_view(game, seen, side),
                report=[rules_pb2.ReportSection(title=s.title, lines=s.lines) for s in sections],
            )

        return await self.s.run(context, view)

    def _current(self, cid: str) -> tuple[RuleSet[Any], Any]:
        return self.s.runner.game(cid), self.s.runner.load(cid).state

    @staticmethod
    def _authorize(principal: Principal, game: RuleSet[Any], state: Any, command: Command) -> None:
        if principal.is_referee:
            return
        if isinstance(command, game.setup):
            raise denied("only the referee sets a campaign up")
        if game.acting_side(state, command) != principal.side_id:
            # The same answer whether the command is the referee's or another side's.
            raise ApiError(
                grpc.StatusCode.PERMISSION_DENIED,
                f"{command.TYPE} as given is not a command your side gives (this token acts "
                f"for {principal.side_id}): it is the referee's or another side's",
                "not_your_command",
            )
