"""The page's links at rest: a link's secret token is never written in the database as it is.

A seat's row keeps the token's SHA-256 (``digest``: what a token must hash to) and the token sealed (``seal``) under
a key kept outside the database, in the user's own data folder (``key_path``: ``$AFFRAY_DATA/links.key``, else
``$XDG_DATA_HOME/affray/links.key``, else ``~/.local/share/affray/links.key``; mode 600). Serving a fight again
opens the sealed tokens with that key and prints the same links (CONTRACT "The table's web page"); anyone who only
reads the database (a copy, a backup, a file sent with a bug report) gets neither a link nor a way to make one. A
seat whose token cannot be opened here (the key is another account's or machine's, or none could be kept) is
given a new link, which revokes the old.

The seal is a one-time pad drawn from HMAC-SHA256 of the key and a random nonce of the row's own (a pseudo-random
function used as a stream cipher: each token is sealed once, under a nonce never used again), checked on opening
against the digest.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

__all__ = ["KEY_BYTES", "digest", "key_path", "link_key", "seal", "unseal"]

#: The key's length in bytes.
KEY_BYTES = 32


def key_path() -> Path:
    """Where the links' key is kept: ``$AFFRAY_DATA``, else the XDG data folder's ``affray``."""
    own = os.environ.get("AFFRAY_DATA")
    if own:
        return Path(own) / "links.key"
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "affray" / "links.key"


def link_key() -> bytes | None:
    """The links' key, made (mode 600) on first use; None when it can be neither read nor made (no home folder, a
    read-only one): the links are then kept as digests alone, and serving again gives new ones."""
    path = key_path()
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # made by another process at this moment
        try:
            return _read(path)
        except OSError:
            return None
    except OSError:
        return None
    key = secrets.token_bytes(KEY_BYTES)
    try:
        os.write(fd, key)
        os.fsync(fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    return key


def _read(path: Path) -> bytes | None:
    key = path.read_bytes()
    return key if len(key) == KEY_BYTES else None


def digest(token: str) -> str:
    """What a token is known by in the database: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _pad(key: bytes, nonce: bytes, n: int) -> bytes:
    out = b""
    block = 0
    while len(out) < n:
        out += hmac.new(key, b"affray-link" + nonce + block.to_bytes(4, "big"), hashlib.sha256).digest()
        block += 1
    return out[:n]


def seal(token: str, key: bytes) -> str:
    """``token`` sealed under ``key``: its nonce and the sealed bytes, in base64 (``unseal`` opens it)."""
    raw = token.encode("utf-8")
    nonce = secrets.token_bytes(16)
    sealed = bytes(a ^ b for a, b in zip(raw, _pad(key, nonce, len(raw)), strict=True))
    return base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def unseal(sealed: object, key: bytes | None, known: object) -> str | None:
    """The token ``sealed`` holds, if ``key`` opens it to one whose digest is ``known``; else None."""
    if key is None or not isinstance(sealed, str) or not isinstance(known, str) or len(sealed) > 400:
        return None
    try:
        raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
    except (ValueError, UnicodeError):
        return None
    nonce, body = raw[:16], raw[16:]
    if len(nonce) < 16 or not body:
        return None
    opened = bytes(a ^ b for a, b in zip(body, _pad(key, nonce, len(body)), strict=True))
    try:
        token = opened.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return token if hmac.compare_digest(digest(token), known) else None
