"""Django's SQLite backend with its writers in line (``scorekeeper.sqlite_queue``):
``ENGINE: "scorekeeper.sqlite_backend"`` (settings.py sets it for SQLite)."""
