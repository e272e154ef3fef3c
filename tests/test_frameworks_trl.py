"""TRL GRPO: the generation batch, prompts per generation and optimizer steps per generation batch, as TRL counts.

Fixtures in ``tests/data/configs/trl/`` follow the YAML of TRL's docs/source/clis.md ("GRPO", read by ``trl grpo
--config``); every number was obtained by running TRL's own ``GRPOConfig.__post_init__`` (trl 1.16.0, whose batch
block is identical to huggingface/trl f2cd577 grpo_config.py:1075-1120) with the world size set to the config's
``num_processes`` (/work/research/trl_grpo/fixtures/EXPECTED.md, results.jsonl).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer, check_json, finding_text, problem_text
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World, check_config
from effbatch.core.configs.frameworks import trl
from effbatch.core.configs.read import parse

TRL = Path(__file__).parent / "data" / "configs" / "trl"


def checked(name: str, world: int | None = None, versions: dict[str, str] | None = None) -> Check:
    given = World(world, "--world-size") if world else None
    return check_config([Source(name, (TRL / name).read_text())], given, versions=versions)


#: The release the fixtures' messages were raised by (a rule of some releases only decides with a pin).
TRL_1_16 = {"trl": "==1.16.0"}


def numbers(check: Check) -> tuple[object, ...]:
    """(world, d, b, a, B, P, n, P·n, k) as TRL uses them."""
    rl = check.rl
    assert rl is not None
    world = check.world.size if check.world else None
    batch = (check.data_parallel, check.micro_batch, check.accumulation, check.global_batch)
    return (world, *batch, rl.prompts, rl.samples, rl.sequences, rl.optimizer_steps)


@pytest.mark.parametrize(
    ("name", "world", "expected", "codes"),
    [
        # clis.md GRPO YAML on 8 processes: G = 8·8·4 = 256 completions, 32 prompts × 8, one optimizer step
        ("01_plain_8gpu.yaml", None, (8, 8, 8, 4, 256, 32, 8, 256, 1), set()),
        # nothing batch-related set, one process: TRL's defaults give one prompt × 8 completions (TRL run: world 1)
        ("05_defaults_only.yaml", 1, (1, 1, 8, 1, 8, 1, 8, 8, 1), {"trl/defaults"}),
        # steps_per_generation 4, GA 2, num_iterations 2: k = 4·2/2 = 4 (TRL run: 4)
        ("06_steps_per_generation_iterations.yaml", None, (8, 8, 4, 2, 64, 8, 16, 128, 4), set()),
        # steps_per_generation 3 with GA 2: TRL accepts, k = 1.5 (TRL run: 1.5, no warning)
        ("10_silent_fractional_k.yaml", None, (4, 4, 8, 2, 64, 12, 8, 96, 1.5), {"trl/steps-straddle-generations"}),
        # GRPOConfig(...) in Python with ParallelismConfig(tp_size=2) on 8 processes: GRPOConfig counts all 8
        # (TRL run: G = 4 · 8 · 2 = 64); the Trainer would divide by TP, which the pitfall says
        ("11_model_parallel_tp.py", 8, (8, 8, 4, 2, 64, 8, 8, 64, 1), {"trl/tensor-parallel-counted"}),
    ],
)
def test_grpo_numbers_are_trls_own(name: str, world: int | None, expected: tuple[object, ...], codes: set[str]) -> None:
    """b, d, a, B in completions and P, n, P·n, k per generation batch, as TRL computes them."""
    check = checked(name, world)
    assert check.framework == "trl"
    assert numbers(check) == expected
    assert {f.code for f in check.findings} - {"trl/counts-completions", "trl/counted-prompts-before-0-15"} == codes


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        # each message as TRL 1.16.0 raised it for this fixture (results.jsonl)
        (
            "02_refuse_not_divisible_by_num_generations.yaml",
            "trl/generation-batch-divisible",
            "generation_batch_size (6) must be divisible by num_generations (8).",
        ),
        (
            "03_refuse_generation_batch_not_multiple.yaml",
            "trl/generation-batch-multiple",
            "generation_batch_size (100) must be divisible by the global batch size (32).",
        ),
        (
            "04_refuse_both_generation_keys.yaml",
            "trl/generation-keys-both",
            "'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time",
        ),
        (
            "07_removed_max_prompt_length.yaml",
            "trl/max-prompt-length-removed",
            "Accelerate launch command: error: unrecognized arguments: --max_prompt_length",
        ),
        (
            "09_model_parallel_cp.py",
            "trl/sequence-parallel",
            "GRPOTrainer does not support sequence-dim parallelism (`parallelism_config.cp_size > 1` or"
            " `parallelism_config.sp_size > 1`) yet. GRPO builds model inputs after generation inside the trainer, so"
            " Transformers' context-parallel / Ulysses sequence-parallel input sharding cannot be applied to the raw"
            " generation batch. Set both `cp_size=1` and `sp_size=1`, or disable `parallelism_config`.",
        ),
        (
            "08_refuse_num_generations_1.yaml",
            "trl/one-generation",
            "GRPO requires at least 2 generations per prompt to calculate the advantages. You provided 1, which is"
            " less than the minimum required.",
        ),
    ],
)
def test_grpo_refusals_quote_trl(name: str, code: str, message: str) -> None:
    """Where TRL refuses, there is no batch, no step count, and its message is quoted verbatim."""
    check = checked(name, 8 if name.endswith(".py") else None, TRL_1_16)
    [finding] = [f for f in check.findings if f.code == code]
    assert finding.message == message
    assert check.global_batch is None
    assert check.rl is not None
    assert check.rl.optimizer_steps is None


def test_a_fix_for_num_generations_divides_the_generation_batch() -> None:
    """G = 3·2·1 = 6 with 8 generations: 6 and 3 would divide it; the fix is YAML."""
    check = checked("02_refuse_not_divisible_by_num_generations.yaml")
    [finding] = [f for f in check.findings if f.code == "trl/generation-batch-divisible"]
    assert finding.fix is not None
    assert finding.fix.written() == ("num_generations: 6",)


def test_the_json_has_the_rl_object() -> None:
    """``--json``: the rl object with exactly the issue's keys; a fractional k stays a fraction."""
    data = check_json(checked("10_silent_fractional_k.yaml"))
    assert data["framework"] == "trl"
    assert data["rl"] == {
        "prompts_per_rollout": 12,
        "samples_per_prompt": 8,
        "sequences_per_rollout": 96,
        "optimizer_steps_per_rollout": 1.5,
    }


def test_a_trl_grpo_launch_line_is_read() -> None:
    """``accelerate launch --num_processes 4 … trl grpo --flags``: the flags, the world from accelerate."""
    line = (
        "accelerate launch --num_processes 4 -m trl grpo --model_name_or_path Qwen/Qwen2.5-0.5B"
        " --per_device_train_batch_size 4 --gradient_accumulation_steps 2 --num_generations 4"
    )
    check = check_config([Source("run.sh", line)])
    # GRPOConfig: G = 4·4·2 = 32, P = 8 prompts × 4, k = 1
    assert numbers(check) == (4, 4, 4, 2, 32, 8, 4, 32, 1)


def test_flags_win_over_the_config_file() -> None:
    """``trl grpo --config x.yaml --num_generations 4``: TrlParser takes the flag over the YAML."""
    config = Source("grpo.yaml", (TRL / "01_plain_8gpu.yaml").read_text())
    line = Source("run.sh", "trl grpo --config grpo.yaml --num_generations 16")
    check = check_config([config, line])
    assert check.rl is not None
    assert (check.rl.prompts, check.rl.samples) == (16, 16)


def test_a_trl_sft_config_is_not_grpo() -> None:
    """An SFT YAML (clis.md "SFT": max_length, packing, no generations) is TRL's SFT, by the Trainer's rule."""
    sft = "model_name_or_path: Qwen/Qwen2.5-0.5B\ndataset_name: x\nper_device_train_batch_size: 4\npacking: true\n"
    check = check_config([Source("sft.yaml", sft)], World(8, "gpus"))
    assert (check.framework, check.global_batch) == ("trl", 32)
    assert check.rl is None


def test_the_answer_shows_the_rollout() -> None:
    """The answer names prompts, answers per prompt and optimizer steps per generation batch, with formulas."""
    shown = plain_text(check_answer(checked("01_plain_8gpu.yaml"), Visibility.IN_CHANNEL).document, choices=False)
    assert "P = G / n = 256 / 8 = 32 Prompts je Generierungs-Batch" in shown
    assert "G = b · GPUs · steps_per_generation = 8 × 8 × 4 = 256 Antworten" in shown
    assert "Prompts je Rollout (P): 32\nAntworten je Prompt (n): 8\nSequenzen je Rollout (P · n): 256" in shown
    assert "Optimierer-Schritte je Rollout (s): 1\n" in shown
    assert "num_generations = 8 (01_plain_8gpu.yaml:8)" in shown


def test_a_fractional_step_count_is_shown_in_german() -> None:
    """k = 1,5: a German decimal comma in the answer, a number in JSON."""
    shown = plain_text(check_answer(checked("10_silent_fractional_k.yaml"), Visibility.IN_CHANNEL).document)
    assert "Optimierer-Schritte je Rollout (s): 1,5" in shown


def test_a_grpo_script_run_with_python_is_read() -> None:
    """docs/source/peft_integration.md's line on one process: TRL 1.16.0 refuses G = 2 with 8 generations."""
    line = (
        "python trl/scripts/grpo.py --model_name_or_path Qwen/Qwen2-0.5B --dataset_name trl-lib/math-reasoning"
        " --learning_rate 1.0e-5 --per_device_train_batch_size 2 --use_peft --output_dir Qwen2-0.5B-GRPO-LoRA"
    )
    check = check_config([Source("run.sh", line)], World(1, "python: one process"))
    [finding] = [f for f in check.findings if f.code == "trl/generation-batch-divisible"]
    assert finding.message == "generation_batch_size (2) must be divisible by num_generations (8)."
    assert finding.fix is not None
    assert finding.fix.written() == ("--num_generations 2",)


def test_a_value_the_script_computes_is_named_not_guessed() -> None:
    """examples/scripts/openenv/sudoku.py passes ``args.per_device_batch_size``: known only when it runs."""
    text = (
        "config = GRPOConfig(\n    num_generations=8,\n    per_device_train_batch_size=args.per_device_batch_size,\n)\n"
    )
    with pytest.raises(CheckError) as raised:
        check_config([Source("sudoku.py", text)], World(1, "one process"))
    assert raised.value.kind is ProblemKind.BAD_VALUE
    assert "steht erst beim Start fest" in problem_text(raised.value)
    assert "(sudoku.py:3)" in problem_text(raised.value)


def test_async_grpo_is_not_read_as_grpo() -> None:
    """trl.experimental's AsyncGRPOConfig (examples/scripts/async_grpo.py) has rules of its own."""
    text = "from trl.experimental.async_grpo import AsyncGRPOConfig\nconfig = AsyncGRPOConfig(num_generations=8)\n"
    assert not trl.detect(parse(Source("async_grpo.py", text)))


def test_defaults_that_decide_are_said() -> None:
    """Nothing batch-related set: TRL's defaults per_device 8, accumulation 1, 8 generations are named."""
    check = checked("05_defaults_only.yaml", 1)
    [finding] = [f for f in check.findings if f.code == "trl/defaults"]
    assert finding.context.settings == (
        "`per_device_train_batch_size: 8`, `gradient_accumulation_steps: 1`, `num_generations: 8`"
    )


def test_a_key_removed_later_is_a_warning_without_a_pin_and_nothing_on_an_old_release() -> None:
    """``max_prompt_length`` (removed in TRL 0.28, #4847): refused on 1.16, a warning naming both sides without a
    pin (the batch still said), and no finding at all where the repository pins 0.18 – the open-r1 case."""
    name = "07_removed_max_prompt_length.yaml"
    unpinned = checked(name)
    [finding] = [f for f in unpinned.findings if f.code == "trl/max-prompt-length-removed"]
    assert (finding.level.value, unpinned.ok, unpinned.global_batch is not None) == ("warning", True, True)
    text = finding_text(unpinned, finding)
    assert text.startswith("Betrifft TRL ab `0.28.0`; welche Version läuft, geht aus keiner Datei hervor. ")
    assert text.count("#4847") == 1  # the finding names the change itself
    assert "Mit einer älteren Version läuft es." in text
    old = checked(name, versions={"trl": "==0.18.0"})
    assert "trl/max-prompt-length-removed" not in {f.code for f in old.findings}
    assert old.global_batch == unpinned.global_batch
    pinned_file = check_config(
        [Source(name, (TRL / name).read_text()), Source("requirements.txt", "trl==0.18.0\ntorch>=2.4\n")]
    )
    assert "trl/max-prompt-length-removed" not in {f.code for f in pinned_file.findings}
