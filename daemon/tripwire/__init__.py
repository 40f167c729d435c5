"""The TripWire wing: Operation TripWire's front ends (its CLI commands, its gRPC services and
reports, its demo), on the rule-set-neutral daemon core.

The core never imports this package (.importlinter says so); the composition root registers
it: the CLI by module name (``mekref.daemon.cli.COMMANDS``), the API and ``game`` hooks through
:mod:`mekref.daemon.wings`.
"""
