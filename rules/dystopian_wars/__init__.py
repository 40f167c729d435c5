"""The Dystopian Wars campaign v2.0 as a rule set (``003_3bbddd4f6cf4787a.txt``).

Battles are fought on the table; their results are entered as commands. mekref keeps the fleets
(treaty-checked rosters), the territories and their Requisition Points, the pre-battle rolls
(strategy, battle size), conquest, repairs and prizes, squadron and commodore experience, skills,
injuries, and both victory conditions. Entry points live in :mod:`.game`.
"""
