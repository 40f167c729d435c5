"""A stand-in for TripWire's battle-file capability that exercises the daemon, not the rules.

Tests only. It implements :class:`~mekref.rules.battle_files.BattleFiles` with the smallest
real rules command there is: every battle file
credits 1 WP to the pool of the side whose units it names. That is enough to prove what the
daemon owns: a file applied once (one event per file), held, quarantined, or skipped.

File names steer the odd cases: ``ambiguous`` raises AmbiguousMatch, ``refuse`` asks for a
debit the empty pool cannot pay (the rules refuse it), ``notfor`` raises FileNotForCampaign.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.rules.battle_files import (
    AfterBattle,
    AmbiguousMatch,
    FileNotForCampaign,
    FileRequest,
    Waiting,
)
from mekref.rules.messages import Command
from mekref.rules.tripwire.commands import CreditPool, DebitPool
from mekref.rules.tripwire.state import CampaignState


def _ids(mul: MulFile) -> set[str]:
    ids = {e.external_id for e in mul.entities if e.external_id}
    ids |= {m.external_id for e in mul.entities for m in e.members if m.external_id}
    return ids


class FakeBattleFiles:
    def matches(self, state: CampaignState, mul: MulFile) -> bool:
        return bool(_ids(mul) & (set(state.units) | set(state.people)))

    def command(
        self,
        state: CampaignState,
        mul: MulFile,
        request: FileRequest,
        designs: DesignLookup | None,
    ) -> Command:
        name = request.name.lower()
        units = sorted(_ids(mul) & set(state.units))
        if "notfor" in name or not units:
            raise FileNotForCampaign("no unit id of the file is in the campaign")
        if "ambiguous" in name:
            raise AmbiguousMatch("Huscarl", (), "Huscarl HSCL-1-OA: units u1, u2 both fit")
        side = state.units[units[0]].side_id
        pool = min(p.pool_id for p in state.pools.values() if p.side_id == side)
        reason = f"file {request.sha256[:12]}"
        if "refuse" in name:
            return DebitPool(actor=request.actor, pool_id=pool, amount=10_000, reason=reason)
        return CreditPool(actor=request.actor, pool_id=pool, amount=1, reason=reason)

    def reporting_side(self, state: CampaignState, command: Command) -> str | None:
        return None

    def battle_of(self, command: Command) -> str | None:
        return None

    def waiting(self, state: CampaignState) -> tuple[Waiting, ...]:
        return ()

    def held_opened_by(self, state: CampaignState, side_id: str) -> tuple[str, ...]:
        return ()

    def battle_of_file(self, state: CampaignState, sha256: str) -> str | None:
        return None

    def waiting_for_file(self, state: CampaignState, sha256: str) -> Waiting | None:
        return None

    def warnings(self, command: Command) -> tuple[str, ...]:
        return ()

    def after_battles(self, state: CampaignState) -> tuple[AfterBattle, ...]:
        return ()


def install() -> None:
    """Make TripWire campaigns take battle files through the stand-in (this process only)."""
    from mekref.rules.tripwire import game

    game.TRIPWIRE = replace(game.TRIPWIRE, battle_files=FakeBattleFiles())
