"""The house-rule tables that had no command, through the installed console script with typed
words (issue 29): a hit location and a targeting-computer focus (lines 1-28), a negotiation on
an open bid (lines 213-219), the quantity found (lines 182-183) and a currency conversion
(lines 221-228)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from console_script import mekref
from hr_helpers import LINES

from mekref.rules.house_rules.acquisition import negotiation_percent
from mekref.rules.house_rules.describe import decimal_text


def _line(n: int) -> str:
    return LINES[n - 1]


class Game:
    def __init__(self, tmp_path: Path) -> None:
        self.db = str(tmp_path / "hr.db")
        began = mekref("game", "start", "--db", self.db, "--ruleset", "house_rules", "--name",
                       "hr", "HRSetUp", "actor=ref", "seed=tables-29")  # fmt: skip
        assert began.returncode == 0, began.stderr

    def do(self, *words: str) -> Any:
        done = mekref("game", "do", "--db", self.db, "--json", *words, "actor=ref")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def said(self, *words: str) -> str:
        done = mekref("game", "do", "--db", self.db, *words, "actor=ref")
        assert done.returncode == 0, done.stderr
        return done.stdout

    def refused(self, *words: str) -> str:
        done = mekref("game", "do", "--db", self.db, *words, "actor=ref")
        assert done.returncode != 0
        return done.stderr


def test_hit_locations_and_a_targeting_computer_focus(tmp_path: Path) -> None:
    game = Game(tmp_path)
    # L13 "1- | L Leg | 1-3 | R Leg | 1- | R Leg |": the 1d6 target-low table hits legs only.
    assert _line(13).startswith("1- | L Leg | 1-3 | R Leg")
    out = game.said("hrhitlocation", "unit_id=atlas", "table=low", "column=front")
    assert "hit location on atlas, low table, front:" in out
    assert out.split(" hits the ")[1].split(" (line")[0] in ("Left Leg", "Right Leg")
    # L28 "When facing the target's front or rear you can focus up ..., focus left ..., focus
    # right ..., or focus down"; "at a +1 penalty"; facing a side in partial cover: none.
    assert "at a +1 penalty" in _line(28) and "you do not have any options" in _line(28)
    out = game.said("HRHitLocation", "unit_id=atlas", "facing=front", "focus=left")
    assert "focused left (+1 to hit):" in out
    refused = game.refused("HRHitLocation", "unit_id=atlas", "facing=left", "focus=up",
                           "partial_cover=true")  # fmt: skip
    assert "cannot_focus: facing the target's left in partial cover: no focus at all" in refused
    listed = mekref("game", "commands", "--ruleset", "house_rules", "--type", "HRHitLocation")
    assert 'table: str  (default "side")  one of: "side", "low", "upper_body"' in listed.stdout


def test_negotiation_quantities_and_currency(tmp_path: Path) -> None:
    game = Game(tmp_path)
    # L182 "To find armor roll 2d6 and multiply by 10 tons for Level 1 armor, 5 tons for Level
    # 2 armor, or 2 tons for Level 3 armor."
    assert "5 tons for Level 2 armor" in _line(182)
    found = game.do("HRQuantity", "item=Ferro-Fibrous", "kind=ARMOR", "level=2")
    event = found["events"][0]["event"]
    assert event["amount"] == 5 * event["roll"] and 2 <= event["roll"] <= 12
    # L183 "2d6 times 0.25 rounded down for Level 3"
    ammo = game.do("HRQuantity", "item=Gauss ammo", "kind=ammo", "level=3")["events"][0]["event"]
    assert ammo["amount"] == ammo["roll"] // 4
    # L221-228: "L-Bill | 0.45 |": 1,000 L-Bills are 450 C-bills, 562.5 M-Bills (0.80).
    assert _line(227) == "L-Bill | 0.45 |"
    out = game.said("HRConvertCurrency", "amount=1000", "source=l-bill", "target=m-bill")
    assert "1,000 L-Bill = 562.5 M-Bill" in out
    # Lines 213-219: the negotiation check's margin moves an open bid's price.
    assert _line(213) == "-6 or less | +15% |"
    game.do("HRAcquire", "item=Medium Laser", "availability=common", "base_cost=40000",
            "logistics_skill=2")  # fmt: skip
    state = json.loads(mekref("game", "state", "--db", game.db, "--json").stdout)["state"]
    offer = state["offers"]["Medium Laser"]
    assert offer["bids"], "the search found no seller: pick another seed"
    before = Fraction(offer["bids"][0]["price"])
    done = game.do("HRNegotiate", "item=Medium Laser", "bid=1", "target=7")["events"][0]
    margin = done["event"]["margin"]
    price = before * (100 + negotiation_percent(margin)) / 100
    assert Fraction(done["event"]["price"]) == price
    state = json.loads(mekref("game", "state", "--db", game.db, "--json").stdout)["state"]
    assert Fraction(state["offers"]["Medium Laser"]["bids"][0]["price"]) == price
    assert "negotiation" in done["outcome"] and f"margin {margin:+d}" in done["outcome"]
    bought = game.said("HRBuy", "item=Medium Laser", "bid=1")
    assert f"Medium Laser bought at offer 1 for {decimal_text(price)} C-bills" in bought
