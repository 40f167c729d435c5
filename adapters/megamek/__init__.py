"""mekref: adapters/megamek."""
