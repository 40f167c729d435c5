"""mekref.rules: the functional core of the referee.

A campaign is an append-only log of events and its state is their fold. The kernel
(:mod:`mekref.rules.kernel`) runs any rule set: ``decide(state, command, dice) -> events`` and
``evolve(state, event) -> state``, both pure. The rule sets (``tripwire``, ``succession_wars``,
``dystopian_wars``, ``objectives``, ``house_rules``) each export one
:class:`~mekref.rules.kernel.RuleSet` value, found by name in :mod:`mekref.rules.registry`.
No I/O beyond reading packaged tables, no clock, no global randomness.
"""
