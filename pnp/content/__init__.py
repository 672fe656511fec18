"""pnp.content"""
