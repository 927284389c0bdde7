"""Typed errors. Each carries a stable reason code, the bad input, and what is allowed.

Shells translate these once: the terminal prints one line and asks again, the web answers
`{"error": {"code", "message", "legal"}}`.
"""

from __future__ import annotations

from collections.abc import Sequence


class PocketGalaxyError(ValueError):
    """Base of every refusal. `code` is namespaced and stable, like `action/not_your_turn`."""

    code: str = "error"

    def __init__(
        self, message: str, *, code: str | None = None, allowed: Sequence[str] = ()
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.allowed: tuple[str, ...] = tuple(allowed)

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "legal": list(self.allowed)}


class CardCodeError(PocketGalaxyError):
    """A card code that does not parse."""

    def __init__(self, text: str, expected: str) -> None:
        super().__init__(f"bad card code {text!r}: {expected}", code="card/bad_code")


class MalformedActionError(PocketGalaxyError):
    """An action that is not even well-formed (unknown type, missing or mistyped field)."""

    def __init__(self, data: object, problem: str, *, allowed: Sequence[str] = ()) -> None:
        super().__init__(
            f"malformed action {data!r}: {problem}", code="action/malformed", allowed=allowed
        )
        self.data = data


class IllegalActionError(PocketGalaxyError):
    """A well-formed action that the rules forbid now.

    The message names the action, the seat, the reason code, the numbered rule and what is allowed:
    `illegal action RequestCard(target=3, card='B4') for seat 1: not_your_turn
    (AC-R7; seat 2 to act)`.
    """

    def __init__(
        self,
        action: object,
        seat: int | None,
        reason: str,
        rule: str,
        detail: str = "",
        *,
        allowed: Sequence[str] = (),
    ) -> None:
        who = f" for seat {seat}" if seat is not None else ""
        extra = f"; {detail}" if detail else ""
        super().__init__(
            f"illegal action {action!r}{who}: {reason} ({rule}{extra})",
            code=f"action/{reason}",
            allowed=allowed,
        )
        self.action = action
        self.seat = seat
        self.reason = reason
        self.rule = rule


class OptionsError(PocketGalaxyError):
    """An unknown option or a value outside its allowed set."""

    def __init__(self, message: str, *, allowed: Sequence[str] = ()) -> None:
        super().__init__(message, code="options/invalid", allowed=allowed)


class ContentError(PocketGalaxyError):
    """A broken content file (playsheet, card data): says file, key and what was expected."""

    def __init__(self, file: str, key: str, expected: str) -> None:
        super().__init__(f"{file}: {key}: {expected}", code="content/invalid")
        self.file = file
        self.key = key


class RecordError(PocketGalaxyError):
    """A game record or save that cannot be read or does not replay."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="record/invalid")
