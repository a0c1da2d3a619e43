"""The game platform: what every game shares (the contract a game implements, the application
service, the projector, the timers, the random source and the one composition root)."""
