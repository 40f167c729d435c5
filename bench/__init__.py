"""mekref benchmarks, each measured against a baseline taken in the same run.

Run all of them with ``python -m bench`` (or ``make bench``); each module also runs alone,
e.g. ``python -m bench.parse``.
"""
