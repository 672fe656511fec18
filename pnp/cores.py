"""How many processes a command may run at once (simulations, kits side by side, export)."""

from __future__ import annotations

import multiprocessing
import os


def default_workers() -> int:
    """Processes to use: ``$PNP_WORKERS``, else every core this process may run on."""
    configured = os.environ.get("PNP_WORKERS", "").strip()
    if configured:
        try:
            return max(1, int(configured))
        except ValueError:
            pass
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def may_fork() -> bool:
    """Whether this process may fork worker processes: the system forks, and this is not
    itself a pool's worker (a game building or validating beside others), which may not have
    children."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
    )
