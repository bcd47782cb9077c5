"""Tournaments in the card room: the director that runs an event's rounds on live tables
(``director``), an event's state and how it is read from a request (``event_state``), and its JSON views
(``event_views``); what an event prints is :mod:`cardroom.tournament.printouts`. It stands on
:mod:`cardroom.server.accounts` and below."""
