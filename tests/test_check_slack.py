"""Config checks in Slack over real HTTP with signed requests: ``/effbatch prüfe``, the shortcut, the form, sharing."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest
from hostile_sizes import nanotron_unknown_keys
from slack_http import command, interaction, opened_view

import slack_payloads
from bot_process import BotProcess
from fake_slack import FakeWebAPI, Reply
from slack_checks import all_text, assert_valid_message

#: A Megatron-LM launch line as Slack sends it from a code block: fenced, with && escaped.
LAUNCH = (
    "```cd /work &amp;&amp; torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py \\\n"
    "  --tensor-model-parallel-size 2 --micro-batch-size 2 --global-batch-size 256 --seq-length 4096```"
)
#: An axolotl config (examples/llama-3/lora-8b.yml's batch keys): axolotl needs the world size from outside.
AXOLOTL = (
    "```\nbase_model: NousResearch/Meta-Llama-3-8B\nsequence_len: 4096\nmicro_batch_size: 2\n"
    "gradient_accumulation_steps: 4\n```"
)


@pytest.fixture(autouse=True)
def api(slack_api: FakeWebAPI) -> FakeWebAPI:
    slack_api.reset()
    return slack_api


def shortcut(bot: BotProcess, api: FakeWebAPI, text: str, thread_ts: str | None = None) -> tuple[int, Any]:
    return interaction(bot, slack_payloads.message_shortcut(text, api.response_url("shortcut"), thread_ts))


def share_button(payload: dict[str, Any]) -> dict[str, Any]:
    actions = next(block for block in payload["blocks"] if block["type"] == "actions")
    return next(element for element in actions["elements"] if element["action_id"] == "check_share")


def test_check_command_answers_a_pasted_launch_line_in_the_channel(bot: BotProcess, api: FakeWebAPI) -> None:
    """2 × 8 GPUs, TP 2: d = 8, a = 256 / (2 · 8) = 16, B = 256, T = 1.048.576 – in the acknowledgement."""
    status, payload = command(bot, api, f"prüfe {LAUNCH}")
    assert status == 200
    assert_valid_message(payload)
    assert payload["response_type"] == "in_channel"
    assert payload["text"].startswith("Megatron-LM: effektive Batch-Größe 256 Sequenzen")
    text = all_text(payload)
    for fragment in ("d = GPUs / (TP · PP · CP) = 16 / (2 · 1 · 1) = 8", "a = B / (b · d) = 256 / (2 · 8) = 16"):
        assert fragment in text
    assert "1.048.576" in text
    assert not api.method_calls("views.open")


def test_check_command_with_a_refused_config_names_the_rule_and_the_fix(bot: BotProcess, api: FakeWebAPI) -> None:
    """A global batch 250 that 2 · 8 does not divide: Megatron's own message and 240 or 256."""
    _, payload = command(bot, api, "pruefe " + LAUNCH.replace("256", "250"))
    assert_valid_message(payload)
    text = all_text(payload)
    assert "global batch size (250) is not divisible by micro batch size (2) times data parallel size (8)" in text
    assert "`--global-batch-size 240` oder `--global-batch-size 256`" in text


def test_check_command_without_world_size_opens_the_form(bot: BotProcess, api: FakeWebAPI) -> None:
    """axolotl without gpus=: a modal asks for nodes × GPUs; submitted 2 × 4, B = 2 · 8 · 4 = 64 to response_url."""
    status, body = command(bot, api, f"check {AXOLOTL}")
    assert (status, body) == (200, None)
    view = opened_view(api)
    assert view["callback_id"] == "effbatch_check_world"
    assert "axolotl" in all_text(view)
    status, body = interaction(bot, slack_payloads.view_submission(view, {"nodes": "2", "per_node": "4"}))
    assert (status, body) == (200, None)
    name, answer = api.next_response()
    assert name == "cmd"
    assert_valid_message(answer)
    assert answer["response_type"] == "in_channel"
    text = all_text(answer)
    assert "axolotl: effektive Batch-Größe 64 Sequenzen" in text
    assert "2 × 4 GPUs" in text  # where the world size came from


def test_check_command_with_a_gpu_says_whether_it_fits(bot: BotProcess, api: FakeWebAPI) -> None:
    """prüfe gpu=a100-40 and axolotl's Llama 3 8B (Meta-Llama-3-8B, plain data parallelism): the form asks for the
    world size, and the answer after it still holds the run against the A100 40GB named – with a warning."""
    command(bot, api, f"prüfe gpu=a100-40 {AXOLOTL}")
    interaction(bot, slack_payloads.view_submission(opened_view(api), {"nodes": "1", "per_node": "8"}))
    _, answer = api.next_response()
    assert_valid_message(answer)
    text = all_text(answer)
    assert "Speicher je GPU (Schätzung nach den Regeln von effbatch) – NousResearch/Meta-Llama-3-8B" in text
    assert "von 39,6\u00a0GiB nutzbar (A100 40GB)" in text  # the 40.536 MiB an A100 40GB reports to a process
    assert "Laut Schätzung passt dieser Lauf auf keine A100 40GB" in text


def test_check_command_with_an_unknown_gpu_names_the_known_ones(bot: BotProcess, api: FakeWebAPI) -> None:
    """gpu=v100: nothing is guessed; the answer, only to the caller, lists the GPUs the estimate knows."""
    _, payload = command(bot, api, f"prüfe gpus=8 gpu=v100 {AXOLOTL}")
    assert payload["response_type"] == "ephemeral"
    assert "Die GPU „v100“ kenne ich nicht; für den Speicher je GPU kenne ich h100, h200, b200" in all_text(payload)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("0", "„0“ ist nicht positiv"),
        # Slack checks a number input only in the browser: a crafted submission reaches the bot as it was typed
        ("²", "„²“ ist keine Zahl"),  # a digit to str.isdigit, not to int
        ("9" * 5000, "hat zu viele Stellen"),  # beyond int's 4.300 digits
        ("99999999", "liegt über der Obergrenze von 16.777.216"),
    ],
)
def test_world_form_refuses_what_is_not_a_count(bot: BotProcess, api: FakeWebAPI, typed: str, said: str) -> None:
    """A GPU count that is none: the form stays open with an error on that field naming what was typed, nothing is
    posted."""
    command(bot, api, f"prüfe {AXOLOTL}")
    status, body = interaction(bot, slack_payloads.view_submission(opened_view(api), {"per_node": typed}))
    assert status == 200
    assert body["response_action"] == "errors"
    assert set(body["errors"]) == {"per_node"}
    assert said in body["errors"]["per_node"]
    assert api.responses.empty()


def test_world_form_starts_from_what_the_script_names(bot: BotProcess, api: FakeWebAPI) -> None:
    """GPUS_PER_NODE=4 without a node count: the form asks, prefilled with 1 × 4 (plain ``python`` would be one
    process, so torchrun with a node count only the start knows)."""
    script = (
        "GPUS_PER_NODE=4\ntorchrun --nnodes $NNODES --nproc_per_node $GPUS_PER_NODE pretrain_gpt.py "
        "--micro-batch-size 1 --global-batch-size 32"
    )
    command(bot, api, f"prüfe ```{script}```")
    values = slack_payloads.form_state(opened_view(api))
    assert (values["nodes"]["value"]["value"], values["per_node"]["value"]["value"]) == ("1", "4")


def test_check_command_with_gpus_answers_at_once(bot: BotProcess, api: FakeWebAPI) -> None:
    """prüfe gpus=8 and the axolotl config: B = 2 · 8 · 4 = 64 without a form."""
    _, payload = command(bot, api, f"prüfe gpus=8 {AXOLOTL}")
    assert "axolotl: effektive Batch-Größe 64 Sequenzen" in all_text(payload)
    assert not api.method_calls("views.open")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("prüfe", "So prüfst du eine Konfiguration"),  # nothing pasted
        ("prüfe ```hello world```", "Format"),  # not a config
        ("prüfe ```a: !!python/object/apply:os.system [ls]```", "Python-Tag"),  # never executed
    ],
)
def test_check_command_refusals_are_private_and_specific(
    bot: BotProcess, api: FakeWebAPI, text: str, expected: str
) -> None:
    """What cannot be checked is answered only to the caller, in German, saying why."""
    _, payload = command(bot, api, text)
    assert_valid_message(payload)
    assert payload["response_type"] == "ephemeral"
    assert expected in all_text(payload)


def test_shortcut_answers_privately_and_shares_in_the_thread(bot: BotProcess, api: FakeWebAPI) -> None:
    """The shortcut's answer goes to the clicker only; "Im Thread teilen" posts it in the message's thread."""
    status, body = shortcut(bot, api, LAUNCH)
    assert (status, body) == (200, None)
    name, answer = api.next_response()
    assert name == "shortcut"
    assert_valid_message(answer)
    assert answer["response_type"] == "ephemeral"
    assert "Megatron-LM: effektive Batch-Größe 256 Sequenzen" in all_text(answer)
    button = share_button(answer)
    assert button["text"]["text"] == "Im Thread teilen"

    status, _ = interaction(bot, slack_payloads.block_actions(button, api.response_url("share"), block_id="choices"))
    assert status == 200  # acknowledged at once; the share follows, then its confirmation
    name, confirmation = api.next_response()
    assert (name, confirmation["text"], confirmation["response_type"]) == ("share", "Im Thread geteilt.", "ephemeral")
    [posted] = api.method_calls("chat.postMessage")
    assert (posted["channel"], posted["thread_ts"]) == (slack_payloads.CHANNEL_ID, "1700000005.000500")
    blocks = json.loads(posted["blocks"]) if isinstance(posted["blocks"], str) else posted["blocks"]
    shared = {"text": posted["text"], "blocks": blocks}
    assert_valid_message(shared, posted=True)
    assert "a = B / (b · d) = 256 / (2 · 8) = 16" in all_text(shared)
    assert "Im Thread teilen" not in all_text(shared)  # the shared answer has no button of its own


def test_shortcut_on_a_message_of_40000_characters(bot: BotProcess, api: FakeWebAPI) -> None:
    """Slack's longest message (40.000 characters, here with its blocks too: a 300 KB body) is checked, not 413."""
    text = LAUNCH + "\n" + "Notizen: " + "ö#" * ((40_000 - len(LAUNCH) - 10) // 2)
    assert len(text) <= 40_000
    payload = slack_payloads.message_shortcut(text, api.response_url("shortcut"))
    payload["message"]["blocks"] = [
        {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [{"type": "text", "text": text}]}]}
    ]
    status, _ = interaction(bot, payload)
    assert status == 200
    _, answer = api.next_response()
    assert "Megatron-LM: effektive Batch-Größe 256 Sequenzen" in all_text(answer)


#: The issue's Nanotron YAML: 110 unknown keys, all named in one message Slack refused (3.000 characters a section).
NANOTRON_110 = f"```\n{nanotron_unknown_keys(110)}```"


def test_check_command_answers_the_issues_nanotron_yaml(bot: BotProcess, api: FakeWebAPI) -> None:
    """`/effbatch prüfe` with 110 unknown keys: the answer itself (the internal-error text before), three keys named."""
    status, payload = command(bot, api, f"prüfe gpus=8 {NANOTRON_110}")
    assert status == 200
    assert_valid_message(payload)
    text = all_text(payload)
    assert payload["text"].startswith("Nanotron: 1 Fehler")
    assert "… und 106 weitere …" in text
    assert "schiefgegangen" not in text


def test_shortcut_answers_the_issues_nanotron_yaml(bot: BotProcess, api: FakeWebAPI) -> None:
    """The message shortcut on the same YAML: the answer on the response URL (nothing at all before)."""
    status, _ = shortcut(bot, api, NANOTRON_110)
    assert status == 200
    name, answer = api.next_response()
    assert name == "shortcut"
    assert_valid_message(answer)
    assert "Nanotron bricht ab: parallelism.unknown_key_number_000 gibt es nicht" in all_text(answer)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (LAUNCH.replace("pretrain_gpt.py", "pretrain_gpt.py \ud800"), "Megatron-LM: effektive Batch-Größe 256"),
        ("```\nmicro_batch_size: 2\ud800\n```", "Diese Konfiguration kann ich nicht prüfen"),
        ("\ud800", "Diese Konfiguration kann ich nicht prüfen"),
        ("\udfff\ud800" * 1000, "Diese Konfiguration kann ich nicht prüfen"),
    ],
)
def test_shortcut_on_a_lone_surrogate_answers_in_german(
    bot: BotProcess, api: FakeWebAPI, text: str, expected: str
) -> None:
    """A lone surrogate is valid in Slack's JSON: the shortcut still answers, in German, where it waits."""
    status, _ = shortcut(bot, api, text)
    assert status == 200
    name, answer = api.next_response()
    assert name == "shortcut"
    assert_valid_message(answer)
    assert expected in all_text(answer)


def test_shortcut_in_a_thread_shares_into_that_thread(bot: BotProcess, api: FakeWebAPI) -> None:
    """A message inside a thread: the answer goes to the thread's parent, not a new thread."""
    shortcut(bot, api, LAUNCH, thread_ts="1699999999.000100")
    _, answer = api.next_response()
    interaction(bot, slack_payloads.block_actions(share_button(answer), api.response_url("share"), "choices"))
    assert api.next_response()[0] == "share"  # the confirmation: the share is done
    assert api.method_calls("chat.postMessage")[-1]["thread_ts"] == "1699999999.000100"


def test_shortcut_without_world_size_asks_then_answers_privately(bot: BotProcess, api: FakeWebAPI) -> None:
    """The form comes with the shortcut's trigger; the answer after it is private and can be shared."""
    shortcut(bot, api, AXOLOTL)
    view = opened_view(api)
    assert api.method_calls("views.open")[-1]["trigger_id"] == "1337.46.mno"
    interaction(bot, slack_payloads.view_submission(view, {"nodes": "1", "per_node": "8"}))
    name, answer = api.next_response()
    assert (name, answer["response_type"]) == ("shortcut", "ephemeral")
    assert "axolotl: effektive Batch-Größe 64 Sequenzen" in all_text(answer)
    interaction(bot, slack_payloads.block_actions(share_button(answer), api.response_url("share"), "choices"))
    assert api.next_response()[0] == "share"  # the confirmation: the share is done
    shared = api.method_calls("chat.postMessage")[-1]
    assert "64" in shared["text"]
    assert "1 × 8 GPUs" in json.dumps(shared["blocks"], ensure_ascii=False)  # the world size travels along


def test_shortcut_on_a_message_without_a_config(bot: BotProcess, api: FakeWebAPI) -> None:
    """A chat message: a private German answer saying what the shortcut reads, no form."""
    shortcut(bot, api, "Wann startet der Lauf?")
    _, answer = api.next_response()
    assert answer["response_type"] == "ephemeral"
    assert "Format" in all_text(answer)
    assert not api.method_calls("views.open")


def test_share_when_the_bot_is_not_in_the_channel(bot: BotProcess, api: FakeWebAPI) -> None:
    """chat.postMessage says not_in_channel: the clicker is told how to invite the bot."""
    shortcut(bot, api, LAUNCH)
    _, answer = api.next_response()
    api.script("chat.postMessage", Reply(body={"ok": False, "error": "not_in_channel"}))
    interaction(bot, slack_payloads.block_actions(share_button(answer), api.response_url("share"), "choices"))
    _, told = api.next_response()
    assert "/invite @effbatch" in told["text"]
    assert told["response_type"] == "ephemeral"


def packed(raw: bytes) -> str:
    """``raw`` as a state looks: compressed and base64, the way ``pack`` writes it."""
    return "z1:" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode()


#: States the bot never made, each signed (any workspace member can send what Slack signs).
FORGED_STATES = {
    "not base64": "z1:@@@@",
    "not zlib": "z1:AAAA",
    "not JSON": packed(b"kein JSON"),
    "not an object": packed(b"[1, 2, 3]"),
    "text of the wrong type": packed(b'{"text": 5}'),
    "world of the wrong type": packed(b'{"text": "x", "world": "viele", "channel": "C1", "thread": "1.2"}'),
    "world as true": packed(b'{"text": "x", "world": true, "channel": "C1", "thread": "1.2"}'),
    "a key it never writes": packed(b'{"text": "x", "admin": true}'),
    "nested 20.000 deep": packed(b'{"text": "x", "url": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"),
    "5.000 digits": packed(b'{"text": "x", "world": ' + b"7" * 5_000 + b"}"),
    "a world of 4.000 digits": packed(b'{"text": "x", "world": ' + b"7" * 4_000 + b', "channel": "C1", "thread": "1"}'),
    "inflating to 3 MB": packed(b'{"text": "' + b" " * 3_000_000 + b'"}'),
}


@pytest.mark.parametrize("case", FORGED_STATES)
def test_a_forged_share_value_is_answered_as_expired(bot: BotProcess, api: FakeWebAPI, case: str) -> None:
    """A signed click with a value the bot did not make: nothing posted, the clicker told it expired."""
    forged = {"action_id": "check_share", "text": {"type": "plain_text", "text": "x"}, "value": FORGED_STATES[case]}
    status, _ = interaction(bot, slack_payloads.block_actions(forged, api.response_url("share"), "choices"))
    assert status == 200
    name, told = api.next_response()
    assert (name, told["response_type"]) == ("share", "ephemeral")
    assert "abgelaufen oder beschädigt" in told["text"]
    assert not api.method_calls("chat.postMessage")


@pytest.mark.parametrize("case", FORGED_STATES)
def test_a_forged_world_form_is_answered_as_expired(bot: BotProcess, api: FakeWebAPI, case: str) -> None:
    """A submitted world-size form whose private_metadata the bot did not make: the modal says it expired."""
    command(bot, api, f"prüfe {AXOLOTL}")
    view = {**opened_view(api), "private_metadata": FORGED_STATES[case]}
    status, body = interaction(bot, slack_payloads.view_submission(view, {"nodes": "2", "per_node": "4"}))
    assert status == 200
    assert body["response_action"] == "update"
    assert "abgelaufen oder beschädigt" in all_text(body["view"])
    assert api.responses.empty()
