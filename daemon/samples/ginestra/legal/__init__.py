"""The legal Ginestra sample: see README.md here."""
