"""Reinforcement-learning batches in Slack over real HTTP with signed requests: a verl launch line pasted to
``/effbatch prüfe``, a TRL GRPO config through the message shortcut, and the calculator's rollout with its buttons."""

from __future__ import annotations

from typing import Any

import pytest
from slack_http import command, interaction

import slack_payloads
from bot_process import BotProcess
from fake_slack import FakeWebAPI
from slack_checks import all_text, assert_valid_message

#: verl's examples/grpo_trainer/run_qwen2-7b.sh as Slack sends it from a code block: fenced, with && escaped.
VERL = (
    "```set -x &amp;&amp; python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo \\\n"
    "  data.train_batch_size=1024 data.max_prompt_length=512 data.max_response_length=1024 \\\n"
    "  actor_rollout_ref.actor.ppo_mini_batch_size=256 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=40 \\\n"
    "  actor_rollout_ref.rollout.n=5 trainer.n_gpus_per_node=8 trainer.nnodes=1```"
)
#: TRL's docs/source/clis.md GRPO YAML, run by `trl grpo --config` on 8 processes.
GRPO = (
    "```\nmodel_name_or_path: Qwen/Qwen2.5-0.5B\nreward_funcs:\n  - accuracy_reward\n"
    "per_device_train_batch_size: 8\ngradient_accumulation_steps: 4\nnum_generations: 8\n"
    "max_completion_length: 1024\nnum_processes: 8\n```"
)


@pytest.fixture(autouse=True)
def api(slack_api: FakeWebAPI) -> FakeWebAPI:
    slack_api.reset()
    return slack_api


def button(payload: dict[str, Any], label: str) -> dict[str, Any]:
    actions = next(block for block in payload["blocks"] if block["type"] == "actions")
    return next(element for element in actions["elements"] if element["text"]["text"] == label)


def test_a_pasted_verl_line_is_answered_with_its_rollout(bot: BotProcess, api: FakeWebAPI) -> None:
    """verl's numbers (its lines lifted and run): 1.024 × 5 = 5.120 sequences, B = 1.280, a = 4, k = 4."""
    status, payload = command(bot, api, f"prüfe {VERL}")
    assert status == 200
    assert_valid_message(payload)
    assert payload["response_type"] == "in_channel"
    assert payload["text"].startswith("verl: effektive Batch-Größe 1.280 Sequenzen")
    assert "je Rollout 5.120 Sequenzen in 4 Optimierer-Schritten" in payload["text"]
    text = all_text(payload)
    for fragment in (
        "*Prompts je Rollout (P)*\n1.024",
        "*Sequenzen je Rollout (P · n)*\n5.120",
        "*Optimierer-Schritte je Rollout (s)*\n4",
        "Mini-Batch je GPU = ppo_mini_batch_size · n // d = 256 × 5 // 8 = 160",
        "a = Mini-Batch je GPU / b = 160 / 40 = 4",
        "`actor_rollout_ref.rollout.n = 5` (Codeblock 1:4)",  # as the config writes it, as code
    ):
        assert fragment in text, fragment


def test_the_shortcut_reads_a_grpo_config(bot: BotProcess, api: FakeWebAPI) -> None:
    """TRL 1.16.0's GRPOConfig: G = 8 · 8 · 4 = 256 completions, 32 prompts × 8, one optimizer step."""
    status, _ = interaction(bot, slack_payloads.message_shortcut(GRPO, api.response_url("shortcut")))
    assert status == 200
    name, answer = api.next_response()
    assert name == "shortcut"
    assert_valid_message(answer)
    text = all_text(answer)
    assert "TRL: effektive Batch-Größe 256 Sequenzen" in text
    assert "P = G / n = 256 / 8 = 32 Prompts je Generierungs-Batch" in text
    assert "zählt bei GRPO Antworten (Completions), nicht Prompts" in text


def test_the_calculators_rollout_and_its_samples_button(bot: BotProcess, api: FakeWebAPI) -> None:
    """``prompts=512 n=8 mini=128 b=4 gpus=64``: B = 1.024, a = 4; "Antworten ×2" makes B = 2.048, a = 8."""
    status, answer = command(bot, api, "prompts=512 n=8 mini=128 b=4 gpus=64")
    assert status == 200
    assert_valid_message(answer)
    assert "`s = P / mini · Epochen = 512 / 128 × 1 = 4` Optimierer-Schritte je Rollout" in all_text(answer)
    click = slack_payloads.block_actions(button(answer, "Antworten ×2"), api.response_url("msg"))
    assert interaction(bot, click) == (200, None)
    name, replaced = api.next_response()
    assert name == "msg"
    text = all_text(replaced)
    assert "Effektive Batch-Größe: 2.048 Sequenzen" in text
    assert "`a = B / (b · d) = 2.048 / (4 · 64) = 8`" in text
    assert "Zuletzt geändert von <@U0USER>: Antworten ×2" in text
