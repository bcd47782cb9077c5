"""A card room table's pure state, without I/O: who sits where (``seats``, ``seated``), the log's
entries (``entries``) and their JSON (``codec``), the clocks, conduct and outcomes of a match, what each
viewer sees (``views``, ``shengji_views``), one table class per game (``guandan``, ``shengji``), found by
game in ``registry``, and a table's configuration (``config``). The room (:mod:`cardroom.server.live`)
gives them the time and stores what they log."""
