"""The scaling answer as people read it: the terminal's text chart, the JSON, and the chart's data, from one table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from test_scaling import FakeStep

from effbatch.bot.document import AnswerKind, Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.rendering.scaling import bar, scaling_reply
from effbatch.bot.serving.cli import json_answer
from effbatch.bot.texts import scaling as texts
from effbatch.core import parse_command
from effbatch.core.scaling_command import ScalingCommand

COMMAND = "llama3.1-8b b=2 gpus=8 B=32 L=4k gpu=h100 budget=1T skalierung"


def _reply(text: str = COMMAND, exposed: float = 0.0):  # type: ignore[no-untyped-def]
    command = parse_command(text)
    assert isinstance(command, ScalingCommand)
    return scaling_reply(command.request, Visibility.IN_CHANNEL, FakeStep(rate=1e4, exposed=exposed))


@pytest.mark.parametrize(
    ("share", "shown"),
    [
        (1.0, "██████████"),
        (0.5, "█████     "),
        (0.05, "▌         "),  # half a cell: four eighths
        (0.0, "          "),
        (1.3, "██████████"),  # never past the full width
    ],
)
def test_an_efficiency_bar_is_ten_cells_in_eighths(share: float, shown: str) -> None:
    """The text chart's bar: ten cells for 100 %, drawn in eighths of a cell, always ten characters wide."""
    assert bar(share) == shown


def test_the_terminal_shows_a_row_for_each_d_with_the_setup_and_the_stop_marked() -> None:
    """One chart line per row, the set-up and the first doubling that does not pay marked, the stop said above."""
    reply = _reply(exposed=0.5)
    text = plain_text(reply.answer.document)
    lines = [line for line in text.splitlines() if line.lstrip().startswith("GPUs") or line.rstrip().endswith("%")]
    rows = [line for line in text.splitlines() if "█" in line or line.rstrip().endswith(texts.SETUP_MARK)]
    assert reply.answer.kind is AnswerKind.SCALING
    assert len(rows) == len(reply.chart.x)
    assert texts.SETUP_MARK in text
    assert texts.STOP_MARK in text
    assert texts.STOP_TITLE.format(devices="GPUs") in text
    assert lines


def test_the_answer_says_what_was_held_and_where_the_batch_grows() -> None:
    """With B given: b and B held, a shrinking, and from which GPU count B grows (a = 1), said in the notes."""
    text = plain_text(_reply().answer.document)
    assert "B = 32 Sequenzen" in text
    grown = texts.HELD_NOTE_GROWS.format(gpus="32", devices="GPUs")
    assert grown.strip() in text  # b · d = 2 · 32 = 64 > B: a = 1, B grown
    assert "Angenommen" not in text  # the fake predictor assumes nothing, so nothing is said to be assumed


def test_a_tpu_scales_in_chips_and_says_each_assumed_number() -> None:
    """A TPU's devices are chips: no „GPU“ anywhere in its answer; the matrix products' share of the peak and the
    network it assumed are said with their numbers (TPU v5p: 4.800 Gbit/s between hosts, its reference pod)."""
    request = parse_command("llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=tpu-v5p skalierung")
    assert isinstance(request, ScalingCommand)
    text = plain_text(scaling_reply(request.request, Visibility.IN_CHANNEL).answer.document)
    assert "GPU" not in text
    assert "Euer Aufbau: d = 64, 64 Chips" in text
    assert "Angenommen: 4.800 Gbit/s je Chip zwischen den Knoten" in text
    assert "Angenommen: Die Matrixprodukte erreichen " in text


def test_without_a_target_the_accumulation_is_held_and_said() -> None:
    """Without B the answer says a is held and B grows, and marks the grown rows."""
    text = plain_text(_reply("llama3.1-8b 2 8 4 4096 gpu=h100 skalierung").answer.document)
    assert "a = 4 gehalten" in text
    assert f"128{texts.GROWN_MARK}" in text


def test_slack_without_the_table_drops_only_the_text_chart() -> None:
    """Where the picture follows in the thread, the answer is the same without its text chart."""
    reply = _reply()
    kept = [p for p in reply.answer.document.parts if p not in reply.without_table.parts]
    assert len(kept) == 1
    assert getattr(kept[0], "title", "") == texts.TABLE_TITLE


def test_the_chart_has_the_rows_data_and_its_marks() -> None:
    """The picture's data: a value per row for throughput, the linear ideal and efficiency; the set-up marked."""
    chart = _reply(exposed=0.5).chart
    assert all(len(series.values) == len(chart.x) for series in (*chart.left, chart.right))
    assert (8, texts.CHART_SETUP) in chart.marks
    assert chart.right.values[0] == pytest.approx(1.0)


def test_the_cli_json_carries_scaling_rows() -> None:
    """``effbatch --json … skalierung``: ``scaling[]`` with the contract's keys, whatever the time model says."""
    data = json_answer(COMMAND)
    assert isinstance(data, dict)
    keys = {"gpus", "step_seconds", "tokens_per_second", "efficiency", "bound_by"}
    assert all(keys <= set(row) for row in data["scaling"])
    assert data["scaling_held"] == "global_batch"


def test_the_terminal_answer_and_the_calculator_never_import_matplotlib() -> None:
    """Only drawing the chart loads matplotlib: the calculator, the scaling answer's text and the bot's start do not."""
    code = (
        "import sys;"
        "from effbatch.bot.rendering.answers import answer_command;"
        "from effbatch.bot.document import Visibility;"
        f"answer_command({COMMAND!r}, Visibility.IN_CHANNEL);"
        "import effbatch.bot.slack.app, effbatch.bot.serving.entry;"
        "print('matplotlib' in sys.modules)"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert found.stdout.strip() == "False"


def test_a_scaling_question_missing_a_key_is_answered_with_what_is_missing() -> None:
    """Without L the answer is the German problem naming `L=`, as every incomplete question is."""
    answer = answer_command("llama3.1-8b b=2 gpus=8 gpu=h100 skalierung", Visibility.IN_CHANNEL)
    assert answer.kind is AnswerKind.INPUT_ERROR
    assert "fehlt noch L=" in plain_text(answer.document)


@pytest.mark.parametrize(
    ("text", "brief"),
    [
        ("llama3.1-8b b=2 gpus=64 B=512 L=8k gpu=h100", True),  # a time answer: the short scaling section
        ("llama3.1-8b b=2 gpus=64 B=512 L=8k", False),  # no GPU: no time, no scaling
        ("8 64 4 4096", False),  # the plain calculator
    ],
)
def test_a_time_answer_has_a_short_scaling_section_with_the_command_for_the_table(text: str, brief: bool) -> None:
    """Where an answer has a time, a short section says where more GPUs stop paying and how to ask for the table,
    and that command answers with the table."""
    shown = plain_text(answer_command(text, Visibility.IN_CHANNEL, command="effbatch").document)
    assert (f"\n{texts.BRIEF_TITLE}\n" in shown) is brief
    if brief:
        asked = next(line for line in shown.splitlines() if line.startswith("Durchsatz und Effizienz für"))
        typed = asked.split("effbatch ", 1)[1]
        assert answer_command(typed, Visibility.IN_CHANNEL).kind is AnswerKind.SCALING


@pytest.mark.parametrize(
    "text",
    [
        COMMAND,
        "2 8 4 4096 params=7B gpu=a100-80 scaling",  # no budget: no critical batch; params= instead of a model
    ],
)
def test_the_scaling_json_follows_the_schema(text: str) -> None:
    """``effbatch --json … skalierung`` is one of the shapes schema/effbatch.schema.json describes."""
    schema = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())
    jsonschema.validate(json_answer(text), schema)


def test_past_the_critical_batch_the_tokens_per_step_are_named_t() -> None:
    """The stop at the critical batch names the tokens per step T = B · L, never B (which counts sequences)."""
    text = "b=2 a=8 L=8192 gpus=8 budget=30M modell=llama3.1-8b gpu=h100 zero=1 skalierung"
    shown = plain_text(answer_command(text, Visibility.IN_CHANNEL).document).replace("\u00a0", " ")
    assert "Ab 16 GPUs (d = 16) wächst T = B · L auf 2,1 Mio. Tokens je Schritt" in shown
    assert "wächst B auf" not in shown
