"""Players in the card room: accounts, their sign-in and sessions (``accounts``), passwords
(``passwords``), the names bots play under (``bot_names``), ratings (``ratings``) and the checks that keep
rated play fair (``fair_play``). It stands on :mod:`cardroom.server.live` and below."""
