"""Interactivity over real HTTP with signed requests: the form, what-if buttons, the App Home, Web API faults."""

from __future__ import annotations

import json
from typing import Any

import pytest
from slack_http import command, interaction, opened_view, post

import slack_payloads
from bot_process import BotProcess
from fake_slack import FakeWebAPI, Reply
from slack_checks import all_text, assert_valid_message


@pytest.fixture(autouse=True)
def api(slack_api: FakeWebAPI) -> FakeWebAPI:
    """The module's Web API stand-in; each test sees only its own calls, response-URL posts and scripted failures."""
    slack_api.reset()
    return slack_api


def button(payload: dict[str, Any], label: str) -> dict[str, Any]:
    actions = next(block for block in payload["blocks"] if block["type"] == "actions")
    return next(element for element in actions["elements"] if element["text"]["text"] == label)


def test_command_without_arguments_opens_the_prefilled_form(bot: BotProcess, api: FakeWebAPI) -> None:
    """/effbatch alone opens the calculator modal with the command's trigger_id, prefilled 8, 64, 4, 4096."""
    status, body = command(bot, api, "")
    assert (status, body) == (200, None)
    assert api.method_calls("views.open")[-1]["trigger_id"] == "1337.42.abc"
    view = opened_view(api)
    assert view["title"]["text"] == "Effektive Batch-Größe"
    assert [b["text"]["text"] for b in view["blocks"] if b["type"] == "header"] == [
        "Batch-Aufteilung",
        "Sequenz",
        "Cluster (optional)",
        "Modell und GPU (optional)",
    ]
    initial = {b["block_id"]: b["element"].get("initial_value") for b in view["blocks"] if b["type"] == "input"}
    assert initial == {
        "micro_batch": "8",
        "data_parallel": "64",
        "accumulation": "4",
        "seq_len": "4096",
        "gpus": None,
        "tp": None,
        "pp": None,
        "model": None,  # choices: no initial_value, an initial_option where preset
        "gpu": None,
        "visibility": None,
    }
    labels = {b["block_id"]: b["label"]["text"] for b in view["blocks"] if b["type"] == "input"}
    assert labels["micro_batch"] == "Micro-Batch je Gerät (b)"
    assert labels["data_parallel"] == "Datenparallele Replikate (d)"
    radio = next(b for b in view["blocks"] if b.get("block_id") == "visibility")["element"]
    assert [o["text"]["text"] for o in radio["options"]] == ["im Channel teilen", "nur für mich"]


def test_form_submission_posts_the_answer_to_the_channel(bot: BotProcess, api: FakeWebAPI) -> None:
    """Submitting the form as opened posts the usual answer through the command's response_url."""
    command(bot, api, "")
    status, body = interaction(bot, slack_payloads.view_submission(opened_view(api)))
    assert (status, body) == (200, None)  # an empty ack closes the modal
    name, posted = api.next_response()
    assert name == "cmd"
    assert posted["response_type"] == "in_channel"
    assert_valid_message(posted)
    assert "B = b · d · a = 8 × 64 × 4 = 2.048" in all_text(posted)


def test_form_submission_only_for_me(bot: BotProcess, api: FakeWebAPI) -> None:
    """Choosing "nur für mich" posts the answer ephemerally."""
    command(bot, api, "")
    view = opened_view(api)
    payload = slack_payloads.view_submission(view)
    radio = next(b for b in view["blocks"] if b.get("block_id") == "visibility")["element"]
    payload["view"]["state"]["values"]["visibility"]["choice"]["selected_option"] = radio["options"][1]
    interaction(bot, payload)
    assert api.next_response()[1]["response_type"] == "ephemeral"


@pytest.mark.parametrize(
    ("overrides", "block", "expected"),
    [
        ({"micro_batch": "0"}, "micro_batch", "„0“ ist nicht positiv"),
        ({"accumulation": "100000"}, "accumulation", "über der Obergrenze von 65.536"),
        ({"data_parallel": None}, "data_parallel", "Gib d an oder füll unten „GPUs gesamt“ aus."),
        ({"gpus": "100", "tp": "8", "data_parallel": None}, "gpus", "Passend wären z. B. 96 oder 104 GPUs."),
        ({"gpus": "1024", "tp": "8"}, "data_parallel", "aus den GPUs folgt aber d = 1.024 / (8 · 1 · 1 · 1) = 128"),
    ],
)
def test_bad_form_values_come_back_inline(
    bot: BotProcess, api: FakeWebAPI, overrides: dict[str, str | None], block: str, expected: str
) -> None:
    """A bad value is answered with response_action errors under its field, in German; nothing is posted."""
    command(bot, api, "")
    status, body = interaction(bot, slack_payloads.view_submission(opened_view(api), overrides))
    assert status == 200
    assert body["response_action"] == "errors"
    assert expected in body["errors"][block]
    assert api.responses.empty()


def test_accumulation_double_replaces_the_answer(bot: BotProcess, api: FakeWebAPI) -> None:
    """A click on "Akkumulation ×2" replaces the answer: B from 2.048 to 4.096, memory per device unchanged."""
    _, answer = command(bot, api, "8 64 4 4096 act=1GiB")
    click = slack_payloads.block_actions(button(answer, "Akkumulation ×2"), api.response_url("msg"))
    assert interaction(bot, click) == (200, None)
    name, replaced = api.next_response()
    assert name == "msg"
    assert replaced["replace_original"] is True
    assert_valid_message({**replaced, "response_type": "in_channel"})
    text = all_text(replaced)
    assert "Effektive Batch-Größe: 4.096 Sequenzen" in text
    assert "`b · act = 8 × 1\u00a0GiB = 8\u00a0GiB`" in text  # accumulation adds no activation memory
    assert "Zuletzt geändert von <@U0USER>: Akkumulation ×2" in text


def test_option_button_takes_the_feasible_value(bot: BotProcess, api: FakeWebAPI) -> None:
    """On an unreachable target each option is a button; clicking one answers with that value."""
    _, answer = command(bot, api, "b=3 d=8 B=2000")
    interaction(bot, slack_payloads.block_actions(button(answer, "a = 84 übernehmen"), api.response_url("msg")))
    assert "B = b · d · a = 3 × 8 × 84 = 2.016" in all_text(api.next_response()[1])


def test_adjust_opens_the_form_with_the_current_values(bot: BotProcess, api: FakeWebAPI) -> None:
    """ "Anpassen…" opens the form prefilled with the answer's values; submitting replaces the answer."""
    _, answer = command(bot, api, "gpus=512 tp=8 b=2 B=2048 L=2048")
    interaction(bot, slack_payloads.block_actions(button(answer, "Anpassen…"), api.response_url("msg")))
    view = opened_view(api)
    initial = {b["block_id"]: b["element"].get("initial_value") for b in view["blocks"] if b["type"] == "input"}
    assert initial == {
        "micro_batch": "2",
        "data_parallel": None,
        "accumulation": "16",
        "seq_len": "2048",
        "gpus": "512",
        "tp": "8",
        "pp": None,
        "model": None,
        "gpu": None,
    }
    interaction(bot, slack_payloads.view_submission(view, {"accumulation": "32"}))
    name, replaced = api.next_response()
    assert (name, replaced["replace_original"]) == ("msg", True)
    assert "Effektive Batch-Größe: 4.096 Sequenzen" in all_text(replaced)


def test_app_home_is_published(bot: BotProcess, api: FakeWebAPI) -> None:
    """app_home_opened publishes the German explanation with a button that opens the form."""
    status, _ = post(bot, json.dumps(slack_payloads.app_home_opened()), "application/json")
    assert status == 200
    published = api.method_calls("views.publish")[-1]
    assert published["user_id"] == slack_payloads.USER_ID
    view = published["view"]
    text = all_text({"blocks": view["blocks"]})
    for fragment in (
        "Warum die effektive Batch-Größe zählt",
        "Häufig gestellte Fragen",
        "Wozu Gradient Accumulation?",
        "doppelt so viele Durchläufe",  # the reference's trade-off in the worked example
        "`sp=` ist DeepSpeed-Ulysses' Sequenz-Parallelität und teilt d",
        "`B = b · d · a = 8 × 64 × 4 = 2.048 Sequenzen`",
        "d = GPUs / (TP · PP · CP · SP)",
        "feste (gepackte) Sequenzlängen",
        "Jedes Framework zählt Micro-Batches und Akkumulation anders",
        "„Batch-Konfig prüfen“ im Menü einer Nachricht",
        "`/effbatch 8 64 4 4096 vs d=512 lr=3e-4`",
    ):
        assert fragment in text
    open_button = view["blocks"][-1]["elements"][0]
    interaction(bot, slack_payloads.home_button(open_button))
    form = opened_view(api)
    assert "visibility" not in [b.get("block_id") for b in form["blocks"]]  # no channel to share to


def test_home_form_answers_inside_the_modal(bot: BotProcess, api: FakeWebAPI) -> None:
    """From the App Home there is no channel: the answer replaces the form in the modal."""
    interaction(
        bot, slack_payloads.home_button({"action_id": "open_form", "text": {"type": "plain_text", "text": "x"}})
    )
    status, body = interaction(bot, slack_payloads.view_submission(opened_view(api)))
    assert status == 200
    assert body["response_action"] == "update"
    assert "8 × 64 × 4 = 2.048" in all_text({"blocks": body["view"]["blocks"]})


def test_messages_tab_does_not_publish(bot: BotProcess, api: FakeWebAPI) -> None:
    """app_home_opened for the Messages tab publishes nothing."""
    post(bot, json.dumps(slack_payloads.app_home_opened(tab="messages")), "application/json")
    assert api.method_calls("views.publish") == []


@pytest.mark.parametrize(
    ("replies", "expected"),
    [
        ([Reply(body={"ok": False, "error": "expired_trigger_id"})], "Slack: expired_trigger_id"),
        ([Reply(status=500, body={"ok": False}), Reply(status=500, body={"ok": False})], "Slack:"),
        ([Reply(status=429, body={"ok": False, "error": "ratelimited"}, headers={"Retry-After": "30"})], "ratelimited"),
        ([Reply(delay=4)], "Zeitüberschreitung"),
    ],
)
def test_form_failures_tell_the_user(bot: BotProcess, api: FakeWebAPI, replies: list[Reply], expected: str) -> None:
    """When views.open fails the caller gets an ephemeral German message in time, and the app keeps serving."""
    api.script("views.open", *replies)
    status, body = command(bot, api, "")
    assert status == 200
    assert body["response_type"] == "ephemeral"
    assert "Das Formular ließ sich gerade nicht öffnen" in body["text"]
    assert expected in body["text"]
    assert "8 × 64 × 4" in all_text(command(bot, api, "8 64 4")[1])


def test_rate_limit_is_retried(bot: BotProcess, api: FakeWebAPI) -> None:
    """A 429 with a short Retry-After is retried by slack_sdk's handler and the form opens."""
    api.script(
        "views.open", Reply(status=429, body={"ok": False, "error": "ratelimited"}, headers={"Retry-After": "0"})
    )
    assert command(bot, api, "") == (200, None)
    assert len(api.method_calls("views.open")) == 2


def test_failing_publish_and_response_url_leave_the_app_serving(bot: BotProcess, api: FakeWebAPI) -> None:
    """views.publish errors and a dead response_url are logged; the next command is answered."""
    api.script("views.publish", Reply(status=500, body={"ok": False}), Reply(status=500, body={"ok": False}))
    assert post(bot, json.dumps(slack_payloads.app_home_opened()), "application/json")[0] == 200
    command(bot, api, "")
    api.script("response", Reply(status=404, body={"ok": False}))  # a 404 is final: no retry
    status, body = interaction(bot, slack_payloads.view_submission(opened_view(api)))
    assert status == 200
    assert body["response_action"] == "update"  # the answer is shown in the modal instead
    assert "Die Antwort ließ sich nicht in den Channel senden" in all_text({"blocks": body["view"]["blocks"]})
    assert "2.048" in all_text(command(bot, api, "8 64 4")[1])


def test_damaged_button_value_keeps_the_answer(bot: BotProcess, api: FakeWebAPI) -> None:
    """A button value that does not parse is answered only to the clicker; the answer is not replaced."""
    broken = {"action_id": "whatif_accumulation_double", "text": {"type": "plain_text", "text": "x"}, "value": "acht"}
    interaction(bot, slack_payloads.block_actions(broken, api.response_url("msg")))
    _, posted = api.next_response()
    assert posted["replace_original"] is False
    assert posted["response_type"] == "ephemeral"
    assert "„acht“ ist keine Zahl" in all_text(posted)


def test_adjust_failure_tells_the_clicker(bot: BotProcess, api: FakeWebAPI) -> None:
    """If the form cannot open from "Anpassen…", the clicker gets an ephemeral German message."""
    _, answer = command(bot, api, "8 64 4 4096")
    api.script("views.open", Reply(body={"ok": False, "error": "expired_trigger_id"}))
    interaction(bot, slack_payloads.block_actions(button(answer, "Anpassen…"), api.response_url("msg")))
    _, posted = api.next_response()
    assert posted["response_type"] == "ephemeral"
    assert posted["replace_original"] is False
    assert "Das Formular ließ sich gerade nicht öffnen (Slack: expired_trigger_id)" in posted["text"]


def test_adjust_keeps_values_the_form_has_no_field_for(bot: BotProcess, api: FakeWebAPI) -> None:
    """A budget (no form field) survives "Anpassen…": a = 8 doubles T and halves the steps to ⌈2·10¹² / 16.777.216⌉."""
    _, answer = command(bot, api, "8 64 4 4096 budget=2T")
    interaction(bot, slack_payloads.block_actions(button(answer, "Anpassen…"), api.response_url("msg")))
    interaction(bot, slack_payloads.view_submission(opened_view(api), {"accumulation": "8"}))
    _, replaced = api.next_response()
    assert "`Schritte = ⌈Budget / T⌉ = ⌈2.000.000.000.000 / 16.777.216⌉ = 119.210`" in all_text(replaced)


#: private_metadata the form never carries, each signed (any workspace member can send what Slack signs).
FORGED_METADATA = {
    "not JSON": "kein JSON",
    "a list": "[1, 2]",
    "response_url a number": '{"response_url": 5, "replace": false, "extra": {}}',
    "replace a string": '{"response_url": null, "replace": "ja", "extra": {}}',
    "extra a list": '{"response_url": null, "replace": false, "extra": []}',
    "extra with a field of the form": '{"response_url": null, "replace": false, "extra": {"micro_batch": 5}}',
    "extra of the wrong type": '{"response_url": null, "replace": false, "extra": {"cp": "viele"}}',
    "nested 20.000 deep": '{"extra": ' + "[" * 20_000 + "]" * 20_000 + "}",
    "5.000 digits": '{"response_url": null, "replace": false, "extra": {"cp": ' + "7" * 5_000 + "}}",
}


@pytest.mark.parametrize("case", FORGED_METADATA)
def test_a_forged_form_is_answered_as_expired(bot: BotProcess, api: FakeWebAPI, case: str) -> None:
    """A submitted form whose private_metadata the bot did not write: the modal says so, nothing is posted."""
    command(bot, api, "")
    view = {**opened_view(api), "private_metadata": FORGED_METADATA[case]}
    status, body = interaction(bot, slack_payloads.view_submission(view))
    assert status == 200
    assert body["response_action"] == "update"
    assert "abgelaufen oder beschädigt" in all_text(body["view"])
    assert api.responses.empty()
