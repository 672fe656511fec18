"""The games: one package each, found through the ``pnp.games`` entry point (pnp.registry)."""
