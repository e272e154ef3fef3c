"""What a user receives for ``plane …``: the terminal, Slack's blocks and ``--json`` – with the real memory and time
models, asserting on the answer's structure (which layout wins is the time model's, tested with fakes elsewhere)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from fake_planning import FakeMemory, FakeTime
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from effbatch.bot.document import AnswerKind, Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.rendering.plan import plan_document
from effbatch.bot.serving.cli import json_answer, main
from effbatch.core import PlanCommand, parse_command
from effbatch.core.memory import GPUS, MODELS, find_gpu
from effbatch.core.planner import Goal, search

from slack_checks import all_text, assert_valid_message

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())
PLAN = "plane llama3.1-70b gpus=256 gpu=h100 B=512 L=8k budget=15T"


def text_of(command: str) -> str:
    return plain_text(answer_command(command, Visibility.IN_CHANNEL, command="effbatch").document, choices=False)


@pytest.mark.parametrize("word", ["plane", "plan", "Plane"])
def test_the_plan_answers_the_fastest_three(word: str) -> None:
    """``plane``/``plan``: three layouts, each with B = b · d · a = 512, its memory, step, days and GPU-hours."""
    shown = text_of(PLAN.replace("plane", word, 1))
    assert "Plan: Llama 3.1 70B auf 256 × H100 SXM, B = 512" in shown
    for rank in ("1. TP", "2. TP", "3. TP"):
        assert rank in shown
    assert shown.count("B = b · d · a = ") == 3
    assert shown.count("Speicher je GPU:") == 3
    assert shown.count("Budget 15\u00a0Bio. Tokens:") == 3
    assert "GPU-Stunden" in shown
    assert "Warum nicht das Naheliegende?" in shown
    assert "Einzeln nachrechnen: effbatch llama3.1-70b gpus=256 gpu=h100 tp=" in shown
    assert "budget=15T" in shown


def test_the_plan_names_its_assumptions() -> None:
    """The search's bounds, the margin and the memory rules stand in the small print, and what the time assumed."""
    shown = text_of(PLAN)
    assert "eine beschnittene Suche, keine vollständige" in shown
    assert "Spielraum: 5\u00a0% des Speichers je GPU" in shown
    assert "Geschätzt nach den Regeln von effbatch" in shown


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
    assert "Es passt ab 16 Karten dieser Art: effbatch plane llama3.1-70b gpus=16 gpu=h100 B=512 L=8192." in shown
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
        ("plane llama3.1-70b gpus=24 gpu=h100 B=48 L=8k tp=3", "TP = 3 teilt die 64 Attention-Köpfe"),
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
    assert "B = b · d · a = 256 bleibt" in advice


def test_why_the_obvious_choice_is_slower_is_said_part_by_part() -> None:
    """With a time model where all but TP 8 spend 2 s more on data-parallel communication, the answer names the
    obvious layout, how much slower it is and which part costs the difference."""
    time = FakeTime(extra=lambda setup: 0.0 if setup.tp == 8 else 2.0)
    goal = Goal(MODELS["llama3.1-70b"], 64, 80 * 1024**3, 256, 8192, find_gpu("h100"), 10**12)
    planned = search(goal, FakeMemory(states=100 * 1024**3, per_sample=1024**3), time)
    shown = plain_text(plan_document(planned, Visibility.IN_CHANNEL, command="effbatch"), choices=False)
    assert "1. TP 8 · PP 1" in shown
    assert "Naheliegend wäre TP 1 · PP 1 · CP 1 · ZeRO 3" in shown
    assert "3,00\u00a0s je Schritt, 200\u00a0% langsamer als Platz 1." in shown
    assert "Mehr Zeit kostet dort: Datenparallel-Kommunikation +2,00\u00a0s." in shown


@pytest.mark.parametrize(
    ("command", "missing"),
    [
        ("plane", ["das Modell", "die Zahl der GPUs", "den GPU-Typ", "die Sequenzlänge", "die globale Batch-Größe"]),
        ("plan llama3.1-8b gpus=8 gpu=h100 L=4k", ["die globale Batch-Größe"]),
        ("plane llama3.1-8b gpus=8 gpu=h100 T=1000 L=4k", ["die globale Batch-Größe"]),  # L does not divide T
    ],
)
def test_a_plan_names_everything_it_lacks_at_once(command: str, missing: list[str]) -> None:
    """What a plan cannot do without, named together in one German sentence with an example to type."""
    answer = answer_command(command, Visibility.IN_CHANNEL, command="effbatch")
    assert answer.kind is AnswerKind.INPUT_ERROR
    shown = plain_text(answer.document)
    for said in missing:
        assert said in shown
    assert "Zum Beispiel: effbatch plane llama3.1-70b gpus=256 gpu=h100 B=512 L=8k budget=15T" in shown


def test_the_plan_words_parse_to_a_layout_search() -> None:
    """``plane`` and ``plan`` ask for the search, without b, d or a counted as missing; any other setup does not."""
    for word in ("plane", "plan", "PLAN"):
        parsed = parse_command(f"{word} llama3.1-70b gpus=256 gpu=h100 B=512 L=8k privat")
        assert isinstance(parsed, PlanCommand)
        assert parsed.planner
        assert parsed.private
        assert parsed.request.target_global_batch == 512
    plain = parse_command("8 64 4 4096")
    assert isinstance(plain, PlanCommand)
    assert not plain.planner


plans = st.builds(
    lambda model, gpus, gpu, batch, seq_len, extra: (
        f"plane {model} gpus={gpus} gpu={gpu} B={batch} L={seq_len} {extra}"
    ),
    st.sampled_from(sorted(MODELS)),
    st.integers(1, 4096),
    st.sampled_from(sorted(GPUS)),
    st.integers(1, 8192),
    st.integers(1, 131_072),
    st.sampled_from(["", "tp=8", "pp=4", "zero=1", "recompute=full", "b=2", "tp=3", "pp=1000", "regeln=megatron"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(plans)
def test_any_plan_gets_a_valid_answer(text: str) -> None:
    """Whatever model, cluster, B and L: a plan, what would fit or a German refusal – valid Block Kit, never a crash;
    every layout answered fits and keeps B."""
    answer = answer_command(text, Visibility.IN_CHANNEL)
    assert answer.kind in (AnswerKind.PLAN, AnswerKind.INPUT_ERROR)
    assert_valid_message(message(answer.document))
    if answer.kind is AnswerKind.PLAN:
        data = json_answer(text)
        jsonschema.validate(data, SCHEMA)
        assert isinstance(data, dict)
        for entry in data["plan"]:
            assert entry["memory"]["fits"]
            assert entry["micro_batch"] * entry["accumulation"] * entry["data_parallel"] == data["global_batch"]


@pytest.mark.parametrize(
    "command",
    [PLAN, "plane llama3.1-70b gpus=64 gpu=h100 B=512 L=8k tp=8", "plane mixtral-8x7b gpus=64 gpu=h100 B=256 L=4k"],
)
def test_each_layout_typed_alone_answers_the_same_memory(command: str) -> None:
    """„Einzeln nachrechnen“: the command a layout shows, typed, answers the memory per GPU and B the plan said."""
    shown = text_of(command).splitlines()
    typed = [(i, line.split(": ", 1)[1]) for i, line in enumerate(shown) if line.startswith("Einzeln nachrechnen: ")]
    assert len(typed) == 3
    for at, again in typed:
        memory = next(line for line in reversed(shown[:at]) if line.startswith("• Speicher je GPU: "))
        total = memory.removeprefix("• Speicher je GPU: ").split(" von ", 1)[0]
        answer = text_of(again.removeprefix("effbatch "))
        assert f"Summe auf der GPU: {total} von" in answer
        batch = next(line for line in reversed(shown[:at]) if line.startswith("B = b · d · a = "))
        assert f"= {batch.rsplit(' = ', 1)[1]} Sequenzen" in answer


def test_a_small_part_of_a_step_is_never_shown_as_zero_seconds() -> None:
    """A part of a few milliseconds (the optimizer step of an 8B model) keeps its digits instead of „0 s“."""
    shown = text_of("plane llama3.1-8b gpus=64 gpu=h100 B=1024 L=8192")
    assert "Optimiererschritt 0,0" in shown
    assert "Optimiererschritt 0\u00a0s" not in shown


def test_a_plan_on_tpus_says_chips_never_gpus() -> None:
    """A TPU's plan counts chips, their memory, runtime and chip-hours in every line, as the memory answer does."""
    shown = text_of("plane llama3.1-8b gpus=256 gpu=tpu-v5e B=512 L=4096 budget=1T")
    for said in ("Chips: 256", "Beschleuniger: TPU v5e", "Speicher je Chip:", "Chip-Stunden", "des Speichers je Chip"):
        assert said in shown
    for gpu_word in ("GPUs", "je GPU", "GPU-Stunden", "GPU-Speicher", "CUDA"):
        assert gpu_word not in shown
