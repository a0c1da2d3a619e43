"""The games the platform plays, one package each (found through ``bot.platform.registry``)."""
