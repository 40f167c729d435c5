"""mekref: rules."""
