"""Plain commands never queue behind config checks, shown by what the bot does, not by how fast a machine is.

The checks here cannot finish: a gate the test holds blocks every one of them. Every check thread is taken,
more checks wait behind them, and a plain ``/effbatch 8 64 4 4096`` is still answered – over Socket Mode and
over HTTP, with the bot's real dispatchers in this process. Only then is the gate opened, and every check
answers at its response URL. (Before, a test counted how many check answers a machine managed before the plain
ack: 36 and 46 of 150 on a quiet machine, against a bound of 16.)
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from pydantic import SecretStr
from slack_bolt import App
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient
from slack_sdk.oauth.installation_store import Installation

from effbatch.bot.operations.settings import Settings
from effbatch.bot.serving import http_app, socket_client
from effbatch.bot.serving.http_app import SlackHTTP
from effbatch.bot.serving.socket_client import SocketModeHandler
from effbatch.bot.slack.app import BotParts, PlainCommand, create_bot
from effbatch.bot.slack.listeners import Rendered
from effbatch.bot.storage.database import engine_for, migrate
from effbatch.bot.storage.setup import stores
from effbatch.core.configs import Check, Source, World

import slack_payloads
from fake_slack import APP_TOKEN, BOT_TOKEN, FakeSocketModeServer, FakeWebAPI
from slack_checks import all_text
from slack_signing import SIGNING_SECRET, signed_headers

#: A hang guard, not a timing: everything here happens in milliseconds unless the property is broken.
GUARD = 30.0
#: Shortcuts sent: every check thread blocked, and as many again waiting for one.
SHORTCUTS = 2 * socket_client.CHECK_THREADS


class GatedChecks:
    """A check runner whose checks wait until the test opens the gate; counts the checks that are waiting."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self._entered = 0
        self._changed = threading.Condition()

    def __call__(
        self,
        sources: Sequence[Source],
        world: World | None = None,
        framework: str | None = None,
        max_bytes: int = 0,
        *,
        gpu: str | None = None,
    ) -> Check:
        with self._changed:
            self._entered += 1
            self._changed.notify_all()
        assert self.gate.wait(GUARD), "the gate was never opened"
        return Check("deepspeed", (), World(8, "test"), 8, 4, 8, 256, None)

    def wait_entered(self, count: int) -> None:
        """Until ``count`` checks are waiting at the gate (each one holds a check thread)."""
        with self._changed:
            assert self._changed.wait_for(lambda: self._entered >= count, GUARD), f"{self._entered} of {count}"

    @property
    def entered(self) -> int:
        with self._changed:
            return self._entered


def offline_authorize(**_: object) -> AuthorizeResult:
    return AuthorizeResult(enterprise_id=None, team_id=slack_payloads.TEAM_ID, bot_token=BOT_TOKEN, bot_user_id="U0")


def bot(api: FakeWebAPI, checks: GatedChecks) -> tuple[App, PlainCommand]:
    settings = Settings(slack_signing_secret=SecretStr(SIGNING_SECRET), slack_api_url=api.url)
    parts = BotParts(client=WebClient(base_url=api.url), authorize=offline_authorize, checks=checks)
    return create_bot(settings, parts)


@pytest.fixture
def checks() -> Iterator[GatedChecks]:
    gated = GatedChecks()
    try:
        yield gated
    finally:
        gated.gate.set()  # a failed test leaves no thread waiting


def shortcut(api: FakeWebAPI, n: int) -> dict[str, Any]:
    return slack_payloads.message_shortcut("train_micro_batch_size_per_gpu: 8", api.response_url(f"s{n}"))


def assert_every_shortcut_answered(api: FakeWebAPI) -> None:
    told = dict(api.next_response(timeout=GUARD) for _ in range(SHORTCUTS))
    assert set(told) == {f"s{n}" for n in range(SHORTCUTS)}
    assert all(answer["response_type"] == "ephemeral" for answer in told.values())
    assert all("256" in all_text(answer) for answer in told.values())


def test_socket_mode_answers_a_plain_command_while_every_check_thread_is_held(
    checks: GatedChecks, web_api: FakeWebAPI, socket_mode_server: FakeSocketModeServer
) -> None:
    """Shortcuts and a prüfe command hold every check thread and queue more; the plain command's ack still carries
    its answer, and every shortcut was acknowledged (empty) while none of their checks could finish."""
    handler = SocketModeHandler(bot(web_api, checks)[0], APP_TOKEN)
    handler.connect()
    try:
        sent = {socket_mode_server.send_envelope("interactive", shortcut(web_api, n)) for n in range(SHORTCUTS)}
        check_command = socket_mode_server.send_slash_command("prüfe train_micro_batch_size_per_gpu: 8")
        checks.wait_entered(socket_client.CHECK_THREADS)
        plain = socket_mode_server.send_slash_command("8 64 4 4096")
        acks: dict[str, dict[str, Any]] = {}
        while plain not in acks:
            ack = socket_mode_server.acks.get(timeout=GUARD)
            acks[ack["envelope_id"]] = ack
        assert "Effektive Batch-Größe: 2.048 Sequenzen" in all_text(acks[plain]["payload"])
        assert checks.entered == socket_client.CHECK_THREADS  # no check finished: every thread still held
        assert sent <= set(acks), "a shortcut waited for its check before it was acknowledged"
        assert all("payload" not in acks[envelope] for envelope in sent)
        assert check_command not in acks  # its ack carries the check's answer: it waits behind the gate
        checks.gate.set()
        assert_every_shortcut_answered(web_api)
        answered = socket_mode_server.wait_for_ack(check_command, timeout=GUARD)
        assert "256" in all_text(answered["payload"])
    finally:
        handler.close()


class ASGIClient:
    """Requests into ``SlackHTTP`` as uvicorn hands them over: one scope, the whole body, the answer collected."""

    def __init__(self, slack: SlackHTTP) -> None:
        self._slack = slack
        #: The requests' tasks, still running after their answer was sent (a shortcut's check).
        self.pending: list[asyncio.Future[None]] = []

    async def post(self, body: str) -> tuple[int, bytes]:
        raw = body.encode()
        headers = [(k.lower().encode(), v.encode()) for k, v in signed_headers(SIGNING_SECRET, raw).items()]
        scope = {
            "type": "http",
            "method": "POST",
            "path": http_app.EVENTS_PATH,
            "headers": [*headers, (b"content-type", b"application/x-www-form-urlencoded")],
            "client": ("127.0.0.1", 40000),
        }
        sent: list[dict[str, Any]] = []
        answered = asyncio.Event()

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": raw, "more_body": False}

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(dict(message))
            if message["type"] == "http.response.body":
                answered.set()

        task = asyncio.ensure_future(self._slack(scope, receive, send))
        await asyncio.wait_for(answered.wait(), GUARD)
        self.pending.append(task)
        return sent[0]["status"], sent[1]["body"]


def test_http_answers_a_plain_command_while_every_check_thread_is_held(
    checks: GatedChecks, web_api: FakeWebAPI
) -> None:
    """Over HTTP: each shortcut is acknowledged while no check can finish, a prüfe command waits behind the gate,
    and a plain command is answered meanwhile; once the gate opens, every shortcut is answered at its URL."""
    app, commands = bot(web_api, checks)
    client = ASGIClient(SlackHTTP(app, SIGNING_SECRET, commands=commands))

    async def scenario() -> None:
        acks = await asyncio.gather(
            *(client.post(slack_payloads.form_body(shortcut(web_api, n))) for n in range(SHORTCUTS))
        )
        assert [status for status, _ in acks] == [200] * SHORTCUTS
        assert {body for _, body in acks} == {b""}
        check = asyncio.ensure_future(client.post(command_body("prüfe train_micro_batch_size_per_gpu: 8")))
        await asyncio.to_thread(checks.wait_entered, http_app.CHECK_THREADS)
        status, plain = await client.post(command_body("8 64 4 4096"))
        assert status == 200
        assert "Effektive Batch-Größe: 2.048 Sequenzen" in all_text(json.loads(plain))
        assert not check.done()  # the prüfe command's answer waits on its check
        assert checks.entered == http_app.CHECK_THREADS
        checks.gate.set()
        status, checked = await asyncio.wait_for(check, GUARD)
        assert (status, "256" in all_text(json.loads(checked))) == (200, True)
        await asyncio.wait_for(asyncio.gather(*client.pending), GUARD)

    asyncio.run(scenario())
    assert_every_shortcut_answered(web_api)


def command_body(text: str) -> str:
    return urlencode(slack_payloads.command(text, "https://hooks.slack.com/commands/1"))


class RecordingAnswer:
    """The bot's own answer to a plain command, remembering on which thread each was computed."""

    def __init__(self, plain: PlainCommand) -> None:
        self._plain = plain
        self.threads: list[str] = []

    def __call__(self, fields: Mapping[str, str]) -> Rendered:
        self.threads.append(threading.current_thread().name)
        return self._plain.answer(fields)


#: (text, whether a channel profile could change its answer): the second kind may read the database.
ROUTES = [
    ("8 64 4 4096", False),  # every factor given: no profile could change it
    ("gpus=512 tp=8 b=2 B=2048 vs gpus=1024", False),
    ("hilfe", False),
    ("b=8 a=4 L=4096", True),  # d missing: the channel's GPUs may fill it
    ("cluster gpus=64 tp=8", True),  # the profile itself
    # The memory and time model (a plan of a set-up that does not fit searches layouts): never on the loop
    ("llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100", True),
    ("plane llama3.1-8b gpus=64 gpu=h100 B=512 L=8k", True),
    ("llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100 skalierung", True),
    ("b=0 d=64 a=4", False),  # an error answer computes nothing
]


@pytest.mark.parametrize(("text", "may_wait"), ROUTES)
def test_http_answers_on_the_loop_what_cannot_wait_on_the_database(
    text: str, may_wait: bool, slack_api: FakeWebAPI, tmp_path: Path
) -> None:
    """With channel profiles in a real SQLite: a command no profile could change and that runs no memory and time
    model is answered on the event loop (no thread hop); one that may read a profile or runs the model goes to a
    dispatch thread. Either way the answer is the bot's own."""
    engine = engine_for(f"sqlite:///{tmp_path / 'effbatch.sqlite3'}")
    migrate(engine)
    settings = Settings(slack_signing_secret=SecretStr(SIGNING_SECRET), slack_api_url=slack_api.url)
    parts = BotParts(
        client=WebClient(base_url=slack_api.url), authorize=offline_authorize, storage=stores(engine, None)
    )
    app, plain = create_bot(settings, parts)
    recording = RecordingAnswer(plain)
    client = ASGIClient(SlackHTTP(app, SIGNING_SECRET, commands=PlainCommand(recording, plain.waits)))

    async def scenario() -> tuple[int, bytes, str]:
        status, body = await client.post(command_body(text))
        return status, body, threading.current_thread().name

    status, body, loop_thread = asyncio.run(scenario())
    engine.dispose()
    assert status == 200
    assert all_text(json.loads(body))
    [thread] = recording.threads
    assert (thread != loop_thread) is may_wait, thread
    assert plain.waits(slack_payloads.command(text, "")) is may_wait


def test_with_oauth_a_plain_command_waits_only_until_its_workspace_is_known(
    slack_api: FakeWebAPI, tmp_path: Path
) -> None:
    """Installed to any workspace: a workspace's first command looks its installation up (on a thread); once that is
    in memory, its plain commands are answered on the loop – a profile-taking text still waits."""
    engine = engine_for(f"sqlite:///{tmp_path / 'effbatch.sqlite3'}")
    migrate(engine)
    settings = Settings(
        slack_signing_secret=SecretStr(SIGNING_SECRET),
        slack_client_id="1111.2222",
        slack_client_secret=SecretStr("secret"),
        slack_api_url=slack_api.url,
    )
    storage = stores(engine, settings.slack_client_id)
    assert storage.installations is not None
    storage.installations.save(
        Installation(
            app_id=slack_payloads.APP_ID,
            team_id=slack_payloads.TEAM_ID,
            bot_token="xoxb-T0TEST",
            bot_id="B0BOT",
            bot_user_id="U0BOT",
            user_id="U0INSTALLER",
        )
    )
    _, plain = create_bot(settings, BotParts(client=WebClient(base_url=slack_api.url), storage=storage))
    fields = slack_payloads.command("8 64 4 4096", "")
    first = plain.waits(fields)
    assert "2.048" in json.dumps(plain.answer(fields).payload, ensure_ascii=False)
    then = plain.waits(fields)
    profile_taking = plain.waits(slack_payloads.command("b=8 a=4 L=4096", ""))
    engine.dispose()
    assert (first, then, profile_taking) == (True, False, True)
