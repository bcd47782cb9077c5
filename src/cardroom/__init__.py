"""cardroom: Guandan (掼蛋) and Shengji (升级) — rules engine, bots, arena and card room."""

__version__ = "0.1.0"
