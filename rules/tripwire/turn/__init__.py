"""The daily strategic turn of a map-based TripWire campaign.

Formations, secret orders, weather, movement and encounters on the hex map, fatigue and upkeep,
unrest and war crimes, recruiting, surveillance, engagement set-up, unguided artillery, scenario
export and the strategic victory points. Commands and events register with the engine through
:mod:`mekref.rules.tripwire.turn.plugin`; this package's ``__init__`` imports nothing so the
campaign state can import :mod:`.state` without a cycle.
"""
