"""``python -m bench``: run every benchmark and print Markdown ready for the README."""

from __future__ import annotations

import sys

from bench import parse


def main(argv: list[str] | None = None) -> int:
    return parse.main(argv)


if __name__ == "__main__":
    sys.exit(main())
