"""The card room's front: the FastAPI app with its HTTP routes and websocket loops (``app``), the
account routes (``account_api``), reading requests (``requests``), the headers of every answer
(``headers``), the status route (``status_api``), the processes of a cluster (``cluster``) and
``cardroom serve --workers`` (``workers``). The top of the server: nothing in it imports this."""
