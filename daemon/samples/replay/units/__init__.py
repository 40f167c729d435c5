"""The unit designs of the bundled replay set (real MegaMek files; origins in README.md here)."""
