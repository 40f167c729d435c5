"""A stand-in for ``mekref.daemon.battle_input`` that exercises the daemon, not the rules.

Tests only. It follows the battle-ingestion contract (``campaign_matches``, ``report_command``
and the two exceptions) with the smallest real rules command there is: every battle file
credits 1 WP to the pool of the side whose units it names. That is enough to prove what the
daemon owns: a file applied once (one event per file), held, quarantined, or skipped.

File names steer the odd cases: ``ambiguous`` raises AmbiguousMatch, ``refuse`` asks for a
debit the empty pool cannot pay (the rules refuse it), ``notfor`` raises FileNotForCampaign.
"""

from __future__ import annotations

from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.rules.campaign_commands import CreditPool, DebitPool
from mekref.rules.campaign_state import CampaignState
from mekref.rules.messages import Command


class FileNotForCampaign(Exception):
    pass


class AmbiguousMatch(Exception):
    pass


def _ids(mul: MulFile) -> set[str]:
    ids = {e.external_id for e in mul.entities if e.external_id}
    ids |= {m.external_id for e in mul.entities for m in e.members if m.external_id}
    return ids


def campaign_matches(state: CampaignState, mul: MulFile) -> bool:
    return bool(_ids(mul) & (set(state.units) | set(state.people)))


def report_command(
    state: CampaignState,
    mul: MulFile,
    *,
    sha256: str,
    path: str,
    design_for: DesignLookup | None,
    actor: str,
) -> Command:
    name = path.rsplit("/", 1)[-1].lower()
    units = sorted(_ids(mul) & set(state.units))
    if "notfor" in name or not units:
        raise FileNotForCampaign("no unit id of the file is in the campaign")
    if "ambiguous" in name:
        raise AmbiguousMatch("Huscarl HSCL-1-OA: units u1, u2 both fit")
    side = state.units[units[0]].side_id
    pool = min(p.pool_id for p in state.pools.values() if p.side_id == side)
    if "refuse" in name:
        return DebitPool(actor=actor, pool_id=pool, amount=10_000, reason=f"file {sha256[:12]}")
    return CreditPool(actor=actor, pool_id=pool, amount=1, reason=f"file {sha256[:12]}")
