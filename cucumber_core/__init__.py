"""cucumber_core: the pure rules of CS 88's card game Cucumber (``docs/cucumber.md``).

No I/O, no clock, no randomness: shuffled decks come in as data, as Hog's dice do. ``course`` is a
drop-in for the course's ``cuke.py``; ``bots`` and ``strong`` play; ``simulate`` plays many games at once.
"""
