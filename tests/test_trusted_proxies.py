"""Behind a proxy on another host every request comes from the proxy's address, and the per-client limits counted
that one address: 32 slow unsigned bodies from anyone behind it made every signed request 503. With the proxy named
in EFFBATCH_TRUSTED_PROXIES its X-Forwarded-For names the client. On loopback: 127.0.0.2 and 127.0.0.3 play
proxies on other hosts (only 127.0.0.1 and ::1 are trusted by default)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_hardening import command_body

from effbatch.bot.operations.settings import ConfigError, load_settings
from effbatch.bot.serving.http_app import MAX_READING_PER_PEER

from bot_process import BotProcess, start_http_bot
from fake_slack import FakeWebAPI
from slack_signing import SIGNING_SECRET, signed_headers

HANG_GUARD = 10.0
SLOW = b"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\nX-Forwarded-For: 203.0.113.7\r\n\r\npayload="


def request(bot: BotProcess, proxy: str, raw: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", bot.port), source_address=(proxy, 0), timeout=HANG_GUARD)
    sock.sendall(raw)
    return sock


@contextmanager
def slow_client_behind(bot: BotProcess, proxy: str) -> Iterator[None]:
    """One client (203.0.113.7) behind ``proxy`` trickling unsigned bodies until the bot refuses the next one: it
    then holds as many as one peer may (whichever peer the bot counts them against)."""
    slow: list[socket.socket] = []
    try:
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            slow.append(request(bot, proxy, SLOW))
            if len(slow) > MAX_READING_PER_PEER:
                slow[-1].settimeout(0.2)  # a refusal comes at once; a body being read only after 5 s
                try:
                    if slow[-1].recv(1024).startswith(b"HTTP/1.1 503"):
                        break
                except TimeoutError:
                    continue
        yield
    finally:
        for sock in slow:
            sock.close()


def signed_status(bot: BotProcess, proxy: str, client: str) -> int:
    """The status of a signed command another client (``client``) sends through ``proxy``."""
    body = command_body("8 64 4 4096")
    headers = signed_headers(SIGNING_SECRET, body) | {"X-Forwarded-For": client, "Content-Length": str(len(body))}
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    sock = request(bot, proxy, f"POST /slack/events HTTP/1.1\r\nHost: x\r\n{head}\r\n{body}".encode())
    with sock:
        return int(sock.recv(1024).split(b" ", 2)[1])


@pytest.mark.parametrize(
    ("trusted", "proxy", "signed"),
    [
        ("127.0.0.2", "127.0.0.2", 200),  # a trusted proxy: its clients are counted apart
        ("127.0.0.0/30", "127.0.0.2", 200),  # a network of proxies
        ("127.0.0.2", "127.0.0.3", 503),  # an untrusted one is one client: its header could be forged
    ],
)
def test_a_slow_client_behind_a_trusted_proxy_starves_nobody(
    tmp_path: Path, trusted: str, proxy: str, signed: int
) -> None:
    """One client behind the proxy holding its 32 slow bodies: another client's signed command through the same
    proxy is answered when the proxy is trusted, and refused when it is not (the proxy is then a single client)."""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="1", EFFBATCH_TRUSTED_PROXIES=trusted)
        try:
            with slow_client_behind(bot, proxy):
                assert signed_status(bot, proxy, "198.51.100.9") == signed
        finally:
            bot.stop()


def test_a_trusted_proxy_must_be_an_address_or_a_network(tmp_path: Path) -> None:
    """EFFBATCH_TRUSTED_PROXIES with a name in it is refused at start-up, in German, naming the value."""
    env_file = tmp_path / ".env"
    env_file.write_text("EFFBATCH_TRUSTED_PROXIES=10.0.0.5, ingress.local\n")
    with pytest.raises(ConfigError) as raised:
        load_settings(env_file)
    assert raised.value.problems == [
        (
            "EFFBATCH_TRUSTED_PROXIES",
            "„ingress.local“ ist keine IP-Adresse und kein Netz (z. B. 10.0.0.5 oder 10.0.0.0/8)",
        )
    ]
