"""Operating effbatch: readiness, Prometheus metrics, JSON logs without secrets, graceful SIGTERM."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import slack_payloads
from bot_process import BotProcess, clean_env, free_port, get, start_http_bot
from fake_slack import APP_TOKEN, BOT_TOKEN, FakeSocketModeServer, FakeWebAPI, Reply
from slack_signing import SIGNING_SECRET, signed_headers


def http_bot(api: FakeWebAPI, cwd: Path, **settings: str) -> BotProcess:
    return start_http_bot(api.url, cwd, **settings)


def send(bot: BotProcess, api: FakeWebAPI, text: str) -> tuple[int, bytes]:
    body = urlencode(slack_payloads.command(text, api.response_url("cmd")))
    request = urllib.request.Request(
        bot.base + "/slack/events", data=body.encode(), headers=signed_headers(SIGNING_SECRET, body), method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read()


def metric(bot: BotProcess, name: str, labels: str = "") -> float:
    """One sample from /metrics, 0 when it has not been recorded yet."""
    status, text = get(bot.base + "/metrics")
    assert status == 200
    match = re.search(rf"^{re.escape(name)}{re.escape(labels)} ([0-9.e+]+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def test_readyz_follows_the_socket_mode_connection(
    web_api: FakeWebAPI, socket_mode_server: FakeSocketModeServer, tmp_path: Path
) -> None:
    """/readyz is 503 while Socket Mode is still connecting and 200 once connected; /healthz is 200 throughout."""
    web_api.script("apps.connections.open", Reply(body={"ok": True, "url": socket_mode_server.url}, delay=1.5))
    env = clean_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN=APP_TOKEN, SLACK_API_URL=web_api.url)
    process = BotProcess(env=env, cwd=tmp_path, port=free_port())
    try:
        process.wait_healthy()
        assert get(process.base + "/readyz")[0] == 503
        deadline = time.monotonic() + 10
        while get(process.base + "/readyz")[0] != 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # Full bodies, whatever was asked before: the health server must not reuse a response's headers.
        assert get(process.base + "/healthz") == (200, "ok\n")
        assert get(process.base + "/readyz") == (200, "ready\n")
        assert get(process.base + "/metrics")[1].startswith("# HELP")
    finally:
        output = process.stop()
    assert process.returncode == 0, output


def test_metrics_count_answers_across_workers(tmp_path: Path) -> None:
    """/metrics (summed over both worker processes) counts answers by kind, input errors, failures and latency."""
    with FakeWebAPI() as api:
        bot = http_bot(api, tmp_path, WEB_CONCURRENCY="2")
        try:
            before = metric(bot, "effbatch_answers_total", '{kind="calculation"}')
            for _ in range(4):  # more requests than workers, so both record some
                send(bot, api, "8 64 4 4096")
            send(bot, api, "acht 64 4")
            api.script("views.open", Reply(body={"ok": False, "error": "expired_trigger_id"}))
            send(bot, api, "")
            assert metric(bot, "effbatch_answers_total", '{kind="calculation"}') == before + 4
            assert metric(bot, "effbatch_input_errors_total") == 1
            assert metric(bot, "effbatch_slack_api_failures_total", '{call="views.open"}') == 1
            assert metric(bot, "effbatch_request_seconds_count", '{request="slash_command"}') == 6
        finally:
            bot.stop()


def test_json_logs_parse_and_hold_no_secret(tmp_path: Path) -> None:
    """With LOG_FORMAT=json every line is a JSON object with kind, team and channel; no token, no secret, no text."""
    with FakeWebAPI() as api:
        bot = http_bot(api, tmp_path, LOG_FORMAT="json", LOG_LEVEL="DEBUG")
        send(bot, api, "8 64 4 31337")
        output = bot.stop()
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    assert lines, "no log lines"
    answered = [line for line in lines if line["message"] == "answered"]
    assert [(a["kind"], a["team"], a["channel"]) for a in answered] == [("calculation", "T0TEST", "C0TEST")]
    for secret in (BOT_TOKEN, SIGNING_SECRET, "31337"):
        assert secret not in output


def test_sigterm_finishes_in_flight_requests(tmp_path: Path) -> None:
    """SIGTERM during a burst: every request sent before the signal is answered, then the process exits 0."""
    with FakeWebAPI() as api:
        # The drain is the subject: requests still on their way when SIGTERM comes are answered during it.
        bot = http_bot(api, tmp_path, WEB_CONCURRENCY="2", EFFBATCH_DRAIN_SECONDS="3")
        slow = 6  # each holds a worker thread for 1,5 s in views.open
        api.script("views.open", *[Reply(delay=1.5) for _ in range(slow)])
        results: list[tuple[int, bytes] | Exception] = []

        def request(text: str) -> None:
            try:
                results.append(send(bot, api, text))
            except Exception as error:
                results.append(error)

        threads = [threading.Thread(target=request, args=("",)) for _ in range(slow)]
        threads += [threading.Thread(target=request, args=("8 64 4 4096",)) for _ in range(20)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 5
        while len(api.method_calls("views.open")) < slow:  # all slow requests are in flight
            assert time.monotonic() < deadline
            time.sleep(0.01)
        output = bot.stop()  # SIGTERM now, while views.open is still answering
        for thread in threads:
            thread.join(timeout=30)
    assert [r for r in results if not isinstance(r, tuple) or r[0] != 200] == []
    assert len(results) == len(threads)
    assert bot.returncode == 0, output


#: Typed text that would start lines of its own in a plain log: each kind of line break and a terminal escape.
FORGING = {
    "newline": "8 64\n2026-12-03 12:00:00,000 INFO effbatch answered kind=forged",
    "carriage return": "8 64\r2026-12-03 12:00:00,000 INFO effbatch answered kind=forged",
    "line separator": "8 64\u20282026-12-03 12:00:00,000 INFO effbatch answered kind=forged",
    "next line (C1)": "8 64\x852026-12-03 12:00:00,000 INFO effbatch answered kind=forged",
    "terminal escape": "8 64\x1b[2K\x1b[1G2026-12-03 12:00:00,000 INFO effbatch answered kind=forged",
}


def test_plain_logs_keep_typed_text_on_its_line(tmp_path: Path) -> None:
    """LOG_FORMAT=plain with command text logged: each forging text stays inside its own line, escaped."""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, EFFBATCH_LOG_COMMAND_TEXT="true", LOG_FORMAT="plain")
        for text in FORGING.values():
            body = urlencode(slack_payloads.command(text, api.response_url()))
            request = urllib.request.Request(
                bot.base + "/slack/events", data=body.encode(), headers=signed_headers(SIGNING_SECRET, body)
            )
            urllib.request.urlopen(request, timeout=10).read()
        output = bot.stop()
    lines = output.splitlines()  # splits at \r, \x85 and \u2028 too
    assert all("text=8 64" in line for line in lines if "kind=forged" in line)
    assert not [line for line in lines if line.startswith("2026-12-03 12:00:00")]
    assert "\\n2026-12-03" in output
    assert "\\x1b[2K" in output
    assert "\x1b" not in output
