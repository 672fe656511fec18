"""pnp.layout"""
