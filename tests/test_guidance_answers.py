"""„Einordnung“, `läufe` and `vs <run>` as Slack, the console and the CLI receive them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from effbatch.bot.document import AnswerKind, Document, Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.guidance import shape_parts
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.serving.cli import main
from effbatch.core.guidance import shape_guidance
from effbatch.core.runs import RUNS

from slack_checks import all_text, assert_valid_message

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())


def answer(text: str) -> tuple[AnswerKind, dict[str, Any], str]:
    answered = answer_command(text, Visibility.IN_CHANNEL)
    payload = message(answered.document)
    assert_valid_message(payload)
    return answered.kind, payload, plain_text(answered.document, choices=False)


def test_einordnung_beside_the_worked_example() -> None:
    """7B on 2 T tokens at 8,4 Mio. tokens a step: both laws with their formulas, the ratio, ranges, runs."""
    kind, payload, _ = answer("8 64 4 4096 params=7B budget=2T")
    assert kind == AnswerKind.CALCULATION
    text = all_text(payload)
    assert "*Einordnung*" in text
    # Step Law: 0,58 · (2 · 10¹²)^0,571 ≈ 6,1 Mio.; η = 1,79 · (7 · 10⁹)^−0,713 · (2 · 10¹²)^0,307 ≈ 0,00102.
    assert "B_opt = 0,58 · D^0,571 = 0,58 · 2.000.000.000.000^0,571 ≈ 6,1\u00a0Mio. Tokens" in text
    assert "η_opt = 1,79 · N^−0,713 · D^0,307 ≈ 0,00102" in text
    assert "Step Law zählt N ohne Embedding-Parameter; `params=` ist meist die Gesamtzahl" in text
    # DeepSeek with only N: M ≈ 6 · N = 4,2 · 10¹⁰, C = 8,4 · 10²², B ≈ 9,2 Mio., η ≈ 0,000425 – said to be 6 · N,
    # and what that leaves out: 12 · n · d · l is l / (6 · d) of 72 · n · d², 1/6 to 1/3 at d = 4.096.
    assert "M ≈ 6 · N = 6 × 7.000.000.000 = 4,2 · 10¹⁰ FLOPs je Token" in text
    assert "(nur N bekannt, nicht die Form: 6 · N lässt den Attention-Anteil 12 · n_layer · d_model · l_seq weg" in text
    assert "B_opt 5 bis 10 % zu niedrig" in text
    assert "C = M · D = 4,2 · 10¹⁰ × 2 · 10¹² = 8,4 · 10²² FLOPs" in text
    assert "B_opt = 0,2920 · C^0,3271 ≈ 9,2\u00a0Mio. Tokens" in text
    assert "η_opt = 0,3118 · C^−0,1250 ≈ 0,000425" in text
    assert "das 1,37-Fache der Step-Law-Schätzung" in text
    assert "hier wird es extrapoliert" in text  # 7B beyond Step Law's 1B
    assert "liegt außerhalb – eine Extrapolation" in text  # 8,4e22 beyond DeepSeek's 2e19
    assert "Llama 2 7B: 4,2\u00a0Mio. Tokens je Schritt (1.024 × 4.096), Lernrate 0,0003" in text
    assert "Das sind Schätzungen" in text
    assert "falsch" not in text.replace("nicht falsch", "")


def test_inside_the_fitted_ranges_no_extrapolation() -> None:
    """1B on 100B tokens with 10¹⁷ < C = 6 · 10¹⁹ … : Step Law inside its range, DeepSeek outside (above 2e19)."""
    _, payload, _ = answer("8 64 4 2048 params=100M budget=10G")
    text = all_text(payload)
    assert "das passt hier" in text  # Step Law: 100M on 10B tokens
    assert "C = 6 · 10¹⁸ liegt darin" in text  # 6 · 10⁸ · 10¹⁰ within 1e17-2e19
    assert "Extrapolation" not in text


def test_params_without_budget_asks_for_the_training_length() -> None:
    """params=7B alone: the laws need D as well, and the answer says how to give it."""
    _, payload, _ = answer("8 64 4 4096 params=7B")
    assert "budget=2T" in all_text(payload)
    assert "B_opt" not in all_text(payload)


def test_console_and_cli_say_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    """The one document: the CLI prints the console's text (with effbatch for /effbatch)."""
    _, _, console = answer("8 64 4 4096 params=7B budget=2T")
    assert main(["8", "64", "4", "4096", "params=7B", "budget=2T"]) == 0
    printed = capsys.readouterr().out
    assert "Einordnung" in printed
    assert printed.strip() == console.replace("/effbatch", "effbatch").strip()


def test_runs_listing() -> None:
    """läufe: every run in a section per family, with batch, L, LR and the hint how to compare."""
    kind, payload, _ = answer("läufe")
    assert kind == AnswerKind.RUNS
    text = all_text(payload)
    for run in RUNS:
        assert f"`{run.name}`" in text
    assert "`llama3-405b` Llama 3 405B: 405\u00a0Mrd. Parameter, 15,6\u00a0Bio. Tokens" in text
    assert "4,2\u00a0Mio. → 8,4\u00a0Mio. ab 252\u00a0Mio. Tokens → 16,8\u00a0Mio. ab 2,9\u00a0Bio. Tokens" in text
    assert "linear bis 62,9\u00a0Mio. nach 469\u00a0Mrd. Tokens" in text  # DeepSeek-V3's ramp
    assert "Hochlauf über 100\u00a0Mrd. Tokens (Startwert nicht angegeben)" in text  # Falcon 40B
    assert "vs llama2-7b" in text


@pytest.mark.parametrize("word", ["laeufe", "runs", "Läufe"])
def test_runs_spellings(word: str) -> None:
    """laeufe and runs say the same as läufe."""
    assert answer(word)[0] == AnswerKind.RUNS


def test_runs_filtered_and_none_found() -> None:
    """läufe llama: only Llama; läufe xyz: which families there are, only to the caller."""
    _, payload, _ = answer("läufe llama")
    text = all_text(payload)
    assert "`llama2-70b`" in text
    assert "`gpt3-175b`" not in text
    _, payload, _ = answer("läufe xyz")
    assert payload["response_type"] == "ephemeral"
    assert "Kein veröffentlichter Lauf passt zu „xyz“. Es gibt: GPT-3, DeepMind, Llama, DeepSeek" in all_text(payload)


def test_compare_with_a_published_run() -> None:
    """8 64 4 4096 vs llama2-7b lr=3e-4: k = 0,5, both learning-rate rules, the run's own rate and its source."""
    kind, payload, _ = answer("8 64 4 4096 vs llama2-7b lr=3e-4")
    assert kind == AnswerKind.COMPARISON
    text = all_text(payload)
    assert "Vergleich mit Llama 2 7B: B ×0,5 (2.048 → 1.024)" in text
    assert "k = B₂ / B₁ = 1.024 / 2.048 = 0,5" in text
    assert "0,0003 × 0,5 = 0,00015" in text
    assert "Llama 2 7B trainierte mit einer Spitzen-Lernrate von 0,0003." in text
    assert "Quelle: Touvron et al. 2023 (arXiv 2307.09288), Tabelle 1." in text
    assert "actions" not in [block["type"] for block in payload["blocks"]]  # no what-if buttons on a fixed run


def test_compare_with_a_ramped_run_names_its_schedule() -> None:
    """vs deepseek-v3: k = 7,5 (no warmup warning below 8), tokens per step beside it, its ramp."""
    _, payload, _ = answer("8 64 4 4096 vs deepseek-v3")
    text = all_text(payload)
    assert "k = B₂ / B₁ = 15.360 / 2.048 = 7,5" in text
    assert "Tokens je Schritt: 8.388.608 → 62.914.560 (×7,5)" in text
    assert "12,6\u00a0Mio. → linear bis 62,9\u00a0Mio. nach 469\u00a0Mrd. Tokens" in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 64 4 4096 vs llama9", "(nach `vs`) „llama9“ kenne ich nicht als veröffentlichten Lauf. Meintest du"),
        ("8 64 4 4096 vs llama", "Meintest du `llama2-7b`"),
        ("8 64 4 4096 vs llama2-7b d=3", "Nach einem veröffentlichten Lauf wie „llama2-7b“ nehme ich nur noch `lr=`"),
        (
            "8 64 4 4096 params=sieben",
            "Modellgröße (N): „sieben“ ist keine Zahl. Erwartet: eine Parameterzahl wie `7B`",
        ),
        ("8 64 4 4096 parameter=7,5", "Modellgröße (N)"),
        ("vs llama2-7b", "Nötig sind b, d und a"),
    ],
)
def test_bad_input_is_named(text: str, expected: str) -> None:
    """Each mistake gets a German message that names it, only to the caller."""
    kind, payload, _ = answer(text)
    assert kind == AnswerKind.INPUT_ERROR
    assert payload["response_type"] == "ephemeral"
    assert expected in all_text(payload)


@pytest.mark.parametrize("alias", ["params", "parameter", "modellgröße", "modellgroesse", "n_params"])
def test_params_aliases(alias: str) -> None:
    """params= and its German alias modellgröße= (glossary: Modellgröße) mean N."""
    _, payload, _ = answer(f"8 64 4 4096 {alias}=1,7B budget=11T")
    assert "N = 1,7\u00a0Mrd. Parameter" in all_text(payload)


@pytest.mark.parametrize(
    "args",
    [
        ["--json", "8", "64", "4", "4096", "params=7B", "budget=2T"],
        ["--json", "8", "64", "4", "4096", "params=7B"],
        ["--json", "8", "64", "4", "4096", "vs", "llama2-7b", "lr=3e-4"],
        ["--json", "läufe"],
        ["--json", "läufe", "xyz"],
    ],
    ids=" ".join,
)
def test_json_matches_the_schema(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """--json: guidance, comparisons with a run and the list of runs as schema/effbatch.schema.json documents."""
    assert main(args) == 0
    jsonschema.validate(json.loads(capsys.readouterr().out), SCHEMA)


def test_json_guidance_and_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """--json: the guidance object's numbers; läufe as a list with the last phase's batch."""
    main(["--json", "8", "64", "4", "4096", "params=7B", "budget=2T"])
    found = json.loads(capsys.readouterr().out)["guidance"]
    assert found["step_law_batch_tokens"] == 6_127_963
    assert found["deepseek_batch_tokens"] == 9_202_686
    assert found["ratio"] == pytest.approx(1.369, abs=0.001)
    assert found["runs"] == ["llama2-7b", "deepseek-7b", "olmo2-7b"]
    main(["--json", "läufe", "llama3"])
    assert json.loads(capsys.readouterr().out) == [
        {
            "name": "llama3-405b",
            "params": 405 * 10**9,
            "tokens": 15_600 * 10**9,
            "seq_len": 8192,
            "global_batch_tokens": 16_777_216,
            "lr": 8e-5,
            "source": "Llama Team 2024 (arXiv 2407.21783), Abschnitt 3.4.1",
        }
    ]


def test_schema_refuses_a_guidance_without_its_keys() -> None:
    """The check can fail: a guidance object missing ratio is refused."""
    data = {
        "micro_batch": 8,
        "data_parallel": 64,
        "accumulation": 4,
        "seq_len": 4096,
        "global_batch": 2048,
        "tokens_per_step": 8388608,
        "guidance": {"step_law_batch_tokens": 1, "step_law_lr": 1e-3, "deepseek_batch_tokens": 1, "deepseek_lr": 1e-3},
    }
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_shape_parts_for_config_checks() -> None:
    """What a config check can add: N and D as formulas from the shape read, then the laws (M from the shape)."""
    layers, hidden, steps = 32, 4096, 500_000
    estimate = shape_guidance(layers, hidden, 32_000, steps, 4_194_304, seq_len=4096)
    document = Document(
        title="t", summary="t", visibility=Visibility.IN_CHANNEL, parts=shape_parts(estimate, layers, hidden, steps)
    )
    payload = message(document)
    assert_valid_message(payload)
    text = all_text(payload)
    assert "N ≈ 12 · n_layer · d_model² = 12 × 32 × 4.096² = 6,4\u00a0Mrd. Parameter" in text
    assert "D = Schritte × Tokens je Schritt = 500.000 × 4.194.304 = 2,1\u00a0Bio. Tokens" in text
    # not 6 · N: the shape is known, and the answer says so with its numbers:
    # 72 · 32 · 4.096² + 12 · 32 · 4.096 · 4.096 = 38.654.705.664 + 6.442.450.944 = 45.097.156.608 ≈ 4,5 · 10¹⁰
    assert (
        "M = 72 · n_layer · d_model² + 12 · n_layer · d_model · l_seq = 72 × 32 × 4.096² + 12 × 32 × 4.096 × 4.096 "
        "= 4,5 · 10¹⁰ FLOPs je Token` (aus der Form der Konfiguration, mit dem Attention-Anteil)"
    ) in text
    assert "M ≈ 6 · N" not in text


def test_a_typed_filter_is_quoted_and_escaped() -> None:
    """läufe <!channel>: the filter appears only quoted in the text, escaped – never in the (unescaped) header."""
    _, payload, _ = answer("läufe <!channel>")
    assert payload["blocks"][0]["text"]["text"] == "Veröffentlichte Läufe"
    assert "„&lt;!channel&gt;“" in all_text(payload)
    assert "<!channel>" not in json.dumps(payload)


def test_params_and_budget_alone_answer_the_laws_question() -> None:
    """`params=7B budget=2T L=4096`: no b, d, a needed – the batch range in tokens and in sequences.

    Step Law 0,58 · (2 · 10¹²)^0,571 = 6.127.963 tokens, DeepSeek (M ≈ 6 · N) 9.202.686 tokens; at L = 4.096 that is
    1.496,08 … 2.246,75 sequences, so whole sequences 1.497 to 2.246, and 2.048 = 2¹¹ lies in between.
    """
    kind, payload, printed = answer("params=7B budget=2T L=4096")
    assert kind == AnswerKind.GUIDANCE
    text = all_text(payload)
    assert payload["blocks"][0]["text"]["text"] == "Batch-Größe für 7\u00a0Mrd. Parameter auf 2\u00a0Bio. Tokens"
    assert "6,1\u00a0Mio. bis 9,2\u00a0Mio. Tokens je Optimierer-Schritt" in text
    assert "1.497 bis 2.246 Sequenzen" in text
    assert "B = 2.048 Sequenzen = 8,4\u00a0Mio. Tokens" in text  # the power of two inside the range
    assert "B_opt = 0,58 · D^0,571" in text
    assert "B_opt = 0,2920 · C^0,3271" in text
    assert "Das sind Schätzungen" in text
    assert "Mit der Sequenzlänge (`L=`)" not in text  # L is given
    assert "Es fehlen" not in printed


def test_params_and_budget_without_l_give_tokens_and_ask_for_l() -> None:
    """Without L the range stays in tokens, and the answer says how to get sequences."""
    kind, payload, _ = answer("params=7e9 budget=2e12")
    assert kind == AnswerKind.GUIDANCE
    text = all_text(payload)
    assert "6,1\u00a0Mio. bis 9,2\u00a0Mio. Tokens je Optimierer-Schritt" in text
    assert "Sequenzen" in text
    assert "L=4096" in text


def test_guidance_alone_in_the_terminal_and_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`effbatch params=7B budget=2T`: exit 0 with the same text; `--json` carries the laws and the range."""
    assert main(["params=7B", "budget=2T", "L=4096"]) == 0
    assert "1.497 bis 2.246 Sequenzen" in capsys.readouterr().out
    assert main(["--json", "params=7B", "budget=2T", "L=4096"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(data, SCHEMA)
    assert data["guidance"]["step_law_batch_tokens"] == 6_127_963
    assert data["guidance"]["deepseek_batch_tokens"] == 9_202_686
    assert data["batch_range"] == {"tokens": [6_127_963, 9_202_686], "sequences": [1497, 2246], "seq_len": 4096}


def test_half_a_guidance_question_says_what_is_missing() -> None:
    """`budget=2T` alone: the laws need the model size too – said with the key to type, not „b, d, a fehlen“
    (`params=7B` alone is a memory question)."""
    kind, payload, _ = answer("budget=2T L=4096")
    assert kind == AnswerKind.INPUT_ERROR
    text = all_text(payload)
    assert "es fehlt noch `params=` (Modellgröße)" in text
    assert "Es fehlen noch b" not in text


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("params=7 budget=2T", "`params=7` sind 7 Parameter – meintest du `params=7B`?"),  # review row 13
        ("params=7B budget=2", "`budget=2` sind 2 Tokens – meintest du `budget=2T`?"),
    ],
)
def test_a_tiny_n_or_d_is_questioned(text: str, hint: str) -> None:
    """7 parameters or 2 tokens are typos for 7B and 2T; the answer asks, as it does for an odd b."""
    assert hint in all_text(answer(text)[1])


def test_tiny_values_read_as_numbers_not_powers() -> None:
    """Review row 13: η_opt ≈ 2.670 (with its thousands point), M = 42 (not 4,2 · 10¹)."""
    text = all_text(answer("8 64 4 4096 params=7 budget=2T")[1])
    assert "η_opt = 1,79 · N^−0,713 · D^0,307 ≈ 2.670" in text
    assert "M ≈ 6 · N = 6 × 7 = 42 FLOPs je Token" in text
