"""Event store contract tests, run against SQLite and PostgreSQL."""
