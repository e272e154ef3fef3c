"""The edge under attack, on loopback: idle and slow clients, pathological text, SIGTERM mid-burst,
Socket Mode reconnects, forged labels, metric cardinality, deep JSON, masking. Bounded in count and time."""

from __future__ import annotations

import http.client
import json
import os
import re
import selectors
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from hostile_configs import HOSTILE_CHECKS

from effbatch.bot.texts import checks as check_texts

import slack_payloads
from bot_process import BotProcess, clean_env, free_port, get, start_http_bot
from fake_slack import APP_TOKEN, BOT_TOKEN, FakeSocketModeServer, FakeWebAPI
from slack_checks import all_text
from slack_signing import SIGNING_SECRET, signed_headers

COMMAND_TEXT = "8 64 4 4096"
#: Seconds after which a wait is a hang, on any machine: durations themselves are measured in ``make bench``.
HANG_GUARD = 20


def command_body(text: str, response_url: str = "https://hooks.slack.com/commands/1") -> str:
    return urlencode(slack_payloads.command(text, response_url))


def post(port: int, body: str | bytes, headers: dict[str, str], timeout: float = 10) -> tuple[int, bytes, float]:
    """One request on a fresh connection: status, body and seconds until the answer."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", "/slack/events", body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read(), time.monotonic() - started
    finally:
        connection.close()


def signed_command(port: int, text: str = COMMAND_TEXT) -> tuple[int, bytes, float]:
    body = command_body(text)
    return post(port, body, signed_headers(SIGNING_SECRET, body))


# --- 1. idle sockets and slowloris ------------------------------------------------------------


def test_idle_and_slow_clients_do_not_starve_signed_commands(bot: BotProcess) -> None:
    """64 connections that never send a byte and 16 that trickle headers: every command is answered while they are
    open, /healthz too; the slow ones are closed by the header timeout. (How fast: ``make bench``.)"""
    idle = [socket.create_connection(("127.0.0.1", bot.port)) for _ in range(64)]
    slow = [socket.create_connection(("127.0.0.1", bot.port)) for _ in range(16)]
    stop = threading.Event()

    def trickle(sock: socket.socket) -> None:
        request = b"POST /slack/events HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
        for byte in request:
            if stop.is_set():
                return
            try:
                sock.send(bytes([byte]))
            except OSError:
                return  # closed by the server: the header timeout
            time.sleep(0.1)

    tricklers = [threading.Thread(target=trickle, args=(sock,), daemon=True) for sock in slow]
    try:
        for thread in tricklers:
            thread.start()
        time.sleep(0.5)
        for _ in range(10):
            status, body, _ = signed_command(bot.port)
            assert status == 200
            assert "2.048" in body.decode()
        assert get(bot.base + "/healthz") == (200, "ok\n")
        # The slow clients are cut off after the header timeout (2 s); a generous guard for a busy machine.
        slow[0].settimeout(15)
        assert _first_bytes(slow[0]) in (b"", b"HTTP/1.1 408")  # closed without an answer
    finally:
        stop.set()
        for sock in idle + slow:
            sock.close()


def _first_bytes(sock: socket.socket) -> bytes:
    """What a closed connection yields: nothing, or a reset where the server closed with the client's trickled bytes
    still unread (Linux then sends RST instead of FIN) – no answer either way."""
    try:
        return sock.recv(1024)
    except ConnectionResetError:
        return b""


# --- 2. pathological text -----------------------------------------------------------------------

#: Runs that used to cost seconds (a quadratic pattern on spaces around "="), each near the body limit.
PATHOLOGICAL = {
    "spaces": "a" + " " * 60_000 + "b",
    "equals": "=" * 20_000,  # %3D: three bytes each in the body
    "keys": "b= " * 12_000,  # b%3D+: five bytes each
    "vs": " vs" * 20_000,
    "digits": "1" * 60_000,
    "dots": "1." * 30_000,
    "mentions": "<@U123> " * 2_000,
    "tabs and newlines": "\t\n" * 9_000,  # %09%0A
    "spaces around equals": "b" + " " * 30_000 + "=" + " " * 20_000 + "8",
}


@pytest.mark.parametrize("case", PATHOLOGICAL)
def test_pathological_text_is_refused_at_once_over_http(bot: BotProcess, case: str) -> None:
    """Text over the documented length is answered with its German message (at once: the request's 10-s timeout is
    only a hang guard; the figures are ``make bench``'s)."""
    status, body, _ = signed_command(bot.port, PATHOLOGICAL[case])
    assert status == 200
    payload = json.loads(body)
    assert payload["response_type"] == "ephemeral"
    assert "Der Befehl ist mit" in all_text(payload)
    assert "ich lese höchstens 2.000" in all_text(payload)


@pytest.mark.parametrize("case", PATHOLOGICAL)
def test_pathological_text_just_under_the_limit_is_fast(case: str) -> None:
    """Cut to the limit, the same runs go through the whole parser, and every pattern there is linear."""
    from effbatch.bot.document import Visibility
    from effbatch.bot.rendering.answers import answer_command
    from effbatch.core.parser import MAX_COMMAND_TEXT

    text = PATHOLOGICAL[case][:MAX_COMMAND_TEXT]
    started = time.perf_counter()
    answer_command(text, Visibility.IN_CHANNEL)
    # A hang guard, not a timing: linear parsing takes milliseconds, a quadratic pattern at this length minutes.
    assert time.perf_counter() - started < HANG_GUARD


@pytest.fixture
def socket_bot(web_api: FakeWebAPI, socket_mode_server: FakeSocketModeServer, tmp_path: Path) -> Iterator[BotProcess]:
    env = clean_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN=APP_TOKEN, SLACK_API_URL=web_api.url)
    process = BotProcess(env=env, cwd=tmp_path, port=free_port())
    try:
        process.wait_healthy()
        wait_for(lambda: get(process.base + "/readyz")[0] == 200, "ready")
        yield process
    finally:
        process.stop()


def wait_for(condition: object, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"not {what} within {timeout} s"
        time.sleep(0.02)


def test_pathological_text_over_socket_mode(socket_bot: BotProcess, socket_mode_server: FakeSocketModeServer) -> None:
    """Socket Mode has no body limit: 100.000 spaces and the other runs are still refused, each with its message."""
    for case, text in {**PATHOLOGICAL, "100.000 spaces": "a" + " " * 100_000 + "b"}.items():
        ack = socket_mode_server.wait_for_ack(socket_mode_server.send_slash_command(text), timeout=HANG_GUARD)
        assert "Der Befehl ist mit" in all_text(ack["payload"]), case


# --- 3. SIGTERM mid-burst -----------------------------------------------------------------------


def test_sigterm_mid_burst_loses_nothing(tmp_path: Path) -> None:
    """32 clients on fresh connections; SIGTERM; /readyz turns 503 and the clients, like a load balancer, stop
    sending: every request sent is answered (refused connections are fine, lost requests are not); exit 0."""
    answered: list[int] = []
    refused: list[int] = []
    lost: list[str] = []
    saw_unready = threading.Event()
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, EFFBATCH_DRAIN_SECONDS="2", WEB_CONCURRENCY="2")

        def watch_readiness() -> None:
            while not saw_unready.is_set():
                try:
                    if get(bot.base + "/readyz")[0] == 503:
                        saw_unready.set()
                except OSError:
                    saw_unready.set()
                time.sleep(0.05)

        def client() -> None:
            while not saw_unready.is_set():
                body = command_body(COMMAND_TEXT)
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", bot.port, timeout=10)
                    connection.connect()
                except ConnectionRefusedError:
                    refused.append(1)
                    continue
                try:
                    connection.request("POST", "/slack/events", body=body, headers=signed_headers(SIGNING_SECRET, body))
                    response = connection.getresponse()
                    ok = response.status == 200 and "2.048" in response.read().decode()
                    if ok:
                        answered.append(response.status)
                    else:
                        lost.append(f"HTTP {response.status}")
                except (OSError, http.client.HTTPException) as error:
                    lost.append(repr(error))
                finally:
                    connection.close()

        threads = [threading.Thread(target=client) for _ in range(32)]
        threads.append(threading.Thread(target=watch_readiness))
        for thread in threads:
            thread.start()
        wait_for(lambda: len(answered) > 0, "answering before the signal")
        before = len(answered)
        output = bot.stop()
        for thread in threads:
            thread.join(timeout=30)
    assert lost == [], lost[:5]
    assert saw_unready.is_set()
    assert before > 0
    assert len(answered) > before  # requests kept being answered after the signal
    assert bot.returncode == 0, output


# --- 4. Socket Mode reconnects and readiness ---------------------------------------------------


def test_twenty_disconnects_in_a_row(
    socket_bot: BotProcess, socket_mode_server: FakeSocketModeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """After each of 20 `disconnect` messages the next command is answered on the new connection (the worst gap is
    printed for the CI log; ``make bench`` holds the figures)."""
    gaps = []
    for n in range(20):
        connections = socket_mode_server.connections
        socket_mode_server.send_disconnect()
        started = time.monotonic()
        ack = socket_mode_server.wait_for_ack(
            socket_mode_server.send_slash_command(f"8 64 {n + 1}"), timeout=HANG_GUARD
        )
        gaps.append(time.monotonic() - started)
        assert f"{512 * (n + 1):,}".replace(",", ".") in all_text(ack["payload"])
        assert socket_mode_server.connections > connections
    with capsys.disabled():
        print(f"\n[load] Socket Mode: 20 disconnects, worst gap {max(gaps) * 1000:.0f} ms")


def test_twenty_connections_dropped_while_being_replaced(
    socket_bot: BotProcess, socket_mode_server: FakeSocketModeServer
) -> None:
    """The current connection drops, and each of the next 20 drops right after its hello, while the client is still
    making it current: a new connection follows every time, the bot ends up connected and answers."""
    before = socket_mode_server.connections
    socket_mode_server.drop_after_hello = 20
    socket_mode_server.drop()
    wait_for(lambda: socket_mode_server.connections >= before + 21, "reconnected 21 times", timeout=60)
    wait_for(lambda: get(socket_bot.base + "/readyz")[0] == 200, "ready again", timeout=30)
    ack = socket_mode_server.wait_for_ack(socket_mode_server.send_slash_command(COMMAND_TEXT), timeout=15)
    assert "2.048" in all_text(ack["payload"])
    assert get(socket_bot.base + "/healthz")[0] == 200


def test_healthz_fails_when_unable_to_reconnect(web_api: FakeWebAPI, tmp_path: Path) -> None:
    """No hello for EFFBATCH_RECONNECT_SECONDS (2 here, 60 by default): /healthz 503, so Kubernetes restarts it."""
    with FakeSocketModeServer(hello=False) as silent:
        web_api.socket_mode_url = silent.url
        env = clean_env(
            SLACK_BOT_TOKEN=BOT_TOKEN,
            SLACK_APP_TOKEN=APP_TOKEN,
            SLACK_API_URL=web_api.url,
            EFFBATCH_RECONNECT_SECONDS="2",
        )
        process = BotProcess(env=env, cwd=tmp_path, port=free_port())
        try:
            process.wait_healthy()
            wait_for(lambda: get(process.base + "/healthz")[0] == 503, "unhealthy", timeout=30)
            assert get(process.base + "/readyz")[0] == 503
        finally:
            output = process.stop()
    assert process.returncode == 0, output


def test_hostile_checks_do_not_hold_up_plain_commands_over_socket_mode(
    socket_bot: BotProcess, socket_mode_server: FakeSocketModeServer
) -> None:
    """20 hostile checks (each a stopped or "busy" answer, 0,5–2,5 s), then a plain command: every one is
    acknowledged with its answer. That the plain ack never queues behind checks is shown without a race in
    ``test_dispatch_paths`` (checks held at a gate)."""
    slow = [HOSTILE_CHECKS[name] for name in ("variable doubled", "array doubled", "ramp-up to 10^12")]
    checks = {socket_mode_server.send_slash_command(f"prüfe {slow[n % 3]}") for n in range(20)}
    plain = socket_mode_server.send_slash_command(COMMAND_TEXT)
    acks: dict[str, dict[str, Any]] = {}
    while not {plain, *checks} <= set(acks):
        ack = socket_mode_server.acks.get(timeout=60)  # a hang guard, not a timing
        acks[ack["envelope_id"]] = ack
    assert "2.048" in all_text(acks[plain]["payload"])
    assert all(all_text(acks[envelope]["payload"]) for envelope in checks)  # each check told its user something


def test_readyz_waits_for_hello(web_api: FakeWebAPI, tmp_path: Path) -> None:
    """A server that accepts the WebSocket but never says hello leaves /readyz at 503 (and /healthz at 200)."""
    with FakeSocketModeServer(hello=False) as silent:
        web_api.socket_mode_url = silent.url
        env = clean_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN=APP_TOKEN, SLACK_API_URL=web_api.url)
        process = BotProcess(env=env, cwd=tmp_path, port=free_port())
        try:
            process.wait_healthy()
            wait_for(lambda: silent.connections > 0, "connected")
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                assert get(process.base + "/readyz")[0] == 503
                time.sleep(0.1)
            assert get(process.base + "/healthz")[0] == 200
        finally:
            output = process.stop()
    assert process.returncode == 0, output


# --- 5. smaller gaps ----------------------------------------------------------------------------


def interaction(port: int, payload: dict[str, object]) -> tuple[int, bytes, float]:
    body = slack_payloads.form_body(payload)
    return post(port, body, signed_headers(SIGNING_SECRET, body))


def test_a_forged_button_label_is_not_echoed(bot: BotProcess, slack_api: FakeWebAPI) -> None:
    """A signed click whose label says <!channel> and 5.000 characters: the note names the bot's own label."""
    slack_api.reset()
    forged = {
        "action_id": "whatif_accumulation_double",
        "text": {"type": "plain_text", "text": "<!channel> " + "x" * 5000},
        "value": "b=8 d=64 a=8 L=4096",
    }
    assert interaction(bot.port, slack_payloads.block_actions(forged, slack_api.response_url("msg")))[0] == 200
    _, replaced = slack_api.next_response()
    shown = all_text(replaced)
    assert "Zuletzt geändert von <@U0USER>: Akkumulation ×2" in shown
    assert "<!channel>" not in shown
    assert "x" * 100 not in shown
    option = {**forged, "action_id": "whatif_option_0"}
    interaction(bot.port, slack_payloads.block_actions(option, slack_api.response_url("msg")))
    assert "Zuletzt geändert von <@U0USER>: Vorschlag übernommen" in all_text(slack_api.next_response()[1])


def test_metric_labels_come_from_a_fixed_set(bot: BotProcess) -> None:
    """1.000 signed bodies with made-up types add one label, "other", not 1.000; /metrics stays small."""
    for n in range(1000):
        body = json.dumps({"type": f"made_up_{n}"})
        post(bot.port, body, {**signed_headers(SIGNING_SECRET, body), "Content-Type": "application/json"})
    text = get(bot.base + "/metrics")[1]
    labels = {line.split('request="')[1].split('"')[0] for line in text.splitlines() if 'request="' in line}
    assert "made_up_1" not in text
    assert labels <= {"slash_command", "block_actions", "view_submission", "view_closed", "event_callback", "other"}
    assert len(text) < 100_000


def test_deeply_nested_json_is_a_400(bot: BotProcess) -> None:
    """Signed JSON nested 20.000 deep is a malformed body (400), not a RecursionError (500)."""
    body = "[" * 20_000 + "]" * 20_000
    status, _, _ = post(bot.port, body, {**signed_headers(SIGNING_SECRET, body), "Content-Type": "application/json"})
    assert status == 400
    assert signed_command(bot.port)[0] == 200


def test_a_retried_event_is_answered_again(bot: BotProcess, slack_api: FakeWebAPI) -> None:
    """X-Slack-Retry-Num: answered like the first delivery (the answer is a pure function of the request)."""
    body = command_body(COMMAND_TEXT)
    first = post(bot.port, body, signed_headers(SIGNING_SECRET, body))
    retry = {**signed_headers(SIGNING_SECRET, body), "X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    again = post(bot.port, body, retry)
    assert (again[0], json.loads(again[1])) == (first[0], json.loads(first[1]))


def test_secrets_are_masked_even_with_command_text_logged(tmp_path: Path) -> None:
    """EFFBATCH_LOG_COMMAND_TEXT=true under DEBUG: a token in the text, JSON-escaped or not, is masked in every line."""
    token, escaped = "xoxb-1111-2222-secretpart", "xoxb\\u002d3333\\u002dhiddenpart"
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, EFFBATCH_LOG_COMMAND_TEXT="true", LOG_LEVEL="DEBUG")
        signed_command(bot.port, f"8 64 4 {token} {escaped}")
        output = bot.stop()
    assert "secretpart" not in output
    assert "hiddenpart" not in output
    assert "xoxb-***" in output


def test_socket_mode_debug_lines_hide_the_ticket(
    web_api: FakeWebAPI, socket_mode_server: FakeSocketModeServer, tmp_path: Path
) -> None:
    """DEBUG in Socket Mode logs the WebSocket URL without its one-time ticket."""
    settings = {"LOG_LEVEL": "DEBUG", "EFFBATCH_LOG_COMMAND_TEXT": "true"}
    env = clean_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN=APP_TOKEN, SLACK_API_URL=web_api.url, **settings)
    process = BotProcess(env=env, cwd=tmp_path, port=free_port())
    process.wait_healthy()
    wait_for(lambda: get(process.base + "/readyz")[0] == 200, "ready")
    socket_mode_server.wait_for_ack(socket_mode_server.send_slash_command(COMMAND_TEXT))
    output = process.stop()
    assert "ticket=test" not in output
    assert APP_TOKEN not in output


def test_no_metrics_directory_is_left_behind(tmp_path: Path) -> None:
    """Several workers keep metrics in a temporary directory; it is gone after the process ends."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="2", TMPDIR=str(scratch))
        assert list(scratch.glob("effbatch-metrics-*")), "the workers share one directory while running"
        signed_command(bot.port)
        bot.stop()
    assert list(scratch.glob("effbatch-metrics-*")) == []


# --- 6. hostile configs: a check never takes the worker with it -------------------------------------


#: Every German frame a check's answer has: stopped, refused, or checked.
CHECK_FRAMES = (
    check_texts.ABORTED_TITLE,
    check_texts.PROBLEM_TITLE,
    # a check's own headings, without their framework and numbers
    *(
        title.split("{batch}")[0].removeprefix("{framework}: ")
        for title in (check_texts.TITLE_OK, check_texts.TITLE_CHANGED)
    ),
    check_texts.TITLE_FAILED.removeprefix("{framework}: "),
    check_texts.TITLE_UNKNOWN.removeprefix("{framework}: "),
)


def test_hostile_checks_leave_plain_commands_and_health_alone(tmp_path: Path) -> None:
    """One worker, 8 hostile checks at once (each shape of HOSTILE_CHECKS, round robin): every plain command
    sent meanwhile is answered, /healthz too; each check gets a German answer (stopped, or refused); the
    worker's memory stays within +100 MB; SIGTERM still drains and exits 0."""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="1", EFFBATCH_DRAIN_SECONDS="0")
        signed_command(bot.port)
        before = bot.rss()
        texts = [*HOSTILE_CHECKS.values()] * 2
        answers: list[tuple[int, bytes, float]] = []
        checks = [
            threading.Thread(target=lambda t=text: answers.append(signed_command(bot.port, f"prüfe {t}")))
            for text in texts[:8]
        ]
        for thread in checks:
            thread.start()
        plain: list[tuple[int, bytes, float]] = []
        while any(thread.is_alive() for thread in checks) and len(plain) < 200:
            plain.append(signed_command(bot.port))
            assert get(bot.base + "/healthz") == (200, "ok\n")
        for thread in checks:
            thread.join(timeout=60)
        grown = bot.rss() - before
        output = bot.stop()
    assert plain, "no plain command was sent while the checks ran"
    assert all(status == 200 and "2.048" in body.decode() for status, body, _ in plain)
    assert len(answers) == 8
    for status, body, _ in answers:
        assert status == 200
        text = all_text(json.loads(body))
        # stopped, or refused by a reader; once the shell and Megatron readers bound these shapes themselves,
        # a check's own answer – never the internal error
        assert any(frame in text for frame in CHECK_FRAMES), text[:300]
        assert "schiefgegangen" not in text
    assert grown < 100 * 1024 * 1024, f"the worker grew by {grown / 2**20:.0f} MiB"
    assert bot.returncode == 0, output


# --- 7. the supervisor of several workers -------------------------------------------------------------


def workers_of(bot: BotProcess) -> list[int]:
    """The worker processes forked by ``bot`` (its children running the same program, not check processes)."""
    children = Path(f"/proc/{bot.pid}/task/{bot.pid}/children").read_text().split()
    return [int(pid) for pid in children if "-c" not in Path(f"/proc/{pid}/cmdline").read_text().split("\0")]


def listening_inode(port: int) -> str:
    """The inode of the socket listening on ``port`` (from /proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(f":{port:04X}") and fields[3] == "0A":  # 0A: LISTEN
            return fields[9]
    msg = f"nothing listens on {port}"
    raise AssertionError(msg)


def holds_socket(pid: int, inode: str) -> bool:
    fds = Path(f"/proc/{pid}/fd")
    return any(fd.readlink() == Path(f"socket:[{inode}]") for fd in fds.iterdir() if fd.is_symlink())


def test_a_dead_worker_is_logged_and_replaced(tmp_path: Path) -> None:
    """SIGKILL to one of two workers: the parent says so (pid, signal) and starts another, which answers."""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="2", EFFBATCH_DRAIN_SECONDS="0")
        first = workers_of(bot)
        os.kill(first[0], signal.SIGKILL)
        wait_for(lambda: len(set(workers_of(bot)) - set(first)) == 1, "a new worker")
        for _ in range(4):
            assert signed_command(bot.port)[0] == 200
        output = bot.stop()
    assert f"worker exited, starting another detail=pid {first[0]}, signal SIGKILL" in output


def test_no_worker_is_started_once_sigterm_came(tmp_path: Path) -> None:
    """A worker dies, and SIGTERM comes within the second before its replacement: none is started, the parent
    exits by itself (before, the late worker never heard of SIGTERM and the parent waited for it forever)."""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="2", EFFBATCH_DRAIN_SECONDS="0")
        first = workers_of(bot)
        os.kill(first[0], signal.SIGKILL)
        wait_for(lambda: "worker exited" in bot.log_so_far(), "the death noticed")
        output = bot.stop()
    assert bot.returncode is not None, output
    assert bot.returncode >= 0, output  # it ended by itself, not killed after 30 s
    # No replacement: every worker that ever started is one of the first two. (Counting the lines would not do: the
    # killed worker's own „Started server process“ may still sit in its log queue, written every 50 ms, when it dies.)
    started = set(re.findall(r"Started server process \[(\d+)\]", output))
    assert started <= {str(pid) for pid in first}, output
    assert f"Started server process [{first[1]}]" in output, output


def test_the_parent_closes_its_listening_socket_on_sigterm(tmp_path: Path) -> None:
    """While the workers drain, the parent no longer holds the listening socket: once they close theirs,
    new connections are refused instead of waiting in a backlog nobody reads."""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="2", EFFBATCH_DRAIN_SECONDS="3")
        inode = listening_inode(bot.port)
        assert holds_socket(bot.pid, inode)
        os.kill(bot.pid, signal.SIGTERM)
        wait_for(lambda: not holds_socket(bot.pid, inode), "the parent's copy closed", timeout=2.5)
        assert signed_command(bot.port)[0] == 200  # the workers still answer while they drain
        output = bot.stop()
    assert bot.returncode == 0, output


def test_hostile_shortcuts_do_not_hold_up_button_clicks(tmp_path: Path) -> None:
    """12 message shortcuts on hostile configs at once, then a what-if click: the click is answered before them, as
    checks wait on threads of their own (sharing the form's threads, it came after at least six). The shortcuts
    are acknowledged at once; what is compared is the order of the answers at the response URLs."""
    slow = [HOSTILE_CHECKS[name] for name in ("variable doubled", "array doubled", "ramp-up to 10^12")]
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="1", EFFBATCH_DRAIN_SECONDS="0")
        for n in range(12):
            assert interaction(bot.port, slack_payloads.message_shortcut(slow[n % 3], api.response_url("s")))[0] == 200
        click = {
            "action_id": "whatif_accumulation_double",
            "text": {"type": "plain_text", "text": "Akkumulation ×2"},
            "value": "b=8 d=64 a=8 L=4096",
        }
        before_click = api.responses.qsize()  # shortcuts whose reader bounds them fast may already be answered
        assert interaction(bot.port, slack_payloads.block_actions(click, api.response_url("msg")))[0] == 200
        order = [api.next_response(timeout=60)[0] for _ in range(13)]  # a hang guard: all are answered
        bot.stop()
    assert order.count("s") == 12
    assert order.index("msg") <= before_click + 2, order


# --- 8. idle connections: a cap on requests in flight, not on sockets ------------------------------


class IdleSwarm:
    """``count`` TCP connections from ``source`` that never send a byte; one that the server closes is opened
    again at once, as an attacker does after the header timeout (about 1.100 made signed commands and
    /healthz answer 503, as uvicorn's cap counted idle sockets)."""

    def __init__(self, port: int, count: int, source: str = "127.0.0.1") -> None:
        self._address, self._source = ("127.0.0.1", port), (source, 0)
        self._watch = selectors.DefaultSelector()  # epoll: select() stops at descriptor 1.024
        for _ in range(count):
            self._watch.register(self._open(), selectors.EVENT_READ)
        self._stop = threading.Event()
        self.reopened = 0
        self._thread = threading.Thread(target=self._keep_open, daemon=True)
        self._thread.start()

    def _open(self) -> socket.socket:
        return socket.create_connection(self._address, source_address=self._source)

    def _keep_open(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._watch.select(0.1):  # readable: the server closed it
                self._watch.unregister(key.fileobj)
                key.fileobj.close()  # type: ignore[union-attr]
                self._watch.register(self._open(), selectors.EVENT_READ)
                self.reopened += 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        for key in list(self._watch.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self._watch.close()


def test_a_thousand_idle_connections_do_not_starve_signed_commands_or_healthz(tmp_path: Path) -> None:
    """1.100 idle connections of one peer (127.0.0.2: not Slack's address), reopened as soon as they are closed (two
    workers, as deployed): every signed command sent meanwhile is answered 200, /healthz too, for longer than the
    header timeout. (From the swarm's own address a fresh connection is one of its peer's, closed in the churn once
    256 newer ones arrive before its headers are read: the per-peer bound protects other peers, by design.)"""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="2")
        swarm = IdleSwarm(bot.port, 1100, source="127.0.0.2")
        try:
            time.sleep(0.5)  # all of them accepted
            deadline = time.monotonic() + 3  # beyond the header timeout: the closed ones are back
            answers: list[tuple[int, int]] = []
            while time.monotonic() < deadline or len(answers) < 10:
                answers.append((signed_command(bot.port)[0], get(bot.base + "/healthz")[0]))
            assert set(answers) == {(200, 200)}, answers
        finally:
            swarm.close()
            output = bot.stop()
    assert bot.returncode == 0, output


def test_one_peers_idle_connections_do_not_close_anothers(tmp_path: Path) -> None:
    """A peer (127.0.0.2) holding 1.100 idle connections closes only its own oldest ones: another peer's kept-alive
    connection, idle between two requests, still carries the second."""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="1")
        kept = http.client.HTTPConnection("127.0.0.1", bot.port, timeout=10)
        body = command_body(COMMAND_TEXT)
        kept.request("POST", "/slack/events", body=body, headers=signed_headers(SIGNING_SECRET, body))
        assert kept.getresponse().read()
        swarm = IdleSwarm(bot.port, 1100, source="127.0.0.2")
        try:
            time.sleep(0.5)
            kept.request("POST", "/slack/events", body=body, headers=signed_headers(SIGNING_SECRET, body))
            response = kept.getresponse()
            assert (response.status, "2.048" in response.read().decode()) == (200, True)
        finally:
            kept.close()
            swarm.close()
            bot.stop()


def test_slow_bodies_of_one_peer_are_capped(tmp_path: Path) -> None:
    """A peer (127.0.0.2) that sends headers and then trickles its bodies holds at most MAX_READING_PER_PEER
    requests in flight: the next one is a 503 at once, while another peer's signed command and /healthz are
    answered (Slack's bodies arrive with their headers and never wait here)."""
    from effbatch.bot.serving.http_app import MAX_READING_PER_PEER

    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="1")
        slow = []
        try:
            for _ in range(MAX_READING_PER_PEER):
                sock = socket.create_connection(("127.0.0.1", bot.port), source_address=("127.0.0.2", 0))
                sock.sendall(b"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\npayload=")
                slow.append(sock)
            # One more is refused once the server has all of them reading: sent until one is (whichever the server
            # reaches last); one not refused at once keeps reading, which only adds to the peer's count.
            for _ in range(MAX_READING_PER_PEER):
                extra = socket.create_connection(("127.0.0.1", bot.port), source_address=("127.0.0.2", 0))
                slow.append(extra)
                extra.sendall(b"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\npayload=")
                extra.settimeout(1)
                try:
                    refused = extra.recv(1024).startswith(b"HTTP/1.1 503")
                except TimeoutError:
                    continue
                assert refused, "an extra slow body was answered, not refused"
                break
            else:
                pytest.fail("no extra slow body was refused")
            status, body, _ = signed_command(bot.port)
            assert (status, "2.048" in body.decode()) == (200, True)
            assert get(bot.base + "/healthz") == (200, "ok\n")
        finally:
            for sock in slow:
                sock.close()
            bot.stop()


def test_shortcut_acks_do_not_wait_for_their_checks_over_http(tmp_path: Path) -> None:
    """24 message shortcuts on hostile configs at once (one worker, 8 check threads, 2 check processes): each is
    acknowledged and answered later at its response URL. That the acknowledgement never waits for the check is shown
    without a race in ``test_dispatch_paths`` (checks held at a gate)."""
    slow = [HOSTILE_CHECKS[name] for name in ("variable doubled", "array doubled", "ramp-up to 10^12")]
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="1")
        acks: list[tuple[int, bytes]] = []

        def send(n: int) -> None:
            status, body, _ = interaction(
                bot.port, slack_payloads.message_shortcut(slow[n % 3], api.response_url(f"s{n}"))
            )
            acks.append((status, body))

        threads = [threading.Thread(target=send, args=(n,)) for n in range(24)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        told = [api.next_response(timeout=60)[0] for _ in range(24)]  # a hang guard: every one is answered
        bot.stop()
    assert acks == [(200, b"")] * 24  # each acknowledged, and empty: the answer goes to the response URL
    assert sorted(told) == sorted(f"s{n}" for n in range(24))
