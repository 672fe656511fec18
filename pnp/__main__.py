"""``python -m pnp``: the same command as ``pnp``."""

from pnp.cli import main

main(prog_name="pnp")
