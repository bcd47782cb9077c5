"""The card room's live tables, in the event loop: a room per live table with its connections and its
clock (``rooms``), the bots' processes (``bot_runner``), requests for another process's table
(``forwarding``), the limits on what clients send (``limits``), what a client is told when the database
is away (``recovery``, ``outage``), each session's websockets (``session_sockets``) and the process's
settings (``settings``). It stands on :mod:`cardroom.server.tables` and :mod:`cardroom.server.storage`."""
