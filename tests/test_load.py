"""Load and faults on loopback, bounded in count and time: HTTP at 32 concurrent, Socket Mode bursts and reconnects."""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from effbatch.bot.rendering.formatting import number

import slack_payloads
from bot_process import BotProcess, clean_env, free_port, get, start_http_bot
from fake_slack import APP_TOKEN, BOT_TOKEN, FakeSocketModeServer, FakeWebAPI, Reply
from slack_signing import SIGNING_SECRET, signed_headers

SIGNING_SECRET = SIGNING_SECRET
REQUESTS = 2000
CONCURRENCY = 32


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(capsys: pytest.CaptureFixture[str], line: str) -> None:
    """Figures go to the terminal even when pytest captures output: they belong in the CI log."""
    with capsys.disabled():
        print(f"\n[load] {line}")


@pytest.fixture
def http_bot(tmp_path: Path) -> Iterator[BotProcess]:
    with FakeWebAPI() as api:
        process = start_http_bot(api.url, tmp_path)
        time.sleep(0.3)  # let the second worker boot, so the run measures both
        try:
            yield process
        finally:
            process.stop()


def test_http_under_concurrent_load(http_bot: BotProcess, capsys: pytest.CaptureFixture[str]) -> None:
    """2.000 signed commands from 32 keep-alive clients: no error, every answer right (figures: make bench)."""
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", http_bot.port, timeout=10)
        for n in range(index, REQUESTS, CONCURRENCY):
            accumulation = n % 64 + 1  # 64 different commands, each answer checkable: B = 8 · 64 · a
            body = urlencode(slack_payloads.command(f"8 64 {accumulation} 4096", "https://hooks.slack.com/x"))
            started = time.perf_counter()
            try:
                connection.request("POST", "/slack/events", body=body, headers=signed_headers(SIGNING_SECRET, body))
                response = connection.getresponse()
                payload = json.loads(response.read())
                elapsed = time.perf_counter() - started
                expected = f"Effektive Batch-Größe: {number(512 * accumulation)} Sequenzen"
                ok = response.status == 200 and payload["blocks"][0]["text"]["text"] == expected
            except (OSError, http.client.HTTPException, ValueError, KeyError) as error:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", http_bot.port, timeout=10)
                ok, elapsed = False, time.perf_counter() - started
                payload = {"error": repr(error)}
            with lock:
                latencies.append(elapsed)
                if not ok:
                    failures.append(f"{n}: {str(payload)[:200]}")
        connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(CONCURRENCY)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    wall = time.perf_counter() - started
    p50, p99 = statistics.median(latencies) * 1000, percentile(latencies, 0.99) * 1000
    report(
        capsys,
        f"HTTP {REQUESTS} requests at {CONCURRENCY} concurrent: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
        f"max {max(latencies) * 1000:.1f} ms, {REQUESTS / wall:.0f} req/s, errors {len(failures)}",
    )
    assert failures == []
    assert len(latencies) == REQUESTS


def start_socket_bot(api: FakeWebAPI, cwd: Path) -> BotProcess:
    env = clean_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN=APP_TOKEN, SLACK_API_URL=api.url)
    process = BotProcess(env=env, cwd=cwd, port=free_port())
    process.wait_healthy()
    wait_for(lambda: get(process.base + "/readyz")[0] == 200, "connected")
    return process


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not {what} within {timeout} s"
        time.sleep(0.02)


def answered(server: FakeSocketModeServer, text: str, expected: str) -> None:
    ack = server.wait_for_ack(server.send_slash_command(text), timeout=20)
    assert expected in json.dumps(ack["payload"], ensure_ascii=False)


def test_socket_mode_burst(
    web_api: FakeWebAPI, socket_mode_server: FakeSocketModeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A burst of 300 envelopes at once: every one acknowledged with its own correct answer."""
    process = start_socket_bot(web_api, tmp_path)
    try:
        sent = {}
        started = time.perf_counter()
        for n in range(300):
            a = n % 64 + 1
            sent[socket_mode_server.send_slash_command(f"8 64 {a} 4096")] = a
        acks: dict[str, dict] = {}
        while len(acks) < len(sent):
            ack = socket_mode_server.acks.get(timeout=20)
            acks[ack["envelope_id"]] = ack
        wall = time.perf_counter() - started
        for envelope_id, a in sent.items():
            header = acks[envelope_id]["payload"]["blocks"][0]["text"]["text"]
            assert header == f"Effektive Batch-Größe: {number(512 * a)} Sequenzen"
        report(capsys, f"Socket Mode burst: 300 envelopes acknowledged in {wall * 1000:.0f} ms")
    finally:
        output = process.stop()
    assert process.returncode == 0, output


def test_socket_mode_reconnects(
    web_api: FakeWebAPI, socket_mode_server: FakeSocketModeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """After Slack's disconnect message and after a dropped connection the bot reconnects by itself and answers;
    /readyz is 503 while it has no connection."""
    process = start_socket_bot(web_api, tmp_path)
    try:
        first = socket_mode_server.connections
        socket_mode_server.send_disconnect()
        wait_for(lambda: socket_mode_server.connections > first, "reconnected after disconnect")
        answered(socket_mode_server, "8 64 4 4096", "2.048")

        # No new connection until the test has seen /readyz 503: apps.connections.open stalls (each try times out
        # after 2 s, so every retry meets a stalled answer too) until the gate opens.
        gate = threading.Event()
        stalled = Reply(body={"ok": True, "url": socket_mode_server.url}, hold=gate)
        web_api.script("apps.connections.open", *[stalled] * 30)
        before_drop = socket_mode_server.connections
        dropped = time.monotonic()
        socket_mode_server.drop()
        try:
            wait_for(lambda: get(process.base + "/readyz")[0] == 503, "not ready after the drop")
        finally:
            gate.set()
        wait_for(lambda: get(process.base + "/readyz")[0] == 200, "ready again")
        report(capsys, f"Socket Mode: ready again {time.monotonic() - dropped:.1f} s after a dropped connection")
        assert socket_mode_server.connections > before_drop
        answered(socket_mode_server, "8 64 8 4096", "4.096")
    finally:
        output = process.stop()
    assert process.returncode == 0, output
