"""Config files linked on GitHub, fetched as raw files of public repositories: bounded in size and time, no token.

``https://github.com/OWNER/REPO/blob/REF/PATH`` (and ``…/raw/…``, ``raw.githubusercontent.com/OWNER/REPO/REF/PATH``)
is fetched from ``EFFBATCH_GITHUB_RAW_URL`` + ``OWNER/REPO/REF/PATH``. No credentials are sent, so only what
the world may read is read; redirects are not followed (a link cannot send the bot elsewhere); more than
``MAX_FILE_BYTES`` or longer than ``FETCH_SECONDS`` in all is given up.
"""

from __future__ import annotations

import http.client
import re
import time
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import quote, unquote, urlsplit

from effbatch.core.configs import MAX_FILE_BYTES

#: Seconds a fetch may take in all (connecting, waiting, reading).
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
    """The file a GitHub link names, or None for anything else (a repository, an issue, another host)."""
    parts = urlsplit(url)
    if parts.scheme != "https" or (parts.hostname or "") not in _HOSTS:
        return None
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if parts.hostname == "raw.githubusercontent.com":
        owner, repo, rest = (segments[0], segments[1], segments[2:]) if len(segments) >= 4 else ("", "", [])
    elif len(segments) >= 5 and segments[2] in ("blob", "raw"):
        owner, repo, rest = segments[0], segments[1], segments[3:]
    else:
        return None
    if not (_NAME.fullmatch(owner) and _NAME.fullmatch(repo)) or any(s in (".", "..") for s in rest):
        return None
    return GitHubFile(owner, repo, "/".join(rest))


def fetch(file: GitHubFile, base: str, seconds: float = FETCH_SECONDS, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The file's text; ``FetchError`` saying why not. One GET without credentials; redirects are not followed."""
    url = urlsplit(file.raw_url(base))
    kind = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    connection = kind(url.hostname or "", url.port, timeout=seconds)
    deadline = time.monotonic() + seconds
    response: http.client.HTTPResponse | None = None
    try:
        connection.request("GET", url.path, headers={"User-Agent": "effbatch", "Accept": "text/plain"})
        response = connection.getresponse()
        if response.status != 200:  # 404: no such file or a private repository; 3xx: elsewhere, not followed
            gone = response.status in (301, 302, 303, 307, 308, 403, 404)
            raise FetchError(FetchFailure.NOT_FOUND if gone else FetchFailure.UNREACHABLE)
        raw = _read_bounded(response, deadline, max_bytes)
    except TimeoutError:
        raise FetchError(FetchFailure.TOO_SLOW) from None
    except (http.client.HTTPException, OSError):
        raise FetchError(FetchFailure.UNREACHABLE) from None
    finally:
        if response is not None:
            response.close()  # before the connection: an unread body would keep its socket open
        connection.close()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FetchError(FetchFailure.NOT_TEXT) from None


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
