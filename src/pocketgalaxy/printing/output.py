"""Writing a PDF safely: check the target first, then write it whole or not at all.

A PDF is built in memory; `write_atomically` puts it in a temporary file beside the target and
renames it into place, so a reader never sees half a file and a failure leaves nothing behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pocketgalaxy.core.errors import PocketGalaxyError


class PrintError(PocketGalaxyError):
    """A print request that cannot be carried out: the message says what is allowed."""

    def __init__(self, message: str, *, allowed: tuple[str, ...] = ()) -> None:
        super().__init__(message, code="print/invalid", allowed=allowed)


def check_target(path: str | Path) -> Path:
    """The output path, checked before any work: a .pdf file name in an existing, writable
    folder, and not a folder itself. Raises PrintError."""
    target = Path(path)
    if target.suffix.lower() != ".pdf":
        raise PrintError(f"output {str(target)!r} is not a .pdf file name; "
                         "allowed: a path ending in .pdf, such as playsheet.pdf")
    if target.is_dir():
        raise PrintError(f"output {str(target)!r} is a folder; allowed: a file name ending in .pdf")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise PrintError(f"cannot write {str(target)!r}: folder {str(folder)!r} does not exist; "
                         "allowed: a file in an existing folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PrintError(f"cannot write {str(target)!r}: folder {str(folder)!r} is not writable; "
                         "allowed: a file in a folder you may write to")
    if target.exists() and not os.access(target, os.W_OK):
        raise PrintError(f"cannot write {str(target)!r}: the file is read-only; "
                         "allowed: a new file, or one you may overwrite")
    return target


def write_atomically(target: Path, data: bytes) -> None:
    """Write `data` to `target` through a temporary file in the same folder and a rename."""
    folder = target.parent if str(target.parent) else Path(".")
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise PrintError(f"cannot write {str(target)!r}: {exc.strerror or exc}; nothing was "
                         "written") from exc
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
