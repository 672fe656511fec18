"""pnp.rulebook"""
