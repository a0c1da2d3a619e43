"""Cucumber, CS 88's card game, as a game module of the platform."""
