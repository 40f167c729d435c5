"""Succession Wars maps as TOML package data (format: docs/succession-wars.md)."""
