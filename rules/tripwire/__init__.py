"""The Operation TripWire rule set: its tables (``tables/*.toml``) and the functions over them."""
