"""The Succession Wars tables as TOML package data; every row cites its source line."""
