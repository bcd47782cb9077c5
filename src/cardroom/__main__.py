"""``python -m cardroom``: the same command line as ``cardroom``."""

from cardroom.cli import app

app(prog_name="cardroom")
