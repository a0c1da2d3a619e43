"""hog_core: the pure rules of Hog. No I/O, no clock, no randomness: dice come in as data."""
