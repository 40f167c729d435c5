"""TripWire's "accepts battle files" capability: a MegaMek file becomes a battle report.

The daemon's battle-file pipeline calls this through
:class:`~mekref.rules.battle_files.BattleFiles`; the matching and the translation into the
rules' own data live in :mod:`.battle_input`, the battle rules in :mod:`.battles`.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.rules.battle_files import AfterBattle, FileRequest, Waiting
from mekref.rules.messages import Command
from mekref.rules.records import built_from
from mekref.rules.tripwire import battle_input, battle_link, battle_pending, file_view
from mekref.rules.tripwire.battle_book import BattleStatus
from mekref.rules.tripwire.battle_messages import SubmitBattleReport
from mekref.rules.tripwire.state import CampaignState


def _waiting(p: battle_pending.PendingBattle) -> Waiting:
    return built_from(Waiting, p)


class TripWireBattleFiles:
    def matches(self, state: CampaignState, mul: MulFile) -> bool:
        return battle_input.campaign_matches(state, mul)

    def command(
        self,
        state: CampaignState,
        mul: MulFile,
        request: FileRequest,
        designs: DesignLookup | None,
    ) -> Command:
        command = battle_input.report_command(
            state,
            mul,
            sha256=request.sha256,
            path=request.name,
            design_for=designs,
            actor=request.actor,
            assigned=request.assigned,
        )
        if request.uploaded_by is not None and isinstance(command, SubmitBattleReport):
            command = replace(command, file=replace(command.file, uploaded_by=request.uploaded_by))
        if request.battle_id and isinstance(command, SubmitBattleReport):
            command = replace(command, battle_id=request.battle_id)
        if request.confirmed is not None and isinstance(command, SubmitBattleReport):
            command = replace(command, note=request.confirmed)
        return command

    def reporting_side(self, state: CampaignState, command: Command) -> str | None:
        if not isinstance(command, SubmitBattleReport):
            return None
        return file_view.reporting_side(state, command.file)

    def battle_of(self, command: Command) -> str | None:
        return command.battle_id if isinstance(command, SubmitBattleReport) else None

    def waiting(self, state: CampaignState) -> tuple[Waiting, ...]:
        return tuple(_waiting(p) for p in battle_pending.pending_battles(state))

    def held_opened_by(self, state: CampaignState, side_id: str) -> tuple[str, ...]:
        # The first file opened the battle; counted against the side whose token uploaded it
        # (a file the referee brought in opens the battle on the referee's word, not the side's).
        return tuple(
            b.battle_id
            for b in state.battles.battles.open_battles()
            if b.held and b.files and b.files[0].uploaded_by == side_id
        )

    def battle_of_file(self, state: CampaignState, sha256: str) -> str | None:
        return state.battles.battles.battle_of_file(sha256)

    def view_of_file(self, state: CampaignState, sha256: str) -> str | None:
        book = state.battles.battles
        battle_id = book.battle_of_file(sha256)
        battle = book.get(battle_id) if battle_id is not None else None
        found = [f for f in (battle.files if battle is not None else ()) if f.sha256 == sha256]
        return found[0].reporting_side if found else None

    def waiting_for_file(self, state: CampaignState, sha256: str) -> Waiting | None:
        book = state.battles.battles
        battle_id = book.battle_of_file(sha256)
        battle = book.get(battle_id) if battle_id is not None else None
        if battle is None or battle.status is not BattleStatus.OPEN:
            return None
        return _waiting(battle_pending.pending(state, battle))

    def after_battles(self, state: CampaignState) -> tuple[AfterBattle, ...]:
        return tuple(
            AfterBattle(
                battle_id=t.battle_id,
                engagement_id=t.engagement_id,
                hex=t.hex,
                formations=t.formations,
                text=t.sentence(),
            )
            for t in battle_link.after_battles(state)
        )

    def warnings(self, command: Command) -> tuple[str, ...]:
        if not isinstance(command, SubmitBattleReport):
            return ()
        return battle_input.unpriced_warnings(command.file)
