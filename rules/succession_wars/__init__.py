"""The Succession Wars: the strategic board game as an event-sourced rule set.

Five Houses fight over the Regions of the Inner Sphere with 'Mech and conventional units carried
by JumpShips. The rule set is pure: ``game.decide(state, command, dice)`` and
``game.evolve(state, event)`` over its own :class:`~.model.SWState`; its tables (price list,
technology scale, combat tables, Event Cards, Orders of Battle) are TOML package data quoting the
rule text, and maps are TOML data (``maps/sample.toml``).
"""
