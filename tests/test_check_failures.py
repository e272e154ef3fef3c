"""Every failure in a config check's path becomes a German answer where the user waits, never silence.

The message shortcut, the world-size form and the share button acknowledge at once and answer later at the
response URL: an exception after the acknowledgement, or an answer Slack does not take, used to leave the
user with nothing. In-process, as Bolt's scenario tests do it: a fresh app, signed requests, fakes passed in
for the check runner and for what is posted to response URLs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from pydantic import SecretStr
from slack_bolt import App, BoltRequest
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient

from effbatch.bot.check_runner import CheckCrashedError
from effbatch.bot.operations.settings import Settings
from effbatch.bot.slack.app import BotParts, create_app
from effbatch.bot.texts import answers as answer_texts
from effbatch.bot.texts import checks as check_texts
from effbatch.core.configs import MAX_CONFIG_BYTES, Check, Source, World, check_config

import slack_payloads
from fake_slack import BOT_TOKEN, FakeWebAPI
from slack_checks import all_text
from slack_signing import signed_headers

SECRET = "in-process-secret"
RESPONSE_URL = "https://hooks.slack.com/actions/T0TEST/1/shortcut"
#: A Megatron-LM launch line: checked at once (the world size is on the line), with a share button.
LAUNCH = "```torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 2 --global-batch-size 256```"
#: An axolotl config without a world size: the shortcut asks for it with the world-size form.
AXOLOTL = "```\nsequence_len: 4096\nmicro_batch_size: 2\ngradient_accumulation_steps: 4\n```"


class FlakyChecks:
    """A check runner that checks for real ``working`` times, then fails as a crashed check process does."""

    def __init__(self, working: int = 0) -> None:
        self.working = working

    def __call__(
        self,
        sources: Sequence[Source],
        world: World | None = None,
        framework: str | None = None,
        max_bytes: int = MAX_CONFIG_BYTES,
        *,
        gpu: str | None = None,
    ) -> Check:
        if self.working > 0:
            self.working -= 1
            return check_config(sources, world, framework, max_bytes, gpu=gpu)
        msg = "Traceback (most recent call last): … UnicodeEncodeError (a lone surrogate)"
        raise CheckCrashedError(msg)


class Posted:
    """Response URLs as a recording fake: what was posted where; ``refuse`` answers the next posts as Slack does
    when it does not take a payload (``False``)."""

    def __init__(self, refuse: int = 0) -> None:
        self.posts: list[tuple[str, dict[str, Any]]] = []
        self.refuse = refuse

    def __call__(self, url: str, payload: dict[str, Any]) -> bool:
        self.posts.append((url, payload))
        if self.refuse > 0:
            self.refuse -= 1
            return False
        return True


def offline_authorize(**_: object) -> AuthorizeResult:
    return AuthorizeResult(enterprise_id=None, team_id="T0TEST", bot_token=BOT_TOKEN, bot_user_id="U0BOT")


@pytest.fixture
def api() -> Iterator[FakeWebAPI]:
    """The Web API stand-in on loopback, for views.open and chat.postMessage."""
    with FakeWebAPI() as stand_in:
        yield stand_in


def make_app(checks: FlakyChecks, posted: Posted, api: FakeWebAPI) -> App:
    settings = Settings(slack_signing_secret=SecretStr(SECRET))
    client = WebClient(base_url=api.url)
    return create_app(settings, BotParts(client=client, authorize=offline_authorize, deliver=posted, checks=checks))


def dispatch(app: App, payload: dict[str, Any]) -> int:
    body = slack_payloads.form_body(payload)
    headers: dict[str, str | Sequence[str]] = {**signed_headers(SECRET, body)}
    return app.dispatch(BoltRequest(body=body, headers=headers)).status


def told(posted: Posted) -> list[tuple[str, str]]:
    """(url, text) of everything posted, the text as a user reads it."""
    return [(url, all_text(payload)) for url, payload in posted.posts]


def test_a_crashed_shortcut_check_is_answered_at_the_response_url(
    api: FakeWebAPI, caplog: pytest.LogCaptureFixture
) -> None:
    """The check process crashes after the shortcut was acknowledged: the clicker gets the German internal-error
    answer, privately, at the shortcut's response URL (before: nothing); the traceback is logged."""
    posted = Posted()
    with caplog.at_level(logging.ERROR):
        assert (
            dispatch(make_app(FlakyChecks(), posted, api), slack_payloads.message_shortcut(LAUNCH, RESPONSE_URL)) == 200
        )
    [(url, payload)] = posted.posts
    assert url == RESPONSE_URL
    assert payload["response_type"] == "ephemeral"
    assert payload["text"] == answer_texts.INTERNAL_ERROR
    assert any(record.exc_info for record in caplog.records)


def test_a_crashed_world_form_check_is_answered_at_the_response_url(api: FakeWebAPI) -> None:
    """The world-size form submitted, the check crashes: the German answer goes where the shortcut was asked."""
    posted = Posted()
    app = make_app(FlakyChecks(working=1), posted, api)  # the first check asks for the world size
    dispatch(app, slack_payloads.message_shortcut(AXOLOTL, RESPONSE_URL))
    [call] = api.method_calls("views.open")
    form = json.loads(call["view"]) if isinstance(call["view"], str) else call["view"]
    dispatch(app, slack_payloads.view_submission(form, {"nodes": "1", "per_node": "8"}))
    assert told(posted) == [(RESPONSE_URL, answer_texts.INTERNAL_ERROR)]


def test_a_crashed_share_is_answered_to_the_clicker(api: FakeWebAPI) -> None:
    """ "Im Thread teilen", and the check crashes this time: the clicker is told in German, nothing is shared."""
    posted = Posted()
    app = make_app(FlakyChecks(working=1), posted, api)
    dispatch(app, slack_payloads.message_shortcut(LAUNCH, RESPONSE_URL))
    _, answer = posted.posts[0]
    actions = next(block for block in answer["blocks"] if block["type"] == "actions")
    button = next(element for element in actions["elements"] if element["action_id"] == "check_share")
    share_url = "https://hooks.slack.com/actions/T0TEST/2/share"
    dispatch(app, slack_payloads.block_actions(button, share_url, "choices"))
    assert told(posted)[1:] == [(share_url, answer_texts.INTERNAL_ERROR)]
    assert not api.method_calls("chat.postMessage")


def test_an_answer_slack_does_not_take_is_followed_by_a_short_one(api: FakeWebAPI) -> None:
    """The response URL refuses the shortcut's answer (too large, invalid blocks, …): a short German text follows
    on the same URL, saying so and what to do (before: silence)."""
    posted = Posted(refuse=1)
    dispatch(make_app(FlakyChecks(working=1), posted, api), slack_payloads.message_shortcut(LAUNCH, RESPONSE_URL))
    assert [url for url, _ in posted.posts] == [RESPONSE_URL, RESPONSE_URL]
    _, fallback = posted.posts[1]
    assert fallback["response_type"] == "ephemeral"
    assert fallback["text"] == check_texts.ANSWER_NOT_TAKEN
    assert "blocks" not in fallback  # plain text: what Slack refused was the laid-out answer
    assert json.dumps(fallback, ensure_ascii=False).count("prüfe") >= 1
