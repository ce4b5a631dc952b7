"""Access keys and the lockout: keys are stored only as checksums, compared in constant time; repeated invalid
keys from one address lock that address out for a while.

A key reads ``ev_<id>_<secret>``: ``id`` (8 hex digits) names the key in the store and the logs, ``secret`` is
32 random bytes (URL-safe base64). The store (``keys_file``) holds one JSON object per line: ``id``,
``sha256`` (of the whole key), ``permission`` (``invoices`` or ``admin``), ``created``, ``revoked``. A key of
256 random bits needs no slow password hash: a checksum cannot be turned back into it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

__all__ = ["PERMISSIONS", "ApiKey", "KeyStore", "Lockout", "create_key", "load_keys", "revoke_key"]

Permission = Literal["invoices", "admin"]
PERMISSIONS: tuple[Permission, ...] = ("invoices", "admin")
_PREFIX = "ev_"


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A stored key: never the key itself, only its checksum."""

    id: str
    sha256: str
    permission: Permission
    created: str
    revoked: bool = False


def _checksum(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def create_key(path: Path, permission: Permission) -> tuple[str, ApiKey]:
    """Create a key, store its checksum in ``path`` (created with mode 0600), and return the key (shown once)."""
    if permission not in PERMISSIONS:
        raise ValueError(f"permission must be one of {', '.join(PERMISSIONS)}, not {permission!r}")
    key_id = secrets.token_hex(4)
    key = f"{_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    entry = ApiKey(key_id, _checksum(key), permission, datetime.now(UTC).isoformat(timespec="seconds"))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(_as_dict(entry)) + "\n")
    return key, entry


def _as_dict(entry: ApiKey) -> dict[str, object]:
    return {
        "id": entry.id,
        "sha256": entry.sha256,
        "permission": entry.permission,
        "created": entry.created,
        "revoked": entry.revoked,
    }


def revoke_key(path: Path, key_id: str) -> bool:
    """Mark the key ``key_id`` revoked; False when there is no such key."""
    entries = load_keys(path)
    if key_id not in {e.id for e in entries}:
        return False
    revoked = [e if e.id != key_id else ApiKey(e.id, e.sha256, e.permission, e.created, True) for e in entries]
    lines = [json.dumps(_as_dict(e)) for e in revoked]
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in lines))
    os.replace(tmp, path)
    return True


def load_keys(path: Path) -> list[ApiKey]:
    """The keys stored in ``path`` (none when it does not exist)."""
    if not path.is_file():
        return []
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            entries.append(
                ApiKey(raw["id"], raw["sha256"], raw["permission"], raw["created"], bool(raw.get("revoked", False)))
            )
    return entries


class KeyStore:
    """The server's view of the keys file (read at start)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._by_id = {e.id: e for e in load_keys(path)} if path is not None else {}

    @property
    def enabled(self) -> bool:
        """True when keys are configured (then every request to the API needs one)."""
        return self.path is not None

    def check(self, presented: str | None) -> ApiKey | None:
        """The stored key matching ``presented``, or None (missing, malformed, unknown, revoked or wrong)."""
        if not presented or not presented.startswith(_PREFIX):
            return None
        key_id = presented[len(_PREFIX) :].split("_", 1)[0]
        entry = self._by_id.get(key_id)
        # compared in constant time; an unknown id is compared too, so timing tells nothing about the ids
        expected = entry.sha256 if entry is not None else "0" * 64
        if not hmac.compare_digest(_checksum(presented), expected) or entry is None or entry.revoked:
            return None
        return entry


class Lockout:
    """Invalid keys per address: ``failures`` within ``window`` seconds lock the address for ``seconds``.

    Constant time per request and bounded memory: one entry per address (the start of its window, its count,
    the end of its lockout) in a table ordered by last change, so the entries that expired are dropped from its
    front as new ones come (each at most once). The table holds at most ``max_addresses`` entries. When it is
    full, the failures of addresses not in it are counted together in one overflow entry: once that one is
    locked, an invalid key from such an address gets ``429`` instead of ``401``. The lockout is checked before the
    key only for addresses in the table (:meth:`remaining`), so a full table never refuses a valid key.
    """

    def __init__(self, failures: int, window: float, seconds: float, max_addresses: int = 100_000) -> None:
        self.failures = failures
        self.window = window
        self.seconds = seconds
        self.max_addresses = max_addresses
        # address -> [window start, count, locked until, last failure], oldest last failure first
        self._table: OrderedDict[str, list[float]] = OrderedDict()
        self._overflow = [0.0, 0.0, 0.0, 0.0]
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._table)

    def remaining(self, address: str) -> float:
        """Seconds the address stays locked out (0: not locked)."""
        now = time.monotonic()
        with self._lock:
            entry = self._table.get(address)
            return max(0.0, entry[2] - now) if entry is not None else 0.0

    def fail(self, address: str) -> float:
        """Record an invalid key from ``address``. Returns 0 (answer 401), or the seconds the overflow entry is
        locked when the table is full and ``address`` is not in it (answer 429 with them)."""
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            entry = self._table.get(address)
            if entry is None:
                if len(self._table) >= self.max_addresses:
                    locked = max(0.0, self._overflow[2] - now)
                    self._count(self._overflow, now)
                    return locked
                entry = self._table[address] = [now, 0.0, 0.0, now]
            else:
                self._table.move_to_end(address)
            self._count(entry, now)
            return 0.0

    def _count(self, entry: list[float], now: float) -> None:
        entry[3] = now
        if now - entry[0] > self.window:  # a new window
            entry[0], entry[1] = now, 0.0
        entry[1] += 1
        if entry[1] >= self.failures:
            entry[2] = now + self.seconds
            entry[0], entry[1] = now, 0.0

    def _expire(self, now: float) -> None:
        keep = max(self.window, self.seconds)  # past it, an entry neither counts nor locks
        table = self._table
        while table:
            address, entry = next(iter(table.items()))
            if now - entry[3] <= keep:
                return
            del table[address]
