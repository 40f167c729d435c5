"""The guard of TripWire's RPCs: orders, turn resolution, MegaMek battles, scenario exports and
the overview are Operation TripWire's rules; another rule set's campaign gets a refusal that
names the way in it does have, never an internal error from reading a state it does not hold.
"""

from __future__ import annotations

from typing import Any

import grpc

from mekref.daemon.grpc.errors import ApiError
from mekref.daemon.grpc.services.base import Context, Services
from mekref.rules.kernel import RuleSet


def require_tripwire(services: Services, campaign_id: str, rpc_name: str) -> None:
    """Refuse ``rpc_name`` unless the campaign runs TripWire (may read the store)."""
    _check(services.runner.game(campaign_id), campaign_id, rpc_name)


async def check_tripwire(
    services: Services, context: Context, campaign_id: str, rpc_name: str
) -> None:
    """:func:`require_tripwire` from the event loop: on the loop itself when the campaign's
    rule set is already known (no database access), else on the thread pool."""
    game = services.runner.known_game(campaign_id)
    if game is None:
        await services.run(context, require_tripwire, services, campaign_id, rpc_name)
    else:
        _check(game, campaign_id, rpc_name)


def _check(game: RuleSet[Any], campaign_id: str, rpc_name: str) -> None:
    if game.name != "tripwire":
        raise ApiError(
            grpc.StatusCode.FAILED_PRECONDITION,
            f"campaign {campaign_id} runs {game.title}; {rpc_name} is an Operation TripWire"
            " RPC: use RulesService.ExecuteCommand and RulesService.GetView",
            "wrong_ruleset",
        )
