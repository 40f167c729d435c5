"""Example commands shipped with the package, read by ``mekref game example``.

``<rule set>-start.json`` sets a campaign up (``mekref game start``) and ``<rule set>-next.json``
is a first command for it (``mekref game do``). The Succession Wars start is not a file: it is
built from the rule set's own Order of Battle and sample map (see
``daemon/succession_wars/examples.py``), so it always places every free set-up piece the Order of
Battle has.
"""
