"""mekref.rules: the functional core of the referee.

A campaign is an append-only log of events and its state is their fold:
``decide(state, command, dice) -> events`` and ``evolve(state, event) -> state``, both pure.
Rule sets plug in by name (:mod:`mekref.rules.rulesets`); ``tripwire`` is the first.
No I/O beyond reading packaged tables, no clock, no global randomness.
"""
