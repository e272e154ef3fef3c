"""Interactive state is the bot's own, and answers go only to Slack: sealed metadata and values, response URLs.

What travels through Slack (a form's ``private_metadata``, a share button's value) comes back in a signed
request, and Slack signs what any client of a workspace member sends. Over real HTTP with
signed requests; a second Web API stand-in on another loopback port plays a host that is not Slack's.
"""

from __future__ import annotations

import base64
import json
import time
import zlib
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from slack_http import command, interaction, opened_view, post

import slack_payloads
from bot_process import BotProcess
from fake_slack import FakeWebAPI
from slack_checks import all_text

#: A Megatron-LM launch line (as test_check_slack's): a check answered at once, with a share button.
LAUNCH = "```torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 2 --global-batch-size 256```"
#: An axolotl config: the world size comes from the form (examples/llama-3/lora-8b.yml's batch keys).
AXOLOTL = "```\nsequence_len: 4096\nmicro_batch_size: 2\ngradient_accumulation_steps: 4\n```"


@pytest.fixture(autouse=True)
def api(slack_api: FakeWebAPI) -> FakeWebAPI:
    slack_api.reset()
    return slack_api


@pytest.fixture
def foreign() -> Iterator[FakeWebAPI]:
    """A host that is not Slack's (nor the configured Web API's): nothing may ever be posted to it."""
    with FakeWebAPI() as other:
        yield other


def packed(state: dict[str, Any]) -> str:
    """A state as the bot packed it before states were sealed: compressed and base64, without a seal."""
    raw = json.dumps(state, separators=(",", ":")).encode()
    return "z1:" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode()


def share_value(bot: BotProcess, api: FakeWebAPI) -> str:
    """The share button's value of a real shortcut answer."""
    interaction(bot, slack_payloads.message_shortcut(LAUNCH, api.response_url("shortcut")))
    _, answer = api.next_response()
    actions = next(block for block in answer["blocks"] if block["type"] == "actions")
    value: str = next(e for e in actions["elements"] if e["action_id"] == "check_share")["value"]
    return value


def click_share(bot: BotProcess, api: FakeWebAPI, value: str) -> None:
    button = {"action_id": "check_share", "text": {"type": "plain_text", "text": "Im Thread teilen"}, "value": value}
    interaction(bot, slack_payloads.block_actions(button, api.response_url("share"), "choices"))


def test_a_forged_share_value_posts_nothing_into_another_channel(bot: BotProcess, api: FakeWebAPI) -> None:
    """A well-formed state the bot did not seal, naming another channel: told it expired, nothing posted (before,
    the check was posted into that channel)."""
    forged = packed({"text": LAUNCH, "channel": "C0OTHER", "thread": "1700000000.000100", "private": True})
    click_share(bot, api, forged)
    name, told = api.next_response()
    assert (name, told["response_type"]) == ("share", "ephemeral")
    assert "abgelaufen oder beschädigt" in told["text"]
    assert not api.method_calls("chat.postMessage")


def test_a_sealed_share_value_with_another_channel_is_refused(bot: BotProcess, api: FakeWebAPI) -> None:
    """The bot's own value, its text changed (another channel) and the seal kept: refused; unchanged, it shares."""
    value = share_value(bot, api)
    body, _, seal = value.rpartition(".")
    state = json.loads(zlib.decompress(base64.urlsafe_b64decode(body.removeprefix("z1:"))))
    click_share(bot, api, packed({**state, "channel": "C0OTHER"})[:-1] + "." + seal)
    assert "abgelaufen oder beschädigt" in api.next_response()[1]["text"]
    assert not api.method_calls("chat.postMessage")
    click_share(bot, api, value)
    assert api.next_response()[1]["text"] == "Im Thread geteilt."  # acknowledged at once, confirmed once shared
    assert api.method_calls("chat.postMessage")[-1]["channel"] == slack_payloads.CHANNEL_ID


def test_a_forged_form_cannot_send_the_answer_elsewhere(bot: BotProcess, api: FakeWebAPI, foreign: FakeWebAPI) -> None:
    """The calculator form's metadata, well-formed but not sealed, pointing at another host: the modal says it
    expired, nothing reaches that host (before, the answer was posted there)."""
    command(bot, api, "")
    metadata = {"response_url": foreign.response_url("stolen"), "replace": False, "extra": {}}
    view = {**opened_view(api), "private_metadata": json.dumps(metadata)}
    status, body = interaction(bot, slack_payloads.view_submission(view))
    assert status == 200
    assert body["response_action"] == "update"
    assert "abgelaufen oder beschädigt" in all_text(body["view"])
    assert foreign.responses.empty()


def test_a_forged_world_form_cannot_send_the_answer_elsewhere(
    bot: BotProcess, api: FakeWebAPI, foreign: FakeWebAPI
) -> None:
    """The world-size form's metadata, packed as the bot packs it but not sealed, answering to another host."""
    command(bot, api, f"prüfe {AXOLOTL}")
    forged = packed({"text": AXOLOTL, "url": foreign.response_url("stolen"), "private": False})
    view = {**opened_view(api), "private_metadata": forged}
    status, body = interaction(bot, slack_payloads.view_submission(view, {"nodes": "1", "per_node": "8"}))
    assert (status, body["response_action"]) == (200, "update")
    assert "abgelaufen oder beschädigt" in all_text(body["view"])
    assert foreign.responses.empty()


def test_a_state_sealed_for_one_purpose_is_refused_for_another(bot: BotProcess, api: FakeWebAPI) -> None:
    """A share button's value, itself sealed, submitted as the world form's metadata: refused (each purpose has
    its own seal)."""
    value = share_value(bot, api)
    command(bot, api, f"prüfe {AXOLOTL}")
    view = {**opened_view(api), "private_metadata": value}
    _, body = interaction(bot, slack_payloads.view_submission(view, {"nodes": "1", "per_node": "8"}))
    assert body["response_action"] == "update"
    assert "abgelaufen oder beschädigt" in all_text(body["view"])


def test_the_forms_as_opened_still_answer(bot: BotProcess, api: FakeWebAPI) -> None:
    """The sealed metadata round-trips: both forms, submitted as opened, answer at the command's response URL."""
    command(bot, api, "")
    interaction(bot, slack_payloads.view_submission(opened_view(api)))
    assert api.next_response()[0] == "cmd"
    command(bot, api, f"prüfe {AXOLOTL}")
    interaction(bot, slack_payloads.view_submission(opened_view(api), {"nodes": "1", "per_node": "8"}))
    name, answer = api.next_response()
    assert name == "cmd"
    assert "axolotl: effektive Batch-Größe 64 Sequenzen" in all_text(answer)


def test_response_urls_only_on_slacks_hosts(bot: BotProcess, api: FakeWebAPI, foreign: FakeWebAPI) -> None:
    """A signed click whose response_url is on another host: nothing is posted there, the refusal is logged; the
    same click with Slack's (here: the configured Web API's) host is answered."""
    click = {"action_id": "whatif_accumulation_double", "text": {"type": "plain_text", "text": "x"}, "value": "8 64 4"}
    logged = len(bot.log_so_far())
    assert interaction(bot, slack_payloads.block_actions(click, foreign.response_url("stolen")))[0] == 200
    assert foreign.responses.empty()
    deadline = time.monotonic() + 10  # the log thread writes the line a moment later: a hang guard
    while "response url refused" not in bot.log_so_far()[logged:]:
        assert time.monotonic() < deadline, "the refusal was not logged"
        time.sleep(0.02)
    interaction(bot, slack_payloads.block_actions(click, api.response_url("msg")))
    assert api.next_response()[0] == "msg"


def test_the_form_of_a_command_with_a_foreign_response_url_posts_nowhere(
    bot: BotProcess, api: FakeWebAPI, foreign: FakeWebAPI
) -> None:
    """/effbatch alone with a response_url on another host: the sealed form carries it, the submission does not
    post there (the modal says the answer could not be posted)."""
    post(bot, urlencode(slack_payloads.command("", foreign.response_url("stolen"))))
    _, body = interaction(bot, slack_payloads.view_submission(opened_view(api)))
    assert body["response_action"] == "update"
    assert foreign.responses.empty()


SEAL_CASES = {
    "its own text": ("form", "abc", "form", "abc", True),
    "another purpose": ("share", "abc", "form", "abc", False),
    "a changed text": ("form", "abc", "form", "abd", False),
    "no seal at all": ("form", "abc", "form", None, False),
}


@pytest.mark.parametrize("case", SEAL_CASES)
def test_a_seal_opens_only_what_it_sealed(case: str) -> None:
    """``Seal.opened`` gives back the text sealed for that purpose with that secret, and None for anything else."""
    from effbatch.bot.slack.state import Purpose, Seal

    sealed_for, text, opened_for, changed, opens = SEAL_CASES[case]
    seal = Seal("test-signing-secret")
    sealed = seal.sealed(Purpose(sealed_for), text)
    if changed is None:
        sealed = text
    elif changed != text:
        sealed = changed + sealed[len(text) :]
    assert (seal.opened(Purpose(opened_for), sealed) == text) is opens
    assert Seal("another-secret").opened(Purpose(sealed_for), seal.sealed(Purpose(sealed_for), text)) is None
