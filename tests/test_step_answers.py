"""The predicted step as a user receives it: the terminal, Slack's blocks and ``--json`` say the same breakdown and
name every assumed number where it stands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.serving.cli import json_answer

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())
PIPELINE = "llama3.1-70b b=1 a=16 gpus=64 tp=8 pp=4 L=8k gpu=h100 distributed_optimizer=ja budget=1T"


def text_of(command: str) -> str:
    return plain_text(answer_command(command, Visibility.IN_CHANNEL, command="effbatch").document, choices=False)


def slack_text(command: str) -> str:
    blocks = message(answer_command(command, Visibility.IN_CHANNEL).document)["blocks"]
    return json.dumps(blocks, ensure_ascii=False)


def time_of(command: str) -> dict[str, Any]:
    data = json_answer(command)
    assert isinstance(data, dict)
    jsonschema.validate(data, SCHEMA)
    time = data["time"]
    assert isinstance(time, dict)
    return time


@pytest.mark.parametrize("render", [text_of, slack_text])
def test_the_breakdown_is_shown_in_the_terminal_and_in_slack(render: Any) -> None:
    """Compute, tensor parallelism, the bubble and the data-parallel traffic, each with its seconds and share."""
    shown = render(PIPELINE)
    assert "Zeit je Schritt (vorhergesagt) = Rechnen" in shown
    for part in ("Tensor-Parallelität", "Pipeline-Blase", "Datenparallel (Gradienten, ZeRO)", "des Schritts"):
        assert part in shown
    assert "ein Ergebnis, keine Annahme" in shown
    assert "Angenommen: 400 Gbit/s je GPU zwischen den Knoten, wie im Referenzknoten der H100 SXM" in shown


def test_json_carries_the_breakdown() -> None:
    """``time.breakdown``: seconds by part summing to the step, the bound, what was assumed; MFU not assumed."""
    time = time_of(PIPELINE)
    breakdown = time["breakdown"]
    assert time["mfu_assumed"] is False
    assert time["mfu_source"] == "predicted"
    assert sum(breakdown["seconds"].values()) == pytest.approx(time["step_seconds"])
    assert breakdown["seconds"]["pipeline_bubble"] > 0
    assert breakdown["assumed"] == ["kernel_efficiency", "network"]
    assert breakdown["net_gbps"] == 400


def test_a_network_given_is_not_assumed() -> None:
    """``net=200`` (or ``netz=``): used, and no line calls the network assumed."""
    time = time_of(f"{PIPELINE} netz=200")
    assert time["breakdown"]["assumed"] == ["kernel_efficiency"]
    assert time["breakdown"]["net_gbps"] == 200
    assert "Gbit/s je GPU zwischen den Knoten" not in text_of(f"{PIPELINE} net=200G")


def test_mfu_given_overrides_the_prediction_and_says_so() -> None:
    """``mfu=45%``: the step at that MFU, no breakdown, and the answer says the MFU was given, not predicted."""
    time = time_of(f"{PIPELINE} mfu=45%")
    assert time["mfu"] == pytest.approx(0.45)
    assert time["mfu_source"] == "given"
    assert "breakdown" not in time
    assert "MFU 45\u00a0% wie angegeben (mfu=) statt vorhergesagt." in text_of(f"{PIPELINE} mfu=45%")


def test_step_time_still_derives_the_mfu() -> None:
    """``step_time=`` keeps deriving the MFU from the time measured."""
    time = time_of("llama3.1-8b b=1 a=4 gpus=8 L=8k gpu=h100 step_time=3s")
    assert time["mfu_source"] == "step_time"
    assert time["step_seconds"] == pytest.approx(3.0)


def test_fp8_on_a100_is_named() -> None:
    """``dtype=fp8`` on an A100: the answer says the card has no FP8 units and counts BF16 speed."""
    shown = text_of("llama3.1-8b b=1 a=4 gpus=8 L=8k gpu=a100-80 dtype=fp8")
    assert "Die A100 80GB hat keine FP8-Einheiten" in shown


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("mixtral-8x7b b=1 a=8 gpus=64 tp=2 ep=8 L=4k gpu=h100 zero=1", True),  # 8 experts over EP 8: one local
        ("llama3.1-8b b=1 a=4 gpus=8 L=8k gpu=h100", False),  # dense: no routing, nothing launched per expert
    ],
)
def test_the_moe_host_time_is_named_as_assumed(command: str, named: bool) -> None:
    """An MoE step's host time rests on a launch time per kernel that is estimated, not measured: the answer says so
    with its numbers (moe_step's 15 kernels a local expert, 10 µs each), and only where a model routes tokens."""
    shown = text_of(command)
    said = "der je lokalem Experten 15 Kernel startet, je 10 µs (eine Schätzung"
    assert (said in shown) is named
    assert ("kernel_launch" in time_of(command)["breakdown"]["assumed"]) is named


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("llama2-7b b=1 a=4 gpus=8 L=4k gpu=a100-80 framework=deepspeed zero=2", True),  # overlap_comm off
        ("llama2-7b b=1 a=1 gpus=8 L=4k gpu=a100-80 framework=deepspeed zero=3", True),  # on, and the reuse distance
        ("llama2-7b b=1 a=1 gpus=8 L=4k gpu=a100-80 framework=fsdp zero=3", False),  # FSDP: no DeepSpeed defaults
        ("llama2-7b b=1 a=4 gpus=1 L=4k gpu=a100-80 framework=deepspeed zero=2", False),  # one replica: no traffic
    ],
)
def test_deepspeeds_defaults_are_named_as_assumed(command: str, named: bool) -> None:
    """DeepSpeed's data-parallel time rests on its config's defaults (overlap_comm, max_reuse_distance), which a
    user's config may change: the answer says which it took, and only where DeepSpeed's ZeRO traffic is counted."""
    said = "Angenommen: DeepSpeeds Voreinstellungen – unter ZeRO-1/2 kein overlap_comm"
    assert (said in text_of(command)) is named
    assert ("deepspeed_defaults" in time_of(command)["breakdown"]["assumed"]) is named


def test_fp8_is_faster_in_the_answer() -> None:
    """The same run in FP8 on H100 answers more tokens per second than in BF16."""
    command = "llama3.1-8b b=1 a=4 gpus=8 L=8k gpu=h100"
    assert time_of(f"{command} dtype=fp8")["tokens_per_second"] > time_of(command)["tokens_per_second"]
