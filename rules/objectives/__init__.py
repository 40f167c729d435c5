"""Objective tokens for any rule set's scenarios: open, hidden and mobile objectives.

Claiming, reclaiming, search rolls, scan tokens, carrying, passing, dropping and losing
objectives, from ``004_3f2325854e7e1a33.txt``. The table-top facts the rules depend on (who is
within 2", who is in coherency) are reported by the referee or players in the commands; this
package keeps the tokens' state and rolls the dice. Entry points live in :mod:`.game`.
"""
