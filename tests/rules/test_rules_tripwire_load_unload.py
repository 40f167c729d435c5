"""Moving WarChest Points by a Load/Unload order (ruling T-WP1 in docs/turn.md).

L59: "Each Union DropShip carries 250 WP or resources. The Gazelle DropShip carries 2500 WarChest
Points. Any unit can carry 5x its Cargo Capacity in WarChest Points (e.g. A 10 to flatbed truck
can carry 50 WP). WarChest Points may be moved from one location to another, but this requires a
Load/Unload action." L206: "Units can be carried in a cargo hold but take 1 day to load/unload."

On the Ginestra map of the where tests: the loyalists' Maxim carries a 10-ton cargo pool
("cargo", 50 WP room); Bagnorgeio's chest ("city", 0508) and the Space Port's ("port", 0610).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mekref.rules.messages import RefereeNote, command_text
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import DebitPool, TransferWarChest
from mekref.rules.tripwire.events import WarChestTransferred
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.events import OrdersSubmitted, WarChestLoaded
from mekref.rules.tripwire.turn.orders import ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations
from mekref.rules.tripwire.turn.state import FormationOrder

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
world = pytest.importorskip("turn.turn_world")
where = pytest.importorskip("test_rules_tripwire_where")

CITY, PORT = "0508", "0610"
REBELS = PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=(
    FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7",), hex=""),))  # fmt: skip
#: The Maxim's 50 WP are spent before the day: its hold starts empty.
EMPTY_HOLD = DebitPool(actor="ref", pool_id="cargo", amount=50, reason="spent before the map")


def _start() -> CampaignState:
    commands = (*where.setup_commands(("convoy", CITY, ("L-MAX",))), REBELS, EMPTY_HOLD)
    state, _ = world.run(CampaignState(), *commands)
    return state


def _order(day: int, **params: str) -> SubmitOrders:
    order = FormationOrder(formation_id="convoy", action="load_unload",
                           params=tuple(sorted(params.items())))  # fmt: skip
    return SubmitOrders(actor="loyalist", side_id="loyalist", day=day, orders=(order,))


def _refused(state: CampaignState, cmd: SubmitOrders, code: str) -> str:
    """One order alone refused: the whole submission is refused with the order's reason."""
    with pytest.raises(Refusal) as caught:
        world.run(state, cmd)
    assert caught.value.code == code, str(caught.value)
    return str(caught.value)


def _balances(state: CampaignState) -> dict[str, int]:
    return {p: state.pools[p].balance for p in ("city", "port", "cargo")}


def test_l59_wp_move_only_by_load_unload_at_each_end() -> None:
    # L59: "WarChest Points may be moved from one location to another, but this requires a
    # Load/Unload action." Any unit carries "5x its Cargo Capacity in WarChest Points".
    state = _start()
    assert _balances(state) == {"city": 1000, "port": 1000, "cargo": 0}
    # Refused: more than the 10-ton hold takes (5 x 10 = 50 WP) ...
    why = _refused(state, _order(1, **{"from": "city", "to": "cargo", "wp": "60"}),
                   "insufficient_wp")  # fmt: skip
    assert "room for 50 WP, not 60" in why
    # ... straight from one location's chest to another's: no transport carries them ...
    why = _refused(state, _order(1, **{"from": "city", "to": "port", "wp": "10"}), "bad_param")
    assert "L59 'WarChest Points may be moved" in why
    # ... into a pool that is not where the formation stands.
    _refused(state, _order(1, **{"from": "port", "to": "cargo", "wp": "10"}), "not_at_location")
    # Allowed: the convoy loads 40 WP from Bagnorgeio's chest into the Maxim.
    state, events = world.run(state, _order(1, **{"from": "city", "to": "cargo", "wp": "40"}))
    assert isinstance(events[0], OrdersSubmitted) and not events[0].refused
    state, events = world.run(state, ResolveTurn(actor="ref", day=1))
    (loaded,) = [e for e in events if isinstance(e, WarChestLoaded)]
    assert (loaded.from_pool, loaded.to_pool, loaded.amount) == ("city", "cargo", 40)
    assert loaded.hex == CITY
    assert _balances(state) == {"city": 960, "port": 1000, "cargo": 40}
    # Day 2: the convoy drives to the Space Port; the WP stay aboard: the port is not credited.
    move = FormationOrder(formation_id="convoy", action="move", path=("0509", "0609", PORT))
    state, _ = world.run(state, SubmitOrders(actor="loyalist", side_id="loyalist", day=2,
                                             orders=(move,)))  # fmt: skip
    state, _ = world.run(state, ResolveTurn(actor="ref", day=2))
    assert state.strategic is not None and state.strategic.formations["convoy"].hex == PORT
    assert _balances(state) == {"city": 960, "port": 1000, "cargo": 40}
    # Day 3: unloading at the port credits it; the city's chest is no longer in reach.
    _refused(state, _order(3, **{"from": "cargo", "to": "city", "wp": "40"}), "not_at_location")
    state, _ = world.run(state, _order(3, **{"from": "cargo", "to": "port", "wp": "40"}))
    state, _ = world.run(state, ResolveTurn(actor="ref", day=3))
    assert _balances(state) == {"city": 960, "port": 1040, "cargo": 0}


def test_ruling_t_wp1_what_no_longer_fits_at_resolution_is_not_moved() -> None:
    """T-WP1: the order is checked again when the day is resolved; WP spent since the order
    was given are not conjured up: the order is not carried out and the side is told why."""
    state = _start()
    state, _ = world.run(state, _order(1, **{"from": "city", "to": "cargo", "wp": "40"}))
    state, _ = world.run(state, DebitPool(actor="ref", pool_id="city", amount=990, reason="r"))
    state, events = world.run(state, ResolveTurn(actor="ref", day=1))
    assert not [e for e in events if isinstance(e, WarChestLoaded)]
    assert _balances(state) == {"city": 10, "port": 1000, "cargo": 0}
    assert "holds 10 WP, not 40" in json.dumps([command_text(e) for e in events])


def test_ruling_t_wp1_spend_move_on_the_map_is_the_referees_word() -> None:
    """T-WP1: on the map a transfer at once is refused, naming the order to give; the referee
    may still move WP by hand, and the event keeps who and why."""
    state = _start()
    move = TransferWarChest(actor="l", from_pool="city", to_pool="port", amount=100)
    with pytest.raises(Refusal) as caught:
        world.run(state, move)
    assert caught.value.code == "load_unload_needed"
    assert "L59 'WarChest Points may be moved" in str(caught.value)
    assert "load_unload" in str(caught.value) and "--referee NAME" in str(caught.value)
    note = RefereeNote(referee="Ann", reason="the convoy's trip was agreed at the table")
    state, (moved,) = world.run(
        state,
        TransferWarChest(actor="Ann", from_pool="city", to_pool="port", amount=100, note=note),
    )
    assert isinstance(moved, WarChestTransferred) and moved.note == note
    assert _balances(state) == {"city": 900, "port": 1100, "cargo": 0}


def test_load_unload_through_the_console_script(tmp_path: Path) -> None:
    """T-WP1 through the installed ``mekref``: ``spend move`` on the map is refused with what to
    do; a ``load_unload`` order too big for the hold is refused; one that fits moves the WP
    when the day is resolved; the referee's ``spend move`` is recorded."""
    from console_script import mekref, start_tripwire

    db = str(tmp_path / "c.db")
    start, *rest = (*where.setup_commands(("convoy", CITY, ("L-MAX",))), REBELS, EMPTY_HOLD)
    campaign = start_tripwire(tmp_path, (start, *rest))
    base = ("--db", db, "--campaign", campaign)
    move = ("spend", "move", *base, "--from", "city", "--to", "port", "--amount", "100")
    refused = mekref(*move)
    assert refused.returncode == 3
    assert "L59 'WarChest Points may be moved" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    submit = ("orders", "submit", *base, "--side", "loyalist", "--day", "1",
              "--order", "convoy:load_unload", "--param", "convoy:from=city",
              "--param", "convoy:to=cargo")  # fmt: skip
    too_big = mekref(*submit, "--param", "convoy:wp=60")
    assert too_big.returncode == 3 and "room for 50 WP, not 60" in too_big.stderr
    fits = mekref(*submit, "--param", "convoy:wp=50")
    assert fits.returncode == 0, fits.stderr
    resolved = mekref("turn", "resolve", *base, "--day", "1")
    assert resolved.returncode == 0, resolved.stderr
    vouched = mekref(*move, "--referee", "Ann", "--reason", "agreed at the table")
    assert vouched.returncode == 0, vouched.stderr
    assert "pool city (City chest): 850 WP" in vouched.stdout  # 1000 - 50 loaded - 100 moved
    assert "pool port (Port chest): 1100 WP" in vouched.stdout
    assert "Ann" in vouched.stdout
