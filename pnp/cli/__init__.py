"""The `pnp` command: a thin click layer, one small module per command.

Each module parses its options, calls the library and maps its errors to messages and exit
codes (:mod:`pnp.cli.app` holds the group, the shared context and the exit-code policy).
Importing this package registers every command on :data:`main`.
"""

from pnp.cli import (  # noqa: F401  (each module registers its command on `main`)
    build,
    export,
    listing,
    new,
    play,
    preview,
    rulebook,
    schema,
    simulate,
    tune,
    validate,
)
from pnp.cli.app import main, run

__all__ = ["main", "run"]
