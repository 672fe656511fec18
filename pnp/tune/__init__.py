"""pnp tune: the smallest change of the numbers content marks tunable that keeps every balance
promise (see pnp.tune.search)."""
