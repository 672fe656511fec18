"""Typed, frozen model of a game's content. Imports nothing else of pnp; does no I/O."""
