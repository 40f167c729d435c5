"""The servicers, one module per service."""
