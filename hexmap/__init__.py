"""mekref: hexmap."""
