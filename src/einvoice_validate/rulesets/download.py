"""Fetching the official files for the installer: from upstream (or a mirror of it) over HTTPS, or from a
folder of files downloaded elsewhere.

Both fetchers turn an upstream address into a local file, once per address and install: an archive two packs
share (the XRechnung zip) is downloaded once. A download is streamed to disk under :data:`MAX_DOWNLOAD_BYTES`,
retried on network errors and server errors (not on a 404), and checked against its pinned sha256 when the
manifest records one. This module is the only place of the library that opens a network connection, and only
the installer uses it; nothing is fetched while validating.

A **mirror** (``--mirror URL`` or ``$EINVOICE_VALIDATE_MIRROR``) stands in for every upstream host: the address
``https://HOST/PATH`` is fetched as ``URL/HOST/PATH``, so a plain file server holding the files at ``HOST/PATH``
(what ``wget -x`` writes) is a mirror.
"""

from __future__ import annotations

import http.client
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, Protocol

from ..errors import RulesetError
from .manifest import Manifest
from .registry import sha256_file

__all__ = [
    "MAX_DOWNLOAD_BYTES",
    "MIRROR_ENV",
    "Address",
    "Downloader",
    "Fetcher",
    "LocalFiles",
    "ProgressCallback",
    "addresses",
    "local_candidates",
    "mirrored",
]

MIRROR_ENV = "EINVOICE_VALIDATE_MIRROR"
MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024
"""No download may be larger (the largest, the OASIS UBL 2.1 package, is 55 MiB)."""
TIMEOUT_S = 60
ATTEMPTS = 3
RETRY_WAIT_S = 2.0
"""Seconds before the second attempt; doubled before each further one."""
CHUNK = 1 << 20

ProgressCallback = Callable[[str, int, int | None], None]
"""Called while downloading with (name, bytes so far, total bytes or None), and once more when done."""

OFFLINE_HINT = (
    "Offline or behind a firewall? `einvoice-validate rulesets sources` lists every address and sha256: fetch "
    "them elsewhere into a folder and run `einvoice-validate rulesets install --from DIR`, or use a mirror "
    f"(--mirror URL or ${MIRROR_ENV})"
)


class Fetcher(Protocol):
    """Turns an upstream address into a local file with that content."""

    def fetch(self, url: str, sha256: str | None, pack: str) -> Path:
        """The local copy of ``url``; checked against ``sha256`` when given. ``pack`` names the pack that
        needs it (for error messages)."""
        ...


def mirrored(url: str, mirror: str | None) -> str:
    """The address to fetch ``url`` from: itself, or ``MIRROR/HOST/PATH`` under a mirror."""
    if not mirror:
        return url
    parts = urllib.parse.urlsplit(url)
    return f"{mirror.rstrip('/')}/{parts.netloc}{parts.path}"


def _check_sha256(path: Path, expected: str | None, url: str, pack: str) -> None:
    if expected is None:
        return
    actual = sha256_file(path)
    if actual != expected:
        raise RulesetError(
            "ruleset.corrupt",
            f"pack {pack}: {url} has sha256 {actual}, the manifest pins {expected} (a changed upstream file, "
            "or not the file upstream published)",
        )


class Downloader:
    """Downloads into ``directory`` (a scratch folder the installer removes afterwards)."""

    def __init__(
        self,
        directory: Path,
        mirror: str | None = None,
        on_progress: ProgressCallback | None = None,
        *,
        max_bytes: int | None = None,
        attempts: int = ATTEMPTS,
        retry_wait: float | None = None,
        timeout: float = TIMEOUT_S,
    ) -> None:
        self.directory = directory
        self.mirror = mirror if mirror is not None else (os.environ.get(MIRROR_ENV) or None)
        if self.mirror and urllib.parse.urlsplit(self.mirror).scheme not in ("http", "https"):
            raise RulesetError(
                "ruleset.install-failed", f"the mirror must be an http(s):// address, not {self.mirror!r}"
            )
        self.on_progress = on_progress
        self.max_bytes = MAX_DOWNLOAD_BYTES if max_bytes is None else max_bytes
        self.attempts = max(1, attempts)
        self.retry_wait = RETRY_WAIT_S if retry_wait is None else retry_wait
        self.timeout = timeout
        self._done: dict[str, Path] = {}

    def fetch(self, url: str, sha256: str | None, pack: str) -> Path:
        if url in self._done:
            return self._done[url]
        address = mirrored(url, self.mirror)
        via = f" (as {address}, through the mirror {self.mirror})" if self.mirror else ""
        target = self.directory / f"{len(self._done):03d}-{_name(url)}"
        wait = self.retry_wait
        for attempt in range(1, self.attempts + 1):
            try:
                self._stream(address, target)
                break
            except _Permanent as exc:
                raise RulesetError(
                    "ruleset.install-failed", f"pack {pack}: cannot download {url}{via}: {exc}. {OFFLINE_HINT}"
                ) from exc
            except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
                if attempt == self.attempts:
                    raise RulesetError(
                        "ruleset.install-failed",
                        f"pack {pack}: cannot download {url}{via} after {self.attempts} attempt(s): "
                        f"{_reason(exc)}. {OFFLINE_HINT}",
                    ) from exc
                time.sleep(wait)
                wait *= 2
        _check_sha256(target, sha256, url, pack)
        self._done[url] = target
        return target

    def _stream(self, address: str, target: Path) -> None:
        request = urllib.request.Request(address, headers={"User-Agent": "einvoice-validate (rulesets install)"})
        try:
            response = urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            if exc.code in (408, 429) or exc.code >= 500:
                raise  # worth another attempt
            raise _Permanent(f"HTTP {exc.code} {exc.reason}") from exc
        with response:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            if total is not None and total > self.max_bytes:
                raise _Permanent(f"{total} bytes announced, more than the limit of {self.max_bytes}")
            name = _name(address)
            done = 0
            with target.open("wb") as out:
                while block := response.read(CHUNK):
                    done += len(block)
                    if done > self.max_bytes:
                        raise _Permanent(f"more than the limit of {self.max_bytes} bytes")
                    out.write(block)
                    if self.on_progress is not None:
                        self.on_progress(name, done, total)
            if total is not None and done != total:
                raise OSError(f"connection closed after {done} of {total} bytes")
            if self.on_progress is not None:
                self.on_progress(name, done, done)


class LocalFiles:
    """Files downloaded elsewhere, in ``folder``: each address is looked up as ``folder/HOST/PATH`` (the mirror
    layout, what ``wget -x`` writes) or as ``folder/NAME`` (the last part of the address)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._done: dict[str, Path] = {}

    def fetch(self, url: str, sha256: str | None, pack: str) -> Path:
        if url in self._done:
            return self._done[url]
        candidates = local_candidates(self.folder, url)
        for path in candidates:
            if path.is_file():
                _check_sha256(path, sha256, url, pack)
                self._done[url] = path
                return path
        looked = " or ".join(str(p) for p in dict.fromkeys(candidates))
        raise RulesetError(
            "ruleset.missing",
            f"pack {pack}: {url} is not in {self.folder} (looked for {looked}); `einvoice-validate rulesets "
            "sources` lists the files to fetch",
        )


@dataclass(frozen=True, slots=True)
class Address:
    """One thing the downloading installer fetches: an archive or a single file, with the sha256 to expect (the
    archive's own where recorded, else ``None``: its members are checked one by one) and the packs needing it."""

    url: str
    sha256: str | None
    kind: Literal["archive", "file"]
    packs: tuple[str, ...]


def addresses(manifests: Iterable[Manifest]) -> list[Address]:
    """Every address the given packs are downloaded from, each once, in manifest order."""
    found: dict[str, Address] = {}
    for manifest in manifests:
        for rel in manifest.files:
            if rel not in manifest.sources:
                continue
            origin = manifest.origin(rel)
            if origin.kind == "bundled":
                continue
            if origin.kind == "member":
                entry = Address(origin.url, origin.archive_sha256, "archive", ())
            else:
                entry = Address(origin.url, manifest.files[rel], "file", ())
            known = found.setdefault(origin.url, entry)
            if manifest.key not in known.packs:
                found[origin.url] = replace(known, packs=(*known.packs, manifest.key))
    return list(found.values())


def local_candidates(folder: Path, url: str) -> list[Path]:
    """Where a folder of downloaded files may hold ``url``: ``HOST/PATH`` (decoded, then as written), ``NAME``."""
    parts = urllib.parse.urlsplit(url)
    decoded = urllib.parse.unquote(parts.path).lstrip("/")
    raw = parts.path.lstrip("/")
    return [folder / parts.netloc / decoded, folder / parts.netloc / raw, folder / _name(url)]


def _name(url: str) -> str:
    return urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1]) or "download"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        return str(exc.reason)
    return str(exc) or type(exc).__name__


class _Permanent(Exception):
    """A download failure another attempt would not cure (404, over the size limit)."""
