"""House-rule tables as TOML package data; every row quotes its source line."""
