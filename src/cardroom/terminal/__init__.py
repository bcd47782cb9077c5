"""Playing at the terminal (``cardroom play``): a Textual table where a person plays one seat of a
Guandan match against three of our bots (:mod:`~cardroom.terminal.guandan`)."""
