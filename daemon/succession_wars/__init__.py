"""The Succession Wars wing: what ``mekref game`` does for The Succession Wars beyond the
kernel's commands (the bundled map filled into a start command, the example start built from
the rule set's own Order of Battle). Registered in :mod:`mekref.daemon.wings`.
"""
