"""mekref: daemon."""
