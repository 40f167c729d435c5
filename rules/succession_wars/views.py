"""What one House may see of a Succession Wars game.

The board, the pieces, the cash and technology of every House and every roll are public (the
board game is played face up). Hidden: the dice seed (it would predict every roll), the order
of the draw pile and of the 2786 Mercenary pile (L603: drawn blind), and the Event Cards in
another House's hand; a card given from hand to hand is known to the two Houses only. A card is
public once played. The rolls that shuffle a pile are left out of a side's events: replayed,
they would give the pile's order, and with it every House's hand.

A hidden card is shown face down, as card number 0 (cards are numbered from 1): a hidden pile
or hand keeps its length, so a side sees how many cards there are, and the view keeps the shape
of the state (the typed API sends it as the same message).
"""

from __future__ import annotations

from typing import Any

from mekref.rules.codec import JsonValue, to_jsonable
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.model import SWState

#: The number a hidden card is shown as.
FACE_DOWN = 0
#: How a counter still in the 2786 Mercenary pile is shown: the pile is drawn blind (L603).
HIDDEN_COUNTER = ""
#: The names of the rolls that shuffle the Event Cards, the discard pile or the Mercenary pile.
SHUFFLES = ("shuffle the ", "reshuffle the ")


def without_shuffles(rolls: Any) -> list[Any]:
    """A side's copy of an event's rolls: those that shuffle a hidden pile left out."""
    return [r for r in rolls if not str(r.get("name", "")).startswith(SHUFFLES)]


def hidden_pile(counters: Any) -> list[str]:
    """The Mercenary pile as a side sees it: as many counters, none named."""
    return [HIDDEN_COUNTER] * len(counters)


def face_down(cards: Any) -> list[int]:
    """Cards as a side that may not see them sees them: as many, each face down."""
    return [FACE_DOWN] * len(cards)


class SuccessionWarsViews:
    """The Succession Wars rule set's :class:`~mekref.rules.kernel.SideViews` (side = House)."""

    def sides(self, state: SWState) -> dict[str, str]:
        houses = state.sequence or tuple(sorted(state.houses))
        return {h: f"House {h} ({state.houses[h].player})" for h in houses if h in state.houses}

    def view(self, state: SWState, side: str) -> JsonValue:
        data = to_jsonable(state)
        assert isinstance(data, dict)
        data.pop("seed", None)
        data["deck"] = face_down(state.deck)
        if "mercenary_pile" in data:
            data["mercenary_pile"] = hidden_pile(state.mercenary_pile)
        for name, house in data.get("houses", {}).items():
            if name != side:
                house["hand"] = face_down(state.houses[name].hand)
        return data

    def event_for(self, state: SWState, event: dict[str, Any], side: str) -> dict[str, Any] | None:
        data = dict(event)
        kind = data.get("type")
        if data.get("rolls"):
            data["rolls"] = without_shuffles(data["rolls"])
        if kind == m.SWCampaignStarted.TYPE:
            data.pop("seed", None)
            data["deck"] = face_down(data.get("deck") or ())
            if data.get("mercenary_pile"):
                data["mercenary_pile"] = hidden_pile(data["mercenary_pile"])
        elif kind in (m.SWMercenaryDrawn.TYPE, m.SWMercenaryUnsold.TYPE):
            data["pile"] = hidden_pile(data.get("pile") or ())
        elif kind == m.SWCardsDrawn.TYPE:
            data["deck"] = face_down(data.get("deck") or ())
            if data.get("house") != side:
                data["cards"] = face_down(data.get("cards") or ())
        elif kind == m.SWCardGiven.TYPE and side not in (data.get("house"), data.get("to")):
            data["card"] = FACE_DOWN
        return data
