"""Properties: the hit rule for any attack value, and replay for any run of whole turns."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sw_helpers import Game, clear_region, move_unit, to_phase

from mekref.rules.messages import event_text
from mekref.rules.succession_wars import game
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.game import SUCCESSION_WARS

# This rule set's message codec (names kept from the shared registry).
event_from_text = SUCCESSION_WARS.events.from_text

ATTACKERS = (
    "liao-st-ives-armored-cavalry-1",
    "liao-st-ives-armored-cavalry-2",
    "liao-sian-reserves-1",
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(min_size=1, max_size=8),
    values=st.lists(st.integers(min_value=0, max_value=12), min_size=3, max_size=3),
)
def test_a_hit_is_a_roll_at_or_under_the_value_or_ten_and_up(seed: str, values: list[int]) -> None:
    g = Game(seed)
    to_phase(g, "Liao", "movement")
    clear_region(g, "Daniels")
    for uid, value in zip(ATTACKERS, values, strict=True):
        move_unit(g, uid, "Daniels", value=value)
    move_unit(g, "davion-davion-guards-1", "Daniels")
    g.end_phase("Liao")
    events = g.run(m.SWAttack(actor="Liao", house="Liao", region="Daniels"))
    rolled = next(e for e in events if isinstance(e, m.SWCombatRolled))
    assert len(rolled.results) == 3
    for result in rolled.results:
        if result.value >= 10:
            assert result.auto and result.hit and result.face == 0
        else:
            assert 1 <= result.face <= 10 and result.hit == (result.face <= result.value)
    assert rolled.hits == sum(r.hit for r in rolled.results)
    assert len(rolled.rolls) == sum(not r.auto for r in rolled.results)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=8), phases=st.integers(min_value=1, max_value=40))
def test_any_run_of_phases_replays_to_the_same_hash(seed: str, phases: int) -> None:
    """Ending phases in turn (cards drawn, taxes collected, turns passed) replays exactly, and
    cash only grows when nobody spends."""
    g = Game(seed)
    cash = {h: x.cash for h, x in g.state.houses.items()}
    for _ in range(phases):
        g.end_phase(g.state.active)
    replayed = game.SUCCESSION_WARS.fold(event_from_text(event_text(e)) for e in g.log)
    assert game.SUCCESSION_WARS.state_hash(replayed) == game.SUCCESSION_WARS.state_hash(g.state)
    assert all(g.state.houses[h].cash >= c for h, c in cash.items())
    assert all(len(h.hand) <= 4 for h in g.state.houses.values())
