"""What the battle commands say once a command ran: a held battle confirmed, what a resolved
battle left to do, the end of the campaign, the battles waiting for files."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mekref.daemon.terminal import terminal_safe
from mekref.rules.messages import Event, RefereeNote
from mekref.rules.tripwire import battle_link
from mekref.rules.tripwire.battle_pending import pending_battles
from mekref.rules.tripwire.claims import unconfirmed_claims
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.events import CampaignEnded


def say_confirmed(console: Any, battle_id: str, note: RefereeNote, engagement_id: str) -> None:
    what = f"the battle of engagement {engagement_id}" if engagement_id else "without an engagement"
    console.print(
        terminal_safe(
            f"battle {battle_id}: confirmed by the referee {note.referee}, {what} ({note.reason})"
        ),
        markup=False,
    )


def say_after_battle(console: Any, state: CampaignState, battle_id: str) -> None:
    """The engagement a resolved battle closed, and who still shares its hex (T-E9)."""
    battle = state.battles.battles.get(battle_id)
    if battle is None or not battle.engagement_id:
        return
    console.print(f"engagement {battle.engagement_id} closed by battle {battle_id}")
    together = battle_link.still_together(state, battle)
    if together is not None:
        console.print(together.sentence(), markup=False)


def say_if_ended(console: Any, events: Iterable[Event]) -> None:
    """A battle's result or a fate can end the campaign (lines 412-414): say so, with why."""
    for event in events:
        if isinstance(event, CampaignEnded):
            console.print(f"the campaign has ended: {event.reason}", style="bold")


def _next_step(battle_id: str, missing: Sequence[str], control: str | None) -> str:
    """What resolves a waiting battle: the missing files and who holds the field, or the
    referee closing it without them."""
    todo = [f"the file of {', '.join(missing)} (mekref battle ingest FILE)"] if missing else []
    if not control:
        todo.append(f"mekref battle control --battle {battle_id} --side SIDE (who holds the field)")
    close = f"mekref battle close --battle {battle_id} --control SIDE --referee NAME --reason TEXT"
    return (
        f"  next: {'; '.join(todo)}; or the referee closes it: {close}"
        if todo
        else f"  next: {close}"
    )


def print_pending(console: Any, state: CampaignState, always: bool = False) -> None:
    waiting = pending_battles(state)
    if not waiting:
        if always:
            console.print("no battle is waiting")
        return
    for p in waiting:
        missing = ", ".join(p.sides_missing) or "none"
        console.print(
            f"battle {p.battle_id} waits: files from {', '.join(p.sides_reported) or 'no side'}"
            f" of {', '.join(p.sides_expected)}; missing {missing}; "
            f"control {p.control_side or 'not set'}"
            + (f"; engagement {p.engagement_id}" if p.engagement_id else "")
        )
        if not p.held:
            console.print(_next_step(p.battle_id, p.sides_missing, p.control_side), markup=False)
        if p.held:
            console.print(
                terminal_safe(
                    f"  held until the referee confirms it: {p.held} (mekref battle confirm "
                    f"--battle {p.battle_id} --referee NAME --reason TEXT)"
                ),
                markup=False,
            )
        # BR-12: what one side's file claims about units their own side's file does not list.
        held = unconfirmed_claims(state, state.battles.battles[p.battle_id])
        for unit_id in sorted(held):
            unit = state.units[unit_id]
            claims = ", ".join(
                sorted({f"{f.reporting_side or 'no side'} says {u.section.value}"
                        for f, u in held[unit_id]})
            )  # fmt: skip
            console.print(
                f"  held: {unit.chassis} {unit.model} ({unit_id}) of {unit.side_id}: {claims}; "
                f"{unit.side_id}'s own file does not list it, so it will not be applied (BR-12)"
            )
