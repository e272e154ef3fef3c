"""The calculator's reinforcement-learning shape: ``prompts= n= mini= b= gpus=`` as verl counts a rollout.

P prompts × n responses per rollout; a mini-batch of ``mini`` prompts (verl's ``ppo_mini_batch_size``) is one
optimizer step of B = mini · n sequences, split over b · d (a = mini · n / (b · d)); k = P / mini · epochs steps.
The rows with verl's example numbers were checked against verl's own lines lifted and executed
(/work/research/verl/fixtures/EXPECTED.md, examples.md): the same P, n, mini, micro and GPUs give the same B, a, k.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.rendering.views import home_view
from effbatch.bot.serving.cli import json_answer
from effbatch.core import parse_command, plan
from effbatch.core.errors import InputError, ProblemKind

from slack_checks import all_text, assert_valid_message

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())


def rollout_numbers(text: str) -> tuple[int | None, ...]:
    """(P · n, B, a, k) of a command."""
    command = parse_command(text)
    assert not isinstance(command, tuple)
    result = plan(command.request)  # type: ignore[union-attr]
    outcome = result.outcome
    assert outcome is not None
    assert outcome.rollout is not None
    return (
        outcome.rollout.sequences,
        outcome.global_batch,
        outcome.setup.accumulation,
        outcome.rollout.optimizer_steps,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the example: 512 × 8 = 4.096, B = 128 · 8 = 1.024, a = 1.024 / (4 · 64) = 4, k = 512 / 128 = 4
        ("prompts=512 n=8 mini=128 b=4 gpus=64", (4096, 1024, 4, 4)),
        # verl examples/grpo_trainer/run_qwen2-7b.sh (fixture 01): verl's lines give B 1.280, a 4, k 4
        ("prompts=1024 n=5 mini=256 b=40 gpus=8", (5120, 1280, 4, 4)),
        # verl fixture 11 (4 × 8 GPUs): B 512, a 4, k 8
        ("prompts=512 n=8 mini=64 b=4 gpus=32", (4096, 512, 4, 8)),
        # verl fixture 08 without its dynamic batch: two ppo_epochs double k (verl: 8)
        ("prompts=512 n=8 mini=128 b=16 gpus=8 epochs=2", (4096, 1024, 8, 8)),
        # Megatron TP 2 · PP 2 on 8 GPUs (verl fixture 07): d = 2, a = 1.280 / (4 · 2) = 160
        ("prompts=1024 n=5 mini=256 b=4 gpus=8 tp=2 pp=2", (5120, 1280, 160, 4)),
        # German aliases: antworten, epochen
        ("prompts=512 antworten=8 mini=128 b=4 gpus=64 epochen=1", (4096, 1024, 4, 4)),
    ],
)
def test_a_rollout_is_counted_as_verl_counts_it(text: str, expected: tuple[int, ...]) -> None:
    """P · n, B = mini · n, a = B / (b · d) and k = P / mini · epochs."""
    assert rollout_numbers(text) == expected


@pytest.mark.parametrize(
    ("text", "kind", "shown"),
    [
        # verl refuses train_batch_size < ppo_mini_batch_size (workers/config/actor.py:204)
        ("prompts=100 n=8 mini=128 b=4 gpus=64", ProblemKind.MINI_ABOVE_ROLLOUT, "Passend wäre z. B. `mini=100`"),
        # 500 prompts in mini-batches of 128: the last one short (verl's data.split)
        ("prompts=500 n=8 mini=128 b=4 gpus=64", ProblemKind.MINI_NOT_DIVIDING, "`mini=125` oder `mini=250`"),
        # 128 · 3 = 384 sequences over 4 · 64: verl asserts the mini-batch per GPU divides by the micro-batch
        ("prompts=512 n=3 mini=128 b=4 gpus=64", ProblemKind.ROLLOUT_NOT_DIVISIBLE, "`mini=256`"),
        ("prompts=512 mini=128 b=4 gpus=64", ProblemKind.ROLLOUT_INCOMPLETE, "n (Antworten je Prompt)"),
        # review row 11: mini missing is the rollout's gap, not „a fehlt“
        ("prompts=512 n=8 b=4 gpus=64", ProblemKind.ROLLOUT_INCOMPLETE, "fehlt noch mini (Mini-Batch in Prompts)"),
        ("prompts=512 n=8 mini=128 b=4 gpus=64 B=1024", ProblemKind.ROLLOUT_WITH_TARGET, "B = mini · n"),
        # a given too: b · d · a must be the mini-batch's sequences (verl: gradient_accumulation = mini / micro)
        (
            "prompts=512 n=8 mini=128 b=4 gpus=64 a=2",
            ProblemKind.ROLLOUT_CONFLICT,
            "b · d · a = 4 × 64 × 2 = 512, ein Mini-Batch hat aber mini · n = 128 × 8 = 1.024 Sequenzen",
        ),
    ],
)
def test_bad_combinations_get_a_specific_german_message(text: str, kind: ProblemKind, shown: str) -> None:
    """What was wrong, what fits, as the problem machinery words it (a rollout missing n already in the parser)."""
    with pytest.raises(InputError) as raised:
        plan(parse_command(text).request)  # type: ignore[union-attr]
    assert [p.kind for p in raised.value.problems] == [kind]
    answered = answer_command(text, Visibility.IN_CHANNEL)
    assert answered.kind == "input_error"
    assert shown in all_text(message(answered.document))


def test_the_answer_shows_the_rollout_with_what_if_buttons() -> None:
    """Formulas for P · n, B = mini · n, a and k; buttons n ×2 and mini ×2 carry the whole command."""
    answered = answer_command("prompts=512 n=8 mini=128 b=4 gpus=64", Visibility.IN_CHANNEL)
    payload = message(answered.document)
    assert_valid_message(payload)
    text = all_text(payload)
    assert "`P · n = 512 × 8 = 4.096 Sequenzen` je Rollout" in text
    assert "`B = mini · n = 128 × 8 = 1.024 Sequenzen` je Optimierer-Schritt" in text
    assert "`a = B / (b · d) = 1.024 / (4 · 64) = 4`" in text
    assert "`s = P / mini · Epochen = 512 / 128 × 1 = 4` Optimierer-Schritte je Rollout" in text
    buttons = {c.label: c.value for c in answered.document.choices}
    assert buttons["Antworten ×2"] == "b=4 gpus=64 prompts=512 n=16 mini=128"
    assert buttons["Mini-Batch ×2"] == "b=4 gpus=64 prompts=512 n=8 mini=256"
    assert "Anpassen…" not in buttons  # the form has no fields for a rollout


def test_a_what_if_that_would_not_fit_is_not_offered() -> None:
    """mini = P: doubling it would exceed the rollout, so there is no such button."""
    answered = answer_command("prompts=128 n=8 mini=128 b=4 gpus=64", Visibility.IN_CHANNEL)
    assert "Mini-Batch ×2" not in {c.label for c in answered.document.choices}


def test_a_what_if_click_is_answered_like_typed_text() -> None:
    """The n ×2 button's command: a doubles with B, k stays."""
    assert rollout_numbers("b=4 gpus=64 prompts=512 n=16 mini=128") == (8192, 2048, 8, 4)


def test_json_has_the_same_rl_object() -> None:
    """``effbatch --json``: global_batch = mini · n, accumulation = mini · n / (b · d), and the rl object."""
    data = json_answer("prompts=512 n=8 mini=128 b=4 gpus=64")
    assert isinstance(data, dict)
    jsonschema.validate(data, SCHEMA)
    assert (data["global_batch"], data["accumulation"], data["micro_batch"], data["data_parallel"]) == (1024, 4, 4, 64)
    assert data["rl"] == {
        "prompts_per_rollout": 512,
        "samples_per_prompt": 8,
        "sequences_per_rollout": 4096,
        "optimizer_steps_per_rollout": 4,
    }
    assert "target_global_batch" not in data  # nobody typed B=


def test_help_and_app_home_explain_the_rollout() -> None:
    """``hilfe`` and App Home explain the RL batch; ``hilfe schlüssel`` lists its keys."""
    shown = plain_text(answer_command("hilfe", Visibility.IN_CHANNEL).document)
    assert "Reinforcement Learning: Rollouts" in shown
    assert "s = P / mini · Epochen" in shown
    keys = plain_text(answer_command("hilfe schlüssel", Visibility.IN_CHANNEL).document)
    assert "Mini-Batch in Prompts: mini, mini_batch" in keys
    home = json.dumps(home_view().to_dict(), ensure_ascii=False)
    assert "Reinforcement Learning: Rollouts" in home
    assert "s = P / mini · Epochen" in home


def test_a_comparison_shows_each_rollout() -> None:
    """``… vs n=16``: twice the answers per prompt doubles B and a; k stays 4 in both columns."""
    shown = plain_text(answer_command("prompts=512 n=8 mini=128 b=4 gpus=64 vs n=16", Visibility.IN_CHANNEL).document)
    assert "P = 512, n = 8, mini = 128, s = 4" in shown
    assert "P = 512, n = 16, mini = 128, s = 4" in shown
    assert "k = B₂ / B₁ = 2.048 / 1.024 = 2" in shown


def test_a_rollout_may_give_a_or_solve_for_d() -> None:
    """a given and consistent: no "Ziel erreicht" (nobody typed B=); b and a given: d = 1.024 / (4 · 4) = 64."""
    shown = plain_text(answer_command("prompts=512 n=8 mini=128 b=4 gpus=64 a=4", Visibility.IN_CHANNEL).document)
    assert "Ziel erreicht" not in shown
    assert rollout_numbers("prompts=512 n=8 mini=128 b=4 a=4") == (4096, 1024, 4, 4)
    solved = plain_text(answer_command("prompts=512 n=8 mini=128 b=4 a=4", Visibility.IN_CHANNEL).document)
    assert "d = B / (b · a) = 1.024 / (4 · 4) = 64" in solved
