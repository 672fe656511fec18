"""pnp.engines"""
