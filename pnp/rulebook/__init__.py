"""Rulebooks: structured rulebook content + the game's model -> a reading PDF and a booklet."""
