"""The Succession Wars wing as the composition root registers it (:mod:`mekref.daemon.wings`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mekref.daemon.wing import Wing

#: The scenarios a start command may name (SWStartCampaign.scenario), the main game first.
SCENARIOS = ("3025", "2786")


def _example_start(scenario: str) -> dict[str, Any]:
    from mekref.daemon.succession_wars.examples import example_start

    return example_start(scenario)


def _example_next(scenario: str) -> dict[str, Any]:
    from mekref.daemon.succession_wars.examples import example_next

    return example_next(scenario)


def _fill_map(data: dict[str, Any], where: str, map_file: Path | None) -> str | None:
    from mekref.daemon.succession_wars.sw_maps import fill_map

    return fill_map(data, where, map_file)


def _start_names(data: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """The Houses of the Order of Battle (the same five in 2786) and the Regions of the board
    the start command holds: ``players``' Houses and each placement's Region, in any case."""
    from mekref.rules.succession_wars.data import load_oob_3025

    houses = load_oob_3025().sequence
    board = data.get("map")
    rows = board.get("regions", []) if isinstance(board, dict) else []
    regions = tuple(str(r["name"]) for r in rows if isinstance(r, dict) and "name" in r)
    # players: [House, player] pairs; a player's own name matching no House stays as written.
    return {"players": houses, "house": houses, "region": regions}


def _start_warnings(state: Any) -> tuple[str, ...]:
    """L613-619 list Davion's 2786 Leaders only (ruling SW-39): say which Houses have none."""
    if getattr(state, "scenario", "") != "2786":
        return ()
    led = {ld.house for ld in state.leaders.values()}
    bare = [h for h in state.sequence if h not in led]
    if not bare:
        return ()
    return (
        f"scenario 2786: the text lists Leaders for {', '.join(sorted(led))} only "
        f"(L613-619); {', '.join(bare)} start without Leaders (ruling SW-39)",
    )


WING = Wing(
    ruleset="succession_wars",
    example_start=_example_start,
    example_next=_example_next,
    scenarios=SCENARIOS,
    fill_map=_fill_map,
    start_names=_start_names,
    start_warnings=_start_warnings,
)
