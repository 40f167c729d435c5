"""The unit designs of the legal Ginestra sample (real MegaMek files; origins in ../README.md)."""
