"""The web card room: an ASGI app (FastAPI) with one websocket per client, the server authoritative.

``cardroom.server.api.app.create_app`` builds the app; ``cardroom serve`` runs it (docs/server.md). The
protocol is in docs/protocol.md. Nothing imports this layer but :mod:`cardroom.cli`.

Inside, sub-packages by concern, each importing only its own or a lower one (docs/architecture.md#server):
``tables`` (pure table state, no I/O) → ``storage`` → ``live`` (rooms) → ``accounts`` → ``events`` →
``api``. ``web/`` holds the pages, ``wordlists/`` the common passwords.
"""
