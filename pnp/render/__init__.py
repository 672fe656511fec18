"""pnp.render"""
