"""The web card room: an ASGI app (FastAPI) with one websocket per client, the server authoritative.

``cardroom.server.app.create_app`` builds the app; ``cardroom serve`` runs it (docs/server.md). The
protocol is in docs/protocol.md. Nothing imports this layer but :mod:`cardroom.cli`.
"""
