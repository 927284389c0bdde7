"""Several workers serving the same games: Redis between them, PostgreSQL under them.

`node.Cluster` is the one object the hub holds when `POCKETGALAXY_REDIS_URL` is set; without it
nothing here is imported and the server is the one-process server (in-memory fan-out, SQLite by
default). `bus.py` carries the nudges (one Redis pub/sub channel), `lease.py` the per-game leases
that decide which worker runs a game's computer players and timers. docs/web.md, "Several
workers", explains the design.
"""

from __future__ import annotations

from pocketgalaxy.web.cluster.node import Cluster, ClusterError, check_settings

__all__ = ["Cluster", "ClusterError", "check_settings"]
