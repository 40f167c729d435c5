"""The watcher: which files to ingest and when they are complete.

``readiness`` decides when a file is finished (close-after-write, rename-into, or size and mtime
stable for in-place writers), ``observer`` turns watchdog events into that queue, ``scan``
lists the folders on start and periodically, ``quarantine`` keeps a copy of bad files with a
reason beside it, and ``faults`` is the crash-test hook.
"""
