"""Hog on the platform: the game module (``module.HogGame``), its console, its board and picture,
and (in ``discord/``, the only part that imports discord.py) its commands and buttons."""
