"""The players' pages (``mekref serve --web``): server-rendered HTML over the same servicers,
per-side checks and event hub as the gRPC API. The neutral part lives here; each rule set's
pages in its own wing (:mod:`mekref.daemon.tripwire.web`), registered by the composition root
(:mod:`mekref.daemon.app`). See docs/web.md."""
