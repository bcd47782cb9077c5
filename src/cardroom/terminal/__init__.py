"""Playing at the terminal (``cardroom play``): a Textual table where a person plays one seat against
three of our bots: :mod:`~cardroom.terminal.table` (what both games share),
:mod:`~cardroom.terminal.guandan` and :mod:`~cardroom.terminal.shengji`."""
