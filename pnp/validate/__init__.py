"""pnp.validate"""
