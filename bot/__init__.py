"""hogbot's front ends: the only layer that does I/O, owns the dice and the clock."""
