"""``python -m pnp``: the same command as ``pnp``."""

from pnp.cli import run

run()
