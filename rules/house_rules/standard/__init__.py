"""Standard-rule tables the house rules modify but do not print (package data)."""
