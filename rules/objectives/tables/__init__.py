"""Objective numbers as TOML package data; every row quotes its source line."""
