"""TRL's RLOO by release, and SFT's ALST/Ulysses refusals.

RLOO numbers: before 0.22 by TRL 0.19.1's RLOOConfig and RLOOTrainer.__init__'s batch lines exec'd verbatim
(/work/scratch/rl/oracle/rloo_old.py); from 0.22 by TRL 0.22.2's RLOOConfig.__post_init__ run with the world size set
(rloo_new.py). ALST: DeepSpeed 0.19.8's UlyssesSPDataLoaderAdapter (ulysses_sp.py:666-671) on TRL's padded collator,
which emits position_ids from TRL 1.11.0 (#6812; the 1.10.0 and 1.11.0 wheels compared), and SFTTrainer's DFT/label
smoothing refusal from 1.15.0 (sft_trainer.py:1174-1187 at 1.16.0; absent in the 1.14.0 wheel).
"""

from __future__ import annotations

import pytest

from effbatch.bot.rendering.checks import finding_text
from effbatch.core.configs import Check, Source, World, check_config

#: An RLOO config with the names of TRL before 0.22 (RLOOConfig/OnPolicyConfig at v0.21.0).
OLD = (
    "rloo_k: 4\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 2\nnum_mini_batches: 2\n"
    "num_ppo_epochs: 2\n"
)
NEW = "num_generations: 4\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 2\n"


def rloo(text: str, world: int, trl: str | None = None) -> Check:
    versions = {"trl": f"=={trl}"} if trl else None
    return check_config([Source("rloo.yaml", text)], World(world, "--world-size"), versions=versions)


def numbers(check: Check) -> tuple[object, ...]:
    """(b, a, B, P, n, k) in completions and prompts, as TRL counts them."""
    rl = check.rl
    assert rl is not None
    return (check.micro_batch, check.accumulation, check.global_batch, rl.prompts, rl.samples, rl.optimizer_steps)


@pytest.mark.parametrize(
    ("text", "world", "trl", "expected"),
    [
        # 0.19.1: local 4·2·2 = 16 a device, 16 / 4 = 4 prompts a device, 32 on 8; B = 4·2·8; k = 2 mini · 2 epochs
        (OLD, 8, "0.19.1", (4, 2, 64, 32, 4, 4)),
        # 0.19.1 defaults on 4: b 8, rloo_k 2, num_ppo_epochs 4: 8 / 2 · 4 = 16 prompts, k = 4
        ("rloo_k: 2\n", 4, "0.19.1", (8, 1, 32, 16, 2, 4)),
        # 0.22.2 maps the old names: num_generations 4, steps_per_generation 2, num_iterations 2: G = 4·8·2 = 64,
        # P = 16, k = 2·2/2 = 2
        (OLD, 8, "0.22.2", (4, 2, 64, 16, 4, 2)),
        # 0.22.2 with the new names: G = 4·8·2 = 64, P = 16, k = 1
        (NEW, 8, "0.22.2", (4, 2, 64, 16, 4, 1)),
    ],
)
def test_rloo_numbers_are_trls_own(text: str, world: int, trl: str, expected: tuple[object, ...]) -> None:
    check = rloo(text, world, trl)
    assert check.framework == "trl"
    assert numbers(check) == expected


@pytest.mark.parametrize(
    ("text", "world", "trl", "code", "message"),
    [
        (
            "rloo_k: 3\nper_device_train_batch_size: 4\n",
            2,
            "0.19.1",
            "trl/rloo-local-batch-multiple",
            "`local_batch_size` must be a multiple of rloo_k, inexact division: 4 / 3 = 1.3333333333333333",
        ),
        (
            "rloo_k: 3\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 2\n",
            8,
            "0.22.2",
            "trl/generation-batch-divisible",
            "generation_batch_size (64) must be divisible by num_generations (3).",
        ),
        # #4301 (0.25.0): the old names are gone; ``trl rloo --config`` hands the key to accelerate, which refuses
        (
            OLD,
            8,
            "1.16.0",
            "trl/rloo-old-name-removed",
            "Accelerate launch command: error: unrecognized arguments: --rloo_k",
        ),
    ],
)
def test_rloo_refuses_as_its_release_does(text: str, world: int, trl: str, code: str, message: str) -> None:
    check = rloo(text, world, trl)
    messages = [f.message for f in check.findings if f.code == code]
    assert message in messages
    assert check.refused


def test_without_a_pin_the_old_names_are_read_as_0_22_to_0_24_did_and_both_sides_said() -> None:
    """Unpinned: the new trainer's numbers with the old names mapped, the removal as a warning, the old numbers in
    a note (P = 32, B = 64, 4 steps before 0.22)."""
    check = rloo(OLD, 8)
    assert numbers(check) == (4, 2, 64, 16, 4, 2)
    assert not check.refused
    [note] = [f for f in check.findings if f.code == "trl/rloo-counted-before-0-22"]
    assert "P = 32 Prompts zu je 4 Antworten, B = 64 Antworten je Optimierer-Schritt, 4 Schritte" in finding_text(
        check, note
    )
    assert all(f.unpinned is not None for f in check.findings if f.code == "trl/rloo-old-name-removed")


def test_rlooconfig_in_a_script_is_rloo() -> None:
    """``RLOOConfig(rloo_k=…)`` in Python: a TypeError from 0.25 (the dataclass has no such field)."""
    script = "from trl import RLOOConfig\nargs = RLOOConfig(per_device_train_batch_size=4, rloo_k=4)\n"
    check = check_config([Source("train.py", script)], World(8, "--world-size"), versions={"trl": "==1.16.0"})
    [finding] = [f for f in check.findings if f.code == "trl/rloo-old-name-removed"]
    assert finding.message == "RLOOConfig.__init__() got an unexpected keyword argument 'rloo_k'"


SFT = "model_name_or_path: Qwen/Qwen2.5-0.5B\ndataset_name: trl-lib/Capybara\nper_device_train_batch_size: 1\n"
#: TRL's examples/accelerate_configs/alst_ulysses_4gpu.yaml (f2cd577): SP 2 × DP shard 2 on 4 processes
ALST = (
    "compute_environment: LOCAL_MACHINE\ndeepspeed_config:\n  zero_stage: 3\ndistributed_type: DEEPSPEED\n"
    "num_machines: 1\nnum_processes: 4\nparallelism_config:\n  parallelism_config_dp_replicate_size: 1\n"
    "  parallelism_config_dp_shard_size: 2\n  parallelism_config_tp_size: 1\n  parallelism_config_sp_size: 2\n"
    "  parallelism_config_sp_backend: deepspeed\n"
)


def alst(sft: str, trl: str | None) -> set[tuple[str, bool]]:
    versions = {"trl": f"=={trl}"} if trl else None
    check = check_config([Source("sft.yaml", sft), Source("alst.yaml", ALST)], versions=versions)
    return {(f.code, f.effect.value == "refused") for f in check.findings if "ulysses" in f.code}


@pytest.mark.parametrize(
    ("extra", "trl", "expected"),
    [
        # the documented run (--packing --packing_strategy wrapped): padded batches, no position_ids before 1.11
        ("packing: true\npacking_strategy: wrapped\n", "1.10.0", {("trl/sft-ulysses-position-ids", True)}),
        ("packing: true\npacking_strategy: wrapped\n", "1.11.0", set()),
        ("packing: true\npacking_strategy: wrapped\n", None, {("trl/sft-ulysses-position-ids", False)}),
        ("packing: true\n", "1.10.0", set()),  # bfd packing is padding-free: position_ids in every batch
        ("padding_free: true\nmax_length: null\n", "1.10.0", set()),
        ("packing: true\nloss_type: dft\n", "1.16.0", {("trl/sft-ulysses-loss", True)}),
        ("packing: true\nlabel_smoothing_factor: 0.1\n", "1.14.0", set()),
    ],
)
def test_alst_ulysses_refusals_by_release(extra: str, trl: str | None, expected: set[tuple[str, bool]]) -> None:
    assert alst(SFT + extra, trl) == expected


def test_ulysses_on_the_accelerate_launch_line() -> None:
    """``accelerate launch --parallelism_config_sp_size 2`` with TRL's sft.py and wrapped packing, on TRL 1.10.0."""
    line = (
        "accelerate launch --num_processes 4 --parallelism_config_sp_size 2 --parallelism_config_dp_shard_size 2"
        " trl/scripts/sft.py --per_device_train_batch_size 1 --packing --packing_strategy wrapped"
    )
    check = check_config([Source("run.sh", line)], versions={"trl": "==1.10.0"})
    assert "trl/sft-ulysses-position-ids" in {f.code for f in check.findings}
