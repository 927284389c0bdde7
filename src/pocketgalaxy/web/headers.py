"""Security headers on every HTTP response: pages, static files, API replies, errors and 404s.

A pure ASGI middleware (Starlette's BaseHTTPMiddleware would buffer streaming responses and does
not see WebSockets). It adds, unless the response already set them:

- `Content-Security-Policy`: scripts, styles, images and connections only from this origin, no
  inline script or style, no plugins, no `<base>`, and no framing (`frame-ancestors 'none'`);
- `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`.

FastAPI's own API pages (`/docs`, `/redoc`) load Swagger UI and ReDoc from cdn.jsdelivr.net with
an inline start-up script, so those pages alone get `DOCS_POLICY`, which allows that CDN and
inline code; they show no game data. It also turns an unexpected exception into a JSON 500 that
carries the same headers (the traceback goes to the log: it is a server bug, not bad input).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi.responses import JSONResponse

log = logging.getLogger("pocketgalaxy.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PAGE_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
])
DOCS_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com",
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
    "font-src 'self' https://fonts.gstatic.com",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
])
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
STUDY_POLICY = "; ".join([
    # A study's report (written by `pocketgalaxy balance`) styles itself inline, as do
    # matplotlib's SVG plots in it; it runs no script at all.
    "default-src 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
])

_COMMON: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers added to a response for `path`."""
    if path in DOCS_PATHS:
        policy = DOCS_POLICY
    elif path.startswith("/studies/"):
        policy = STUDY_POLICY
    else:
        policy = PAGE_POLICY
    return [(b"content-security-policy", policy.encode("ascii")), *_COMMON]


class SecurityHeaders:
    """ASGI middleware adding `security_headers` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(str(scope.get("path", "")))
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers") or [])
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in extra if k not in present]
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if started:
                raise
            log.exception("unexpected error answering %s %s", scope.get("method"),
                          scope.get("path"))
            body = {"error": {"code": "server/error", "message": "the server failed to answer; "
                              "this is a bug, and it has been logged", "legal": []}}
            await JSONResponse(body, status_code=500)(scope, receive, send_with_headers)
