"""Config files linked on GitHub, fetched as raw files of public repositories: bounded in size and time, no token.

``https://github.com/OWNER/REPO/blob/REF/PATH`` (and ``…/raw/…``, ``raw.githubusercontent.com/OWNER/REPO/REF/PATH``)
is fetched from ``EFFBATCH_GITHUB_RAW_URL`` + ``OWNER/REPO/REF/PATH``. No credentials are sent, so only what
the world may read is read; redirects are not followed (a link cannot send the bot elsewhere); more than
``MAX_FILE_BYTES`` or longer than ``FETCH_SECONDS`` in all – connecting, status line, headers and body under one
deadline – is given up. A path is decoded before it is validated: ``%2F..%2F`` inside a segment is ``/../``.
"""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import SplitResult, quote, unquote, urlsplit

from effbatch.core.configs import MAX_FILE_BYTES

#: Seconds a fetch may take in all (connecting, the status line, the headers, the body).
FETCH_SECONDS = 3.0
_HOSTS = {"github.com", "www.github.com", "raw.githubusercontent.com"}
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class GitHubFile:
    """A file in a repository at a ref, as a link names it."""

    owner: str
    repo: str
    ref_and_path: str

    @property
    def name(self) -> str:
        """The file's name, which a check shows (and which tells YAML from a script)."""
        return self.ref_and_path.rsplit("/", 1)[-1]

    def raw_url(self, base: str) -> str:
        return f"{base}{self.owner}/{self.repo}/{quote(self.ref_and_path)}"


class FetchFailure(StrEnum):
    """Why a linked file could not be read; the German wording lives in ``bot.texts.links``."""

    NOT_FOUND = "not_found"  # 404: no such file, or a private repository
    TOO_LARGE = "too_large"
    TOO_SLOW = "too_slow"
    UNREACHABLE = "unreachable"
    NOT_TEXT = "not_text"


class FetchError(Exception):
    def __init__(self, failure: FetchFailure) -> None:
        self.failure = failure
        super().__init__(failure.value)


def github_file(url: str) -> GitHubFile | None:
    """The file a GitHub link names, or None for anything else (a repository, an issue, another host, a link that
    is no valid text or whose path, once decoded, would leave the repository)."""
    if not is_text(url):
        return None
    parts = urlsplit(url)
    if parts.scheme != "https" or (parts.hostname or "") not in _HOSTS:
        return None
    segments = _decoded(parts.path)
    if segments is None:
        return None
    if parts.hostname == "raw.githubusercontent.com":
        owner, repo, rest = (segments[0], segments[1], segments[2:]) if len(segments) >= 4 else ("", "", [])
    elif len(segments) >= 5 and segments[2] in ("blob", "raw"):
        owner, repo, rest = segments[0], segments[1], segments[3:]
    else:
        return None
    if not (_named(owner) and _named(repo)):
        return None
    return GitHubFile(owner, repo, "/".join(rest))


def is_text(url: str) -> bool:
    """Whether ``url`` can be sent at all: no lone surrogate (which JSON may carry, UTF-8 cannot)."""
    try:
        url.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _decoded(path: str) -> list[str] | None:
    """The path's segments decoded, then split again (``a%2F..%2Fb`` is three); None where one is ``.`` or ``..``
    (also with ``\\``) or a percent escape is no UTF-8: validated after decoding, as the raw host will read it."""
    try:
        decoded = [unquote(segment, errors="strict") for segment in path.split("/") if segment]
    except UnicodeDecodeError:
        return None
    segments = [part for segment in decoded for part in segment.split("/") if part]
    if any(part in (".", "..") for segment in segments for part in segment.split("\\")):
        return None
    return segments


def _named(name: str) -> bool:
    """An owner's or a repository's name as GitHub allows it (never ``.`` or ``..``)."""
    return _NAME.fullmatch(name) is not None and name.strip(".") != ""


def fetch(file: GitHubFile, base: str, seconds: float = FETCH_SECONDS, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The file's text; ``FetchError`` saying why not. One GET without credentials; redirects are not followed.

    ``seconds`` bounds the whole request – connecting, the status line, the headers, the body – by one deadline:
    the request runs in a thread of its own, and when the deadline passes its socket is shut and the caller is
    answered ``TOO_SLOW`` at once, however the server trickles (or a name lookup hangs)."""
    request = _Request(urlsplit(file.raw_url(base)), time.monotonic() + seconds, max_bytes)
    worker = threading.Thread(target=request.run, name="effbatch-fetch", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        request.abandon()
        raise FetchError(FetchFailure.TOO_SLOW)
    if request.failure is not None:
        raise FetchError(request.failure)
    try:
        return request.body.decode("utf-8")
    except UnicodeDecodeError:
        raise FetchError(FetchFailure.NOT_TEXT) from None


@dataclass
class _Request:
    """One GET of ``url`` before ``deadline``, run in its own thread; ``body`` or ``failure`` once it has ended."""

    url: SplitResult
    deadline: float
    max_bytes: int
    body: bytes = b""
    failure: FetchFailure | None = None
    connection: http.client.HTTPConnection | None = None
    abandoned: bool = False

    def run(self) -> None:
        kind = http.client.HTTPSConnection if self.url.scheme == "https" else http.client.HTTPConnection
        timeout = max(0.01, self.deadline - time.monotonic())
        self.connection = connection = kind(self.url.hostname or "", self.url.port, timeout=timeout)
        response: http.client.HTTPResponse | None = None
        try:
            connection.request("GET", self.url.path, headers={"User-Agent": "effbatch", "Accept": "text/plain"})
            if self.abandoned:  # given up while connecting, before its socket could be shut: end here
                return
            response = connection.getresponse()
            if response.status != 200:  # 404: no such file or a private repository; 3xx: elsewhere, not followed
                gone = response.status in (301, 302, 303, 307, 308, 403, 404)
                raise FetchError(FetchFailure.NOT_FOUND if gone else FetchFailure.UNREACHABLE)
            self.body = _read_bounded(response, self.deadline, self.max_bytes)
        except FetchError as error:
            self.failure = error.failure
        except TimeoutError:
            self.failure = FetchFailure.TOO_SLOW
        except (http.client.HTTPException, OSError):
            late = time.monotonic() >= self.deadline  # the socket shut at the deadline
            self.failure = FetchFailure.TOO_SLOW if late else FetchFailure.UNREACHABLE
        finally:
            if response is not None:
                response.close()  # before the connection: an unread body would keep its socket open
            connection.close()

    def abandon(self) -> None:
        """The deadline passed: shut the socket, so that the thread ends now rather than when the server stops (or,
        still connecting, it ends once connected)."""
        self.abandoned = True  # first: a socket connected after this line is seen as abandoned by ``run``
        sock = self.connection.sock if self.connection is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def _read_bounded(response: http.client.HTTPResponse, deadline: float, max_bytes: int) -> bytes:
    """At most ``max_bytes`` before ``deadline``, chunk by chunk (a server trickling bytes cannot hold it up)."""
    declared = response.getheader("Content-Length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise FetchError(FetchFailure.TOO_LARGE)
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read1(_CHUNK):
        size += len(chunk)
        if size > max_bytes:
            raise FetchError(FetchFailure.TOO_LARGE)
        if time.monotonic() > deadline:
            raise FetchError(FetchFailure.TOO_SLOW)
        chunks.append(chunk)
    return b"".join(chunks)
