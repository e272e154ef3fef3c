"""The scaling answer in Slack: posted to the channel, its chart as a PNG in the answer's thread, or its text chart.

Against the Web API stand-in (``tests/fake_slack.py``), asserting on what Slack receives: the posted answer, the
upload's channel and thread, the PNG's bytes, and the answer updated with its text chart where the upload is
refused.
"""

from __future__ import annotations

import queue
import time
from typing import Any

import pytest
from slack_http import command as slash_command
from slack_sdk import WebClient

from effbatch.bot.document import Visibility
from effbatch.bot.rendering import block_kit
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.slack.listeners import Dependencies, Rendered, answer_text_command
from effbatch.bot.slack.scaling import ChartPoster
from effbatch.bot.texts import scaling as texts

from bot_process import BotProcess
from fake_slack import BOT_TOKEN, FakeWebAPI, Reply
from slack_checks import all_text, assert_valid_message

SCALING = "llama3.1-8b b=2 gpus=64 B=512 L=8k gpu=h100 budget=15T skalierung"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: Seconds a test waits for the worker; a hang guard, never a measured duration.
HANG_GUARD = 60


@pytest.fixture(autouse=True)
def api(slack_api: FakeWebAPI) -> FakeWebAPI:
    slack_api.reset()
    return slack_api


class Delivered:
    """A response URL's stand-in: records what is delivered."""

    def __init__(self) -> None:
        self.payloads: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()

    def __call__(self, url: str, payload: dict[str, Any]) -> bool:
        self.payloads.put((url, payload))
        return True


def poster(api: FakeWebAPI, delivered: Delivered) -> ChartPoster:
    client = WebClient(token=BOT_TOKEN, base_url=api.url, timeout=5)
    return ChartPoster(client, block_kit.message, delivered, Visibility.IN_CHANNEL)


def rendered(text: str) -> Rendered:
    """The acknowledgement's payload as the bot lays it out."""
    answer = answer_command(text, Visibility.IN_CHANNEL)
    return Rendered.of(answer.kind, block_kit.message(answer.document))


def command(text: str = SCALING) -> dict[str, Any]:
    return {"text": text, "channel_id": "C0TEST", "team_id": "T0TEST", "response_url": "https://hooks.slack.com/x"}


def run(charts: ChartPoster, text: str = SCALING) -> None:
    """Hand a command to the poster and wait (hang-guarded) until its worker has finished."""
    charts.done.clear()
    assert charts.take(command(text))
    assert charts.done.wait(HANG_GUARD)


def test_the_answer_is_posted_and_its_chart_uploaded_into_its_thread(api: FakeWebAPI) -> None:
    """chat.postMessage gets the answer without its text chart; the PNG goes into that message's thread."""
    delivered = Delivered()
    run(poster(api, delivered))
    [posted] = api.method_calls("chat.postMessage")
    assert posted["channel"] == "C0TEST"
    assert texts.TABLE_TITLE not in all_text({"blocks": posted["blocks"]})
    [completed] = api.method_calls("files.completeUploadExternal")
    assert completed["channel_id"] == "C0TEST"
    assert completed["thread_ts"] == "1700000009.000900"  # the posted answer's ts
    [(_, data)] = api.uploads.items()
    assert data.startswith(PNG_MAGIC)
    assert not api.method_calls("chat.update")
    assert delivered.payloads.empty()


@pytest.mark.parametrize("error", ["missing_scope", "not_in_channel", "ratelimited"])
def test_a_refused_upload_puts_the_text_chart_into_the_same_answer(api: FakeWebAPI, error: str) -> None:
    """Without files:write, outside the channel or on any error: the posted answer is updated with its text chart."""
    api.refuse_uploads(error)
    run(poster(api, Delivered()))
    [updated] = api.method_calls("chat.update")
    assert updated["ts"] == "1700000009.000900"
    blocks = updated["blocks"]
    assert_valid_message({"text": updated["text"], "blocks": blocks}, posted=True)
    assert texts.TABLE_TITLE in all_text({"blocks": blocks})
    assert not api.uploads


def test_where_the_bot_cannot_post_the_answer_with_its_text_chart_goes_to_the_response_url(api: FakeWebAPI) -> None:
    """chat.postMessage refused (not in the channel): the whole answer, text chart included, to the response URL."""
    api.script("chat.postMessage", Reply(body={"ok": False, "error": "not_in_channel"}))
    delivered = Delivered()
    run(poster(api, delivered))
    url, payload = delivered.payloads.get(timeout=HANG_GUARD)
    assert url == "https://hooks.slack.com/x"
    assert payload["response_type"] == "in_channel"
    assert texts.TABLE_TITLE in all_text(payload)
    assert not api.method_calls("files.getUploadURLExternal")


@pytest.mark.parametrize(
    "text",
    [
        f"{SCALING} privat",  # private: no thread to put a picture in
        "8 64 4 4096",  # no scaling question
        "llama3.1-8b b=2 gpus=64 skalierung",  # incomplete: the problem is the answer
    ],
)
def test_only_a_public_scaling_question_is_taken_over(api: FakeWebAPI, text: str) -> None:
    """Everything else is answered in the acknowledgement as before; nothing is posted or uploaded."""
    assert not poster(api, Delivered()).take(command(text))
    assert not api.calls


def test_the_acknowledgement_says_the_answer_is_coming_where_the_chart_is_drawn(api: FakeWebAPI) -> None:
    """The slash command's acknowledgement: a private note that the answer follows, not the answer twice."""
    charts = poster(api, Delivered())
    deps = Dependencies(
        Visibility.IN_CHANNEL,
        answer_command,
        block_kit.message,
        rendered,
        Delivered(),
        charts=charts.take,
    )
    charts.done.clear()
    acked = answer_text_command(deps, command())
    assert acked.payload == {"response_type": "ephemeral", "text": texts.PENDING}
    assert charts.done.wait(HANG_GUARD)
    assert api.method_calls("chat.postMessage")


def test_without_a_poster_the_acknowledgement_carries_the_answer_with_its_text_chart(api: FakeWebAPI) -> None:
    """No worker (the console, Lambda, several workspaces): the text chart in the acknowledgement itself."""
    deps = Dependencies(
        Visibility.IN_CHANNEL,
        answer_command,
        block_kit.message,
        rendered,
        Delivered(),
    )
    acked = answer_text_command(deps, command())
    assert_valid_message(acked.payload)
    assert texts.TABLE_TITLE in all_text(acked.payload)
    assert not api.calls


def _called(api: FakeWebAPI, method: str) -> list[dict[str, Any]]:
    """The calls of ``method``, waited for (the bot's worker makes them after the acknowledgement)."""
    deadline = time.monotonic() + HANG_GUARD  # a hang guard, not a measured duration
    while not (calls := api.method_calls(method)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return calls


def test_the_running_bot_answers_a_scaling_command_in_the_channel_with_its_chart_in_the_thread(
    bot: BotProcess, api: FakeWebAPI
) -> None:
    """`/effbatch … skalierung` over HTTP: the acknowledgement says it is coming, the answer is posted, the PNG is
    uploaded into its thread – the event loop only hands the work over."""
    status, payload = slash_command(bot, api, SCALING)
    assert status == 200
    assert payload == {"response_type": "ephemeral", "text": texts.PENDING}
    [completed] = _called(api, "files.completeUploadExternal")
    [posted] = api.method_calls("chat.postMessage")
    assert completed["thread_ts"] == "1700000009.000900"
    assert completed["channel_id"] == posted["channel"]
    assert all(data.startswith(PNG_MAGIC) for data in api.uploads.values())


def test_a_set_up_the_table_cannot_take_is_told_at_the_response_url(api: FakeWebAPI) -> None:
    """GPUs that TP does not divide are found while the table is computed: the problem goes to the response URL."""
    delivered = Delivered()
    run(poster(api, delivered), "llama3.1-8b b=2 gpus=64 tp=3 B=512 L=8k gpu=h100 skalierung")
    url, payload = delivered.payloads.get(timeout=HANG_GUARD)
    assert url == "https://hooks.slack.com/x"
    assert payload["response_type"] == "ephemeral"
    assert "TP" in all_text(payload)
    assert not api.method_calls("chat.postMessage")
