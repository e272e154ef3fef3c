"""verl: prompts, responses, mini-batches and optimizer steps per rollout, as verl's workers count them.

Fixtures in ``tests/data/configs/verl/`` follow verl's own ``examples/*/run_*.sh`` (each names the one it follows);
verl does not install without ray, vLLM and CUDA, so every number was obtained by executing verl's deciding lines
lifted verbatim from volcengine/verl b178a3c (fsdp_workers.py:163-262, megatron_workers.py:353-360,
dp_actor.py:541-556, workers/config/actor.py, utils/config.py; /work/research/verl/lifted.py, fixtures/EXPECTED.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.document import Visibility
from bot.rendering.checks import check_answer, check_json, finding_text
from bot.rendering.plain_text import plain_text
from core.configs import Check, CheckError, ProblemKind, Source, World, check_config

VERL = Path(__file__).parent / "data" / "configs" / "verl"


def checked(name: str, world: int | None = None) -> Check:
    given = World(world, "--world-size") if world else None
    return check_config([Source(name, (VERL / name).read_text())], given)


def numbers(check: Check) -> tuple[object, ...]:
    """(world, d, b, a, B, P, n, P·n, k, L, token bound) as verl uses them."""
    rl = check.rl
    assert rl is not None
    world = check.world.size if check.world else None
    batch = (check.data_parallel, check.micro_batch, check.accumulation, check.global_batch)
    return (world, *batch, rl.prompts, rl.samples, rl.sequences, rl.optimizer_steps, check.seq_len, rl.token_bound)


@pytest.mark.parametrize(
    ("name", "expected", "codes"),
    [
        # examples/grpo_trainer/run_qwen2-7b.sh: 1024 prompts × 5, mini 256 prompts = 1.280 sequences, 4 steps
        ("01_plain_grpo.sh", (8, 8, 40, 4, 1280, 1024, 5, 5120, 4, 1536, None), set()),
        # 6 GPUs: mini·n = 100 // 6 = 16 per GPU (fsdp_workers.py:242 //=), B = 96, last mini-batch short
        (
            "06_silent_floor_6gpu.sh",
            (6, 6, 4, 4, 96, 60, 5, 300, 4, 1536, None),
            {"verl/mini-batch-floored", "verl/short-last-mini-batch"},
        ),
        # examples/grpo_trainer/run_qwen2-7b_math_megatron.sh: TP 2 · PP 2 on 8 GPUs, d = 2
        ("07_megatron_tp_pp.sh", (8, 2, 4, 160, 1280, 1024, 5, 5120, 4, 2048, None), set()),
        # Ulysses SP 2 with use_dynamic_bsz: micro-batches ≤ 1.536 · 2 tokens, 2 ppo_epochs
        ("08_ulysses_dynamic_bsz.sh", (16, 8, None, None, 1024, 512, 8, 4096, 8, 1536, 3072), {"verl/dynamic-batch"}),
        # a YAML of ppo_trainer.yaml's shape on 4 × 8 GPUs
        ("11_plain.yaml", (32, 32, 4, 4, 512, 512, 8, 4096, 8, 4096, None), set()),
        # examples/tuning/*: the deprecated global ppo_micro_batch_size 176 // d 4 = 44 per GPU
        ("12_deprecated_global_micro.sh", (8, 4, 44, 5, 880, 176, 5, 880, 1, 1536, None), set()),
    ],
)
def test_verl_numbers_are_verls_own(name: str, expected: tuple[object, ...], codes: set[str]) -> None:
    """d, b, a, B in sequences and P, n, P·n, k per rollout, as verl's lifted lines compute them."""
    check = checked(name)
    assert check.framework == "verl"
    assert numbers(check) == expected
    assert {f.code for f in check.findings} == codes


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        # each message as verl's lifted lines raise it for this fixture (EXPECTED.md)
        (
            "02_refuse_real_train_batch.sh",
            "verl/real-train-batch-divisible",
            "real_train_batch_size (500) must be divisible by minimal possible batch size (16)",
        ),
        (
            "03_refuse_train_lt_mini_default.sh",
            "verl/train-batch-below-mini-batch",
            "train_batch_size (128) must be >= actor.ppo_mini_batch_size (256)",
        ),
        (
            # examples/rollout_correction/*.sh with defaults hit this one
            "04_refuse_normalized_mini_vs_micro.sh",
            "verl/mini-batch-micro-batch-divisible",
            "normalized ppo_mini_batch_size 4 should be divisible by ppo_micro_batch_size_per_gpu 8",
        ),
        (
            "05_refuse_no_micro.sh",
            "verl/micro-batch-missing",
            "[actor] Please set at least one of 'actor.ppo_micro_batch_size' or 'actor.ppo_micro_batch_size_per_gpu'"
            " if use_dynamic_bsz is not enabled.",
        ),
        (
            "09_refuse_dynamic_token_bound.sh",
            "verl/token-bound-below-length",
            "max_token_len must be greater than the sequence length. Got max_token_len=1024 and max_seq_len=1536",
        ),
        (
            "10_refuse_sp_without_remove_padding.sh",
            "verl/sequence-parallel-remove-padding",
            "When using sequence parallelism for actor/ref policy, you must enable `use_remove_padding`.",
        ),
    ],
)
def test_verl_refusals_quote_verl(name: str, code: str, message: str) -> None:
    """Where verl refuses, there is no batch and no step count, and its message is quoted verbatim."""
    check = checked(name)
    [finding] = [f for f in check.findings if f.code == code]
    assert finding.message == message
    assert check.global_batch is None
    assert check.rl is not None
    assert check.rl.optimizer_steps is None


def test_fixes_are_hydra_overrides() -> None:
    """On a ``main_ppo`` line a fix is written ``key=value``: a micro-batch that divides the 4 per GPU."""
    check = checked("04_refuse_normalized_mini_vs_micro.sh")
    [finding] = [f for f in check.findings if f.code == "verl/mini-batch-micro-batch-divisible"]
    assert "`actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4`" in finding_text(check, finding)


def test_the_answer_explains_the_rollout() -> None:
    """Prompts, responses, mini-batch per GPU and steps per rollout, each with its formula; JSON has the rl object."""
    check = checked("01_plain_grpo.sh")
    shown = plain_text(check_answer(check, Visibility.IN_CHANNEL).document, choices=False)
    assert "P · n = 1.024 Prompts × 5 Antworten = 5.120 Sequenzen je Rollout" in shown
    assert "Mini-Batch je GPU = ppo_mini_batch_size · n // d = 256 × 5 // 8 = 160" in shown
    assert "s = ⌈Sequenzen je GPU / Mini-Batch je GPU⌉ · Epochen = ⌈640 / 160⌉ × 1 = 4" in shown
    assert "actor_rollout_ref.actor.ppo_mini_batch_size = 256 (01_plain_grpo.sh:15)" in shown
    assert check_json(check)["rl"] == {
        "prompts_per_rollout": 1024,
        "samples_per_prompt": 5,
        "sequences_per_rollout": 5120,
        "optimizer_steps_per_rollout": 4,
    }


def test_a_script_that_takes_nodes_from_its_environment_uses_the_given_world() -> None:
    """``trainer.nnodes=$NNODES``: the GPU count given from outside, as for any other framework."""
    text = (VERL / "01_plain_grpo.sh").read_text().replace("trainer.nnodes=1", "trainer.nnodes=$NNODES")
    check = check_config([Source("run.sh", text)], World(16, "--world-size 16"))
    assert (check.data_parallel, check.global_batch) == (16, 1280)


def test_verls_sft_trainer_is_not_ppo() -> None:
    """examples/sft/*.sh (``torchrun -m verl.trainer.fsdp_sft_trainer data.train_batch_size=…``) is no rollout."""
    line = (
        "torchrun --standalone --nnodes=1 --nproc_per_node=8 -m verl.trainer.fsdp_sft_trainer"
        " data.train_batch_size=256 data.micro_batch_size_per_gpu=4 model.partial_pretrain=Qwen/Qwen2.5-0.5B"
    )
    with pytest.raises(CheckError) as raised:
        check_config([Source("run_sft.sh", line)])
    assert raised.value.kind is ProblemKind.NOTHING_TO_CHECK
