"""What a user receives for ``plane …``: the terminal, Slack's blocks and ``--json`` – with the real memory and time
models, asserting on the answer's structure (which layout wins is the time model's, tested with fakes elsewhere)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from effbatch.bot.document import AnswerKind, Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.serving.cli import json_answer, main

from slack_checks import all_text, assert_valid_message

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())
PLAN = "plane llama3.1-70b gpus=256 gpu=h100 B=512 L=8k budget=15T"


def text_of(command: str) -> str:
    return plain_text(answer_command(command, Visibility.IN_CHANNEL, command="effbatch").document, choices=False)


@pytest.mark.parametrize("word", ["plane", "plan", "Plane"])
def test_the_plan_answers_the_fastest_three(word: str) -> None:
    """``plane``/``plan``: three layouts, each with B = b · a · d = 512, its memory, step, days and GPU-hours."""
    shown = text_of(PLAN.replace("plane", word, 1))
    assert "Plan: Llama 3.1 70B auf 256 × H100 SXM, B = 512" in shown
    for rank in ("1. TP", "2. TP", "3. TP"):
        assert rank in shown
    assert shown.count("B = b · a · d = ") == 3
    assert shown.count("Speicher je GPU:") == 3
    assert shown.count("Budget 15\u00a0Bio. Tokens:") == 3
    assert "GPU-Stunden" in shown
    assert "Warum nicht das Naheliegende?" in shown
    assert "Einzeln nachrechnen: effbatch llama3.1-70b gpus=256 gpu=h100 tp=" in shown
    assert "budget=15T" in shown


def test_the_plan_names_its_assumptions() -> None:
    """The search's bounds, the reserve and the memory rules stand in the small print, and what the time assumed."""
    shown = text_of(PLAN)
    assert "eine beschnittene Suche, keine vollständige" in shown
    assert "Reserve: 5\u00a0% des GPU-Speichers" in shown
    assert "Geschätzt nach effbatchs Regeln" in shown


def test_a_plan_in_slack() -> None:
    """Block Kit from the same document: valid blocks, the title and the three layouts."""
    answer = answer_command(PLAN, Visibility.IN_CHANNEL)
    assert answer.kind is AnswerKind.PLAN
    payload = message(answer.document)
    assert_valid_message(payload)
    shown = all_text(payload)
    assert "Plan: Llama 3.1 70B auf 256 × H100 SXM, B = 512" in shown
    assert "`/effbatch llama3.1-70b gpus=256 gpu=h100 tp=" in shown


def test_the_plan_as_json() -> None:
    """``--json``: ``plan[]`` fastest first, each in a plain answer's shape, valid against the schema."""
    data = json_answer(PLAN)
    jsonschema.validate(data, SCHEMA)
    assert isinstance(data, dict)
    plan = data["plan"]
    assert len(plan) == 3
    steps = [entry["time"]["step_seconds"] for entry in plan]
    assert steps == sorted(steps)
    for entry in plan:
        assert entry["micro_batch"] * entry["accumulation"] * entry["data_parallel"] == 512
        assert entry["data_parallel"] * entry["tp"] * entry["pp"] * entry["cp"] == 256
        assert entry["memory"]["fits"] is True
        assert {"step_seconds", "mfu", "tokens_per_second", "train_days", "gpu_hours"} <= entry["time"].keys()
    assert data["search"]["predicted"] > 0


def test_nothing_fits_says_what_would() -> None:
    """Llama 3.1 70B with B = 512 at 8k on 8 H100: the fewest GPUs of that card and the memory a card would need."""
    shown = text_of("plane llama3.1-70b gpus=8 gpu=h100 B=512 L=8k")
    assert "Nichts passt" in shown
    assert "Es passt ab 16 GPUs dieser Karte: effbatch plane llama3.1-70b gpus=16 gpu=h100 B=512 L=8192." in shown
    assert "Oder eine Karte mit mindestens" in shown
    data = json_answer("plane llama3.1-70b gpus=8 gpu=h100 B=512 L=8k")
    jsonschema.validate(data, SCHEMA)
    assert isinstance(data, dict)
    assert data["plan"] == []
    assert data["shortfall"]["fewest_gpus"] == 16


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("plane llama3.1-70b gpus=200 gpu=h100 B=512 L=8k pp=100", "das Modell hat nur 80 Schichten"),
        ("plane mixtral-8x7b topk=9 gpus=64 gpu=h100 B=256 L=4k", "9"),
        ("plane llama3.1-70b gpus=8 gpu=h100 B=512 L=8k tp=8 pp=2", "8 GPUs lassen sich nicht auf"),
        ("plane llama3.1-70b gpus=256 B=512", "Für einen Plan brauche ich noch: den GPU-Typ"),
    ],
)
def test_impossible_or_incomplete_plans_are_refused(
    command: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """More stages than layers, top-k above the experts, TP · PP above the GPUs, no GPU type: a German refusal
    naming it, never a plan; ``--json`` says it as ``error``."""
    answer = answer_command(command, Visibility.IN_CHANNEL, command="effbatch")
    assert answer.kind is AnswerKind.INPUT_ERROR
    assert said in plain_text(answer.document)
    assert "Plan:" not in plain_text(answer.document)
    assert main(["--json", *command.split()]) == 2
    assert said in json.loads(capsys.readouterr().out)["error"]


def test_was_hilft_is_whole_combinations_with_b_held() -> None:
    """The memory answer's „Was hilft“: combinations that fit, each typed whole, B held; never „reicht allein
    nicht“, never a bare ``tp=2`` that would halve d."""
    shown = text_of("llama3.1-8b b=4 gpus=8 a=8 L=8k gpu=a100-40")
    advice = shown.split("Was hilft", 1)[1].split("Trainingszeit", 1)[0]
    assert "reicht allein nicht" not in advice
    bullets = [line for line in advice.splitlines() if line.startswith("• ")]
    assert 1 <= len(bullets) <= 3
    for line in bullets:
        assert " b=" in line
        assert " a=" in line
    assert "B = b · a · d = 256 bleibt" in advice
