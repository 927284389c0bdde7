"""The FastAPI app and the uvicorn runner.

`create_app(settings)` wires the store, the hub, the REST routes, the WebSocket and the pages
(static/ is written by the page side: `/` the lobby, `/play/{id}`, `/replay/{id}`, `/static/...`).
`run(host=, port=, database_url=, data_dir=)` prints the address and serves until stopped.
`python -m pocketgalaxy.web.server --port 8123` does the same from a shell (tests and bench use it).

Around the app, outermost first: `headers.SecurityHeaders` (every HTTP response), the per-client
request limit (`limits.RequestLimit`, `/api/` only) and `BodyLimit`. Replies are `SafeJSONResponse`:
text that cannot be encoded never turns a reply into a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from pocketgalaxy.core.errors import PocketGalaxyError
from pocketgalaxy.web import api, guide, inputs, payloads, studies, tutorial_api, ws
from pocketgalaxy.web.errors import WebError, status_for
from pocketgalaxy.web.headers import SecurityHeaders
from pocketgalaxy.web.hub import AgentMaker, AgentNames, GamesLookup, Hub
from pocketgalaxy.web.limits import LimitError, Limits, RequestLimit
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import Store, StoreOpenError

STATIC = Path(__file__).parent / "static"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class SafeJSONResponse(JSONResponse):
    """JSON replies that always encode: a lone surrogate is sent as U+FFFD, never a failure."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                          separators=(",", ":"))
        return inputs.sendable(text).encode("utf-8")


class BodyLimit:
    """ASGI middleware: refuse request bodies over `limit` bytes with `message/too_large` (413)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        seen = 0

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counting_receive, send)
        except _TooLarge:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        err = WebError("message/too_large", f"a request body may be at most {self.limit} bytes")
        response = SafeJSONResponse(payloads.error_body(err), status_code=413)
        await response(scope, receive, send)


class _TooLarge(Exception):
    pass


def create_app(
    settings: Settings | None = None,
    *,
    games: GamesLookup | None = None,
    make_agent: AgentMaker | None = None,
    agent_names: AgentNames | None = None,
) -> FastAPI:
    """The web app. `games`, `make_agent` and `agent_names` replace the registries (for tests)."""
    settings = settings or Settings.from_env()
    if settings.redis_url:  # several workers: refuse SQLite before anything is opened
        from pocketgalaxy.web.cluster import check_settings

        check_settings(settings.redis_url, settings.resolved_database_url)
    Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
    store = Store(settings.resolved_database_url, data_dir=Path(settings.data_dir),
                  allow_empty=settings.allow_empty)  # StoreOpenError: see run()
    hub = Hub(store, settings, games=games, make_agent=make_agent, agent_names=agent_names)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            await asyncio.to_thread(store.dispose)  # closes the pool's connections

    app = FastAPI(
        title="Pocket Galaxy",
        summary="Play Perils & Pathways and Adventure Cards online.",
        version="1",
        lifespan=lifespan,
        default_response_class=SafeJSONResponse,
    )
    limits = Limits(settings)
    app.state.hub = hub
    app.state.settings = settings
    app.state.limits = limits
    app.add_middleware(BodyLimit, limit=settings.max_message_bytes)
    app.add_middleware(RequestLimit, limits=limits)
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(PocketGalaxyError)
    async def _refusal(_request: Request, exc: PocketGalaxyError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, LimitError) else None
        return SafeJSONResponse(payloads.error_body(exc), status_code=status_for(exc.code),
                                headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        code = "action/malformed" if request.url.path.endswith("/actions") else "request/malformed"
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
            for e in exc.errors()[:5]
        )
        err = WebError(code, f"bad request: {problems}")
        return SafeJSONResponse(payloads.error_body(err), status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "request/not_found" if exc.status_code == 404 else f"http/{exc.status_code}"
        err = WebError(code, str(exc.detail))
        return SafeJSONResponse(payloads.error_body(err), status_code=exc.status_code,
                                headers=exc.headers)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Which worker answers, whether it is one of several, and the games whose computer
        players and timers it runs (all its unfinished games when it is the only one)."""
        if hub.cluster is not None:
            return hub.cluster.health()
        return {"worker": settings.worker_id, "cluster": False,
                "leases": sum(1 for g in hub.live.values() if not g.session.is_over),
                "live": len(hub.live)}

    app.include_router(api.router)
    app.include_router(guide.router)  # the How to play pages, /rules and /rules/{game}
    app.include_router(studies.router)  # the data folder's balance studies, /studies
    app.include_router(tutorial_api.router)  # the lessons: /api/lessons/{game}, .../lesson
    app.add_api_websocket_route("/ws/{game_id}", ws.websocket_endpoint)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    def page(name: str) -> FileResponse:
        path = STATIC / name
        if not path.is_file():
            raise WebError("page/missing", f"the page {name} is not installed")
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str) -> FileResponse:
        return page("play.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return page("replay.html")

    return app


def run(
    host: str | None = None,
    port: int | None = None,
    database_url: str | None = None,
    data_dir: str | Path | None = None,
    *,
    bot_delay_ms: int | None = None,
    log_level: str = "info",
    allow_empty: bool = False,
) -> None:
    """Serve until stopped; arguments beat POCKETGALAXY_* variables, which beat the defaults."""
    import uvicorn

    settings = Settings.from_env(
        host=host, port=port, database_url=database_url,
        data_dir=Path(data_dir) if data_dir is not None else None, bot_delay_ms=bot_delay_ms,
    )
    settings = dataclasses.replace(settings, allow_empty=allow_empty)
    # A missing, emptied or unreadable database, or a cluster set up wrong: say so and stop.
    try:
        app = create_app(settings)
    except (StoreOpenError, PocketGalaxyError) as exc:
        print(f"Pocket Galaxy cannot start: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from exc
    print(
        f"Pocket Galaxy is serving on http://{settings.host}:{settings.port}/ "
        f"(database {_safe_url(settings.resolved_database_url)})",
        flush=True,
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=log_level,
        # Frames far beyond our own limit are cut by the protocol layer; the rest get a reply.
        ws_max_size=max(4 * settings.max_message_bytes, 65536),
        ws_per_message_deflate=settings.ws_deflate,  # off unless asked (docs/web.md)
    )


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pocketgalaxy.web.server", description=__doc__)
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--database-url")
    parser.add_argument("--data-dir")
    parser.add_argument("--bot-delay-ms", type=int)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--allow-empty", action="store_true",
                        help="start even if the data folder says games existed and none are found")
    args = parser.parse_args(argv)
    run(args.host, args.port, args.database_url, args.data_dir, bot_delay_ms=args.bot_delay_ms,
        log_level=args.log_level, allow_empty=args.allow_empty)


if __name__ == "__main__":
    main()
