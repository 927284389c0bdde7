"""Server settings: defaults, then environment variables, then explicit arguments (highest wins)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from pocketgalaxy.core.errors import OptionsError

_ENV = {
    "host": "POCKETGALAXY_HOST",
    "port": "POCKETGALAXY_PORT",
    "database_url": "POCKETGALAXY_DATABASE_URL",
    "data_dir": "POCKETGALAXY_DATA_DIR",
    "bot_delay_ms": "POCKETGALAXY_BOT_DELAY_MS",
    "rate_per_s": "POCKETGALAXY_RATE_PER_S",
    "rate_burst": "POCKETGALAXY_RATE_BURST",
    # Limits at the edge (web/limits.py, web/inputs.py); 0 turns a count or rate limit off.
    "max_field_len": "POCKETGALAXY_MAX_FIELD_LEN",
    "client_requests_per_s": "POCKETGALAXY_CLIENT_REQUESTS_PER_S",
    "client_requests_burst": "POCKETGALAXY_CLIENT_REQUESTS_BURST",
    "client_games_per_hour": "POCKETGALAXY_CLIENT_GAMES_PER_HOUR",
    "client_sockets": "POCKETGALAXY_CLIENT_SOCKETS",
    "client_messages_per_s": "POCKETGALAXY_CLIENT_MESSAGES_PER_S",
    "client_messages_burst": "POCKETGALAXY_CLIENT_MESSAGES_BURST",
    "max_live_games": "POCKETGALAXY_MAX_LIVE_GAMES",
    "max_connections": "POCKETGALAXY_MAX_CONNECTIONS",
    "client_table_size": "POCKETGALAXY_CLIENT_TABLE_SIZE",
    "bot_move_budget_s": "POCKETGALAXY_BOT_MOVE_BUDGET_S",
    "bot_processes": "POCKETGALAXY_BOT_PROCESSES",
    "bot_threads": "POCKETGALAXY_BOT_THREADS",
    "abandon_after_s": "POCKETGALAXY_ABANDON_AFTER_S",
    # Several workers (web/cluster/): Redis carries updates and leases, PostgreSQL the games.
    "redis_url": "POCKETGALAXY_REDIS_URL",
    "worker_id": "POCKETGALAXY_WORKER_ID",
    "lease_ttl_s": "POCKETGALAXY_LEASE_TTL_S",
    "ws_deflate": "POCKETGALAXY_WS_DEFLATE",
}


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Everything the web server can be told. `database_url=None` means SQLite in `data_dir`."""

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str | None = None
    data_dir: Path = Path("data")
    bot_delay_ms: int = 300
    """Pause before each computer move, so people can follow; 0 in tests and benchmarks."""
    max_message_bytes: int = 16 * 1024
    """Largest accepted WebSocket message or request body."""
    rate_per_s: float = 20.0
    """Messages per second a WebSocket connection may send (token bucket)."""
    rate_burst: int = 20
    """How many messages a connection may send at once before the rate applies."""
    max_name_len: int = 40
    """Longest seat name."""
    max_text_len: int = 2000
    """Longest free-text field inside an action (plans, descriptions)."""
    outbound_queue: int = 512
    """Messages waiting for a slow client before the server drops that connection."""
    hello_timeout_s: float = 30.0
    """How long a new WebSocket may stay silent before its hello."""
    lobby_limit: int = 100
    """Most games listed by the lobby."""
    # -- limits at the edge (web/limits.py, web/inputs.py); 0 turns a count or rate limit off --
    max_field_len: int = 200
    """Longest string that is neither free text nor a name (card codes, bot specs, tokens)."""
    client_requests_per_s: float = 20.0
    """REST requests per second from one client address (token bucket)."""
    client_requests_burst: int = 60
    """REST requests one client address may send at once before its rate applies."""
    client_games_per_hour: int = 60
    """Games one client address may create per hour (that many at once, then refilled)."""
    client_sockets: int = 16
    """WebSockets one client address may hold open at once."""
    client_messages_per_s: float = 40.0
    """WebSocket messages per second from one client address, across all its sockets."""
    client_messages_burst: int = 80
    """Messages one client address may send at once before its rate applies."""
    max_live_games: int = 1000
    """Unfinished games in the server's memory; creating one more is refused (503)."""
    max_connections: int = 2000
    """Open WebSockets in the whole server."""
    client_table_size: int = 10_000
    """Most client addresses the limits remember (idle ones are forgotten first)."""
    allow_empty: bool = False
    """Start even if the data folder's marker says games existed and the database has none
    (`--allow-empty`; deliberately no environment variable, so it cannot stay on by accident)."""
    bot_move_budget_s: float = 10.0
    """Longest a computer player may think about one move; past it a quick player moves."""
    bot_processes: int = max(1, min(4, (os.cpu_count() or 2) - 1))
    """Worker processes for the searching computer players (ismcts, planner): one core is left
    for serving requests (1 on two cores, at most 4)."""
    bot_threads: int = 4
    """Worker threads for the other computer players."""
    abandon_after_s: int = 7 * 24 * 3600
    """An unfinished game with nobody connected and no move for this long becomes abandoned."""
    redis_url: str | None = None
    """Redis for several workers (web/cluster/); None: one process, in-memory fan-out."""
    worker_id: str = ""
    """This worker's name in the cluster (leases, health); empty: `host:port:pid`."""
    lease_ttl_s: float = 5.0
    """How long a worker's hold on a game's timers and computer players lasts unrenewed
    (renewed every third of it); another worker takes the game over after it lapses."""
    ws_deflate: bool = False
    """Offer WebSocket per-message deflate (browsers accept it): about 9 times fewer bytes on
    the wire for about 65 us of CPU per message sent and 43 KB per socket; off by default
    (docs/web.md, "What an action costs")."""

    def __post_init__(self) -> None:
        if not self.worker_id:  # frozen: the one derived field is filled in here
            object.__setattr__(self, "worker_id", f"{self.host}:{self.port}:{os.getpid()}")

    @property
    def clustered(self) -> bool:
        """Several workers share the games (a Redis URL is set)."""
        return bool(self.redis_url)

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, **overrides: Any
    ) -> Settings:
        """Defaults, then POCKETGALAXY_* variables, then `overrides` whose value is not None."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for name, var in _ENV.items():
            if env.get(var):
                values[name] = env[var]
        values.update({k: v for k, v in overrides.items() if v is not None})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise OptionsError(f"unknown server setting(s) {unknown}", allowed=sorted(known))
        typed = _typed(values)
        typed.setdefault("worker_id", "")  # derived from the final host and port
        return replace(cls(), **typed)

    @property
    def resolved_database_url(self) -> str:
        """The SQLAlchemy URL in use: SQLite under `data_dir` unless one was given."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(Path(self.data_dir) / 'pocketgalaxy.sqlite3').as_posix()}"


def _typed(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in values.items():
        try:
            if name in ("port", "bot_delay_ms", "max_message_bytes", "rate_burst", "max_name_len",
                        "max_text_len", "outbound_queue", "lobby_limit", "bot_processes",
                        "bot_threads", "abandon_after_s"):
                out[name] = int(value)
            elif name in ("rate_per_s", "hello_timeout_s", "bot_move_budget_s", "lease_ttl_s"):
                out[name] = float(value)
            elif name in _LIMIT_INTS:
                out[name] = int(value)
            elif name in _LIMIT_FLOATS:
                out[name] = float(value)
            elif name == "data_dir":
                out[name] = Path(value)
            elif name == "ws_deflate":
                out[name] = _flag(name, value)
            else:
                out[name] = str(value)
        except (TypeError, ValueError) as exc:
            raise OptionsError(f"server setting {name}={value!r} is not valid: {exc}") from exc
    if "port" in out and not 0 <= out["port"] <= 65535:
        raise OptionsError(f"server setting port={out['port']} is outside 0..65535")
    if "bot_delay_ms" in out and out["bot_delay_ms"] < 0:
        raise OptionsError(f"server setting bot_delay_ms={out['bot_delay_ms']} must be >= 0")
    if "max_field_len" in out and out["max_field_len"] < 1:
        raise OptionsError(f"server setting max_field_len={out['max_field_len']} must be >= 1")
    for name in (*_LIMIT_INTS, *_LIMIT_FLOATS):
        if name in out and name != "max_field_len" and out[name] < 0:
            raise OptionsError(f"server setting {name}={out[name]} must be >= 0 (0: no limit)")
    for name, low, high in _RANGES:
        if name in out and not low <= out[name] <= high:
            raise OptionsError(f"server setting {name}={out[name]} is outside {low}..{high}")
    return out


def _flag(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise OptionsError(f"server setting {name}={value!r} must be one of 1, true, yes, on, "
                       "0, false, no, off")


_LIMIT_INTS = ("max_field_len", "client_requests_burst", "client_games_per_hour",
               "client_sockets", "client_messages_burst", "max_live_games", "max_connections",
               "client_table_size")
_LIMIT_FLOATS = ("client_requests_per_s", "client_messages_per_s")

_RANGES = (
    ("bot_move_budget_s", 0.1, 600.0),
    ("bot_processes", 1, 64),
    ("bot_threads", 1, 64),
    ("abandon_after_s", 1, 10 * 365 * 24 * 3600),
    ("lease_ttl_s", 0.3, 600.0),
)
