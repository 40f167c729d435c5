"""Optional house-rule modules a BattleTech campaign can enable (``002_09a1c530a2118904.txt``).

Campaign-side rules are pure functions over TOML tables, with commands in :mod:`.game` where they
change state: morale, random pre-battle damage (applied to a unit's condition), MechWarrior
experience and the injury variant, acquisition and prices, currencies, missions and force sizes,
retreat off a non-home edge, technical-team repair limits. The tactical rules are played inside
MegaMek: :mod:`.tactical` lists them for a scenario sheet and writes MegaMek's game-options file
where MegaMek has a matching option.
"""
