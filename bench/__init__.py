"""Benchmarks: each script prints its figures; ``side_by_side.py`` runs one in two checkouts at once."""
