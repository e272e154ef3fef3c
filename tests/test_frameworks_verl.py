"""verl: prompts, responses, mini-batches and optimizer steps per rollout, as verl's workers count them.

Fixtures in ``tests/data/configs/verl/`` follow verl's own ``examples/*/run_*.sh`` (each names the one it follows);
verl does not install without ray, vLLM and CUDA, so every number was obtained by executing verl's deciding lines
lifted verbatim from volcengine/verl b178a3c (fsdp_workers.py:163-262, megatron_workers.py:353-360,
dp_actor.py:541-556, workers/config/actor.py, utils/config.py; /work/research/verl/lifted.py, fixtures/EXPECTED.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer, check_json, finding_text
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World, check_config

VERL = Path(__file__).parent / "data" / "configs" / "verl"


#: verl's release line at b178a3cd (v0.7.0 is its last tag): the rules of today's verl, as a pin selects them.
TODAY = {"verl": "==0.7.0"}


def checked(name: str, world: int | None = None, versions: dict[str, str] | None = None) -> Check:
    given = World(world, "--world-size") if world else None
    return check_config([Source(name, (VERL / name).read_text())], given, versions=versions)


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
        # examples/tuning/*: the deprecated global ppo_micro_batch_size 176 // d 4 = 44 per GPU; with only the global
        # micro-batch (no *_per_gpu key) the release is open: verl 0.1's 176 // 4 · 5 = 220 is said beside it
        (
            "12_deprecated_global_micro.sh",
            (8, 4, 44, 5, 880, 176, 5, 880, 1, 1536, None),
            {"verl/normalised-before-0-2"},
        ),
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
    check = checked(name, versions=TODAY)
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


#: verl 0.1 as a repository that vendors it says: ``--framework-version verl==0.1`` (its verl/version/version).
VERL_0_1 = {"verl": "==0.1"}


@pytest.mark.parametrize(
    ("name", "expected", "codes"),
    [
        # numbers: /work/scratch/corpus-b/oracles/verl_oracle.py on Logic-RL's vendored verl 0.1 (hydra-core 1.3.8;
        # fsdp_workers.py:97-101 and dp_actor.update_policy exec'd verbatim): mini 32 // 4 · 16 = 128, micro
        # 16 // 4 · 16 = 64 per GPU
        ("13_verl01_grpo.sh", (4, 4, 64, 2, 512, 64, 16, 1024, 2, 4496, None), {"verl/normalises-first-before-0-2"}),
        # mini 256 // 4 · 8 = 512 per GPU, but a GPU has 16 · 8 / 4 = 32: one step of the whole rollout, B = 128
        (
            "14_verl01_mini_above_rollout.sh",
            (4, 4, 32, 1, 128, 16, 8, 128, 1, 4496, None),
            {"verl/normalises-first-before-0-2", "verl/mini-batch-above-rollout"},
        ),
    ],
)
def test_verl_0_1_divides_before_it_multiplies(name: str, expected: tuple[object, ...], codes: set[str]) -> None:
    """Pinned to verl 0.1, mini and micro are divided by d before they are multiplied by n; no _validate_config."""
    check = checked(name, versions=VERL_0_1)
    assert numbers(check) == expected
    assert {f.code for f in check.findings} == codes


def test_verl_0_1_takes_a_micro_batch_per_gpu_as_written() -> None:
    """The 0.1 snapshots from #136 on (2025-01-27; the version file read 0.1 until 2025-02-15) know
    ppo_micro_batch_size_per_gpu and use it as written, while the mini-batch is still divided first
    (fsdp_workers.py at 6e003c0b5^, lines 121-128): mini 32 // 4 · 16 = 128, micro 8, a = 16."""
    text = (VERL / "13_verl01_grpo.sh").read_text().replace("ppo_micro_batch_size=16", "ppo_micro_batch_size_per_gpu=8")
    check = check_config([Source("run.sh", text)], versions=VERL_0_1)
    assert numbers(check) == (4, 4, 8, 16, 512, 64, 16, 1024, 2, 4496, None)
    assert not check.refused


def test_a_repositorys_own_entry_point_with_verls_overrides_is_verl() -> None:
    """General-Reasoner's ``ray job submit … -- python -m main_ppo actor_rollout_ref.…=…``: its own copy of main_ppo,
    recognised by verl's Hydra group; the same numbers as verl.trainer.main_ppo. Without that group it is nobody's."""
    text = (VERL / "01_plain_grpo.sh").read_text()
    own = text.replace("python3 -m verl.trainer.main_ppo", "ray job submit --address=head:6379 -- python -m main_ppo")
    assert own != text
    assert numbers(check_config([Source("run.sh", own)])) == numbers(check_config([Source("run.sh", text)]))
    with pytest.raises(CheckError) as raised:
        check_config([Source("run.sh", "python -m main_ppo data.train_batch_size=8 trainer.nnodes=1")])
    assert raised.value.kind is ProblemKind.NOTHING_TO_CHECK


def test_without_a_pin_verl_0_1s_numbers_are_said_beside_todays() -> None:
    """Logic-RL's script without its version: today's order (b = 16 // 4 = 4, a = 32), verl 0.1's in a note."""
    check = checked("13_verl01_grpo.sh")
    assert numbers(check) == (4, 4, 4, 32, 512, 64, 16, 1024, 2, 4496, None)
    [note] = [f for f in check.findings if f.code == "verl/normalised-before-0-2"]
    assert finding_text(check, note).startswith("Vor verl `0.2.0` (#183;")
    assert "ein Micro-Batch je Gerät von 64, B = 512 und 2 Optimierer-Schritte je Rollout" in finding_text(check, note)


def test_a_refusal_of_later_releases_is_a_warning_without_a_pin() -> None:
    """train_batch_size < ppo_mini_batch_size is refused from verl 0.3 on (#559); without a pin it is a warning
    naming both sides, and the batch is the one verl 0.2 trains: one step of the whole rollout."""
    check = checked("03_refuse_train_lt_mini_default.sh")
    [finding] = [f for f in check.findings if f.code == "verl/train-batch-below-mini-batch"]
    assert finding.unpinned is not None
    assert finding_text(check, finding).startswith("Betrifft verl ab `0.3.0`")
    assert (check.global_batch, check.refused) == (512, False)
    assert checked("03_refuse_train_lt_mini_default.sh", versions={"verl": "==0.2"}).global_batch == 512


def test_the_critic_steps_with_its_own_mini_batch() -> None:
    """PPO with GAE: the actor as before, the critic's mini 32 · 4 // 8 = 16 per GPU, 2 epochs: 16 steps a rollout
    (/work/scratch/rl/oracle/verl_head.py: verl b178a3cd's validate_config run, CriticWorker lines exec'd)."""
    check = checked("15_ppo_critic.sh")
    assert numbers(check) == (8, 8, 8, 4, 256, 256, 4, 1024, 4, 1024, None)
    [critic] = [f for f in check.findings if f.code == "verl/critic-batch"]
    assert (critic.context.batch, critic.context.steps, critic.context.per_gpu) == (128, 16, 16)
    assert "B = 128 Sequenzen je Optimierer-Schritt, 16 Optimierer-Schritte je Rollout" in finding_text(check, critic)


@pytest.mark.parametrize(
    ("change", "code", "message"),
    [
        # the oracle: "normalized ppo_mini_batch_size 32 should be divisible by ppo_micro_batch_size_per_gpu 6"
        (
            ("critic.ppo_micro_batch_size_per_gpu=4", "critic.ppo_micro_batch_size_per_gpu=6"),
            "verl/critic-mini-batch-micro-batch-divisible",
            "normalized ppo_mini_batch_size 16 should be divisible by ppo_micro_batch_size_per_gpu 6",
        ),
        # critic.yaml interpolates the global one into *_per_gpu: both set (the oracle's ValueError)
        (
            ("critic.ppo_micro_batch_size_per_gpu=4", "critic.ppo_micro_batch_size=32"),
            "verl/critic-global-micro-batch-refused",
            "[critic] You have set both 'critic.micro_batch_size' AND 'critic.micro_batch_size_per_gpu'. Please"
            " remove 'critic.micro_batch_size' because only '*_micro_batch_size_per_gpu' is supported (the former is"
            " deprecated).",
        ),
        (
            ("critic.ppo_micro_batch_size_per_gpu=4", "critic.ppo_epochs=2"),
            "verl/critic-micro-batch-missing",
            "[critic] Please set at least one of 'critic.micro_batch_size' or 'critic.micro_batch_size_per_gpu'.",
        ),
    ],
)
def test_the_critic_refuses_as_verl_does(change: tuple[str, str], code: str, message: str) -> None:
    text = (VERL / "15_ppo_critic.sh").read_text().replace(*change)
    check = check_config([Source("ppo.sh", text)], versions=TODAY)
    [finding] = [f for f in check.findings if f.code == code]
    assert (finding.message, check.global_batch) == (message, None)


def test_a_grpo_yaml_without_estimator_starts_a_critic() -> None:
    """GAE is verl's default estimator: without ``adv_estimator`` the critic needs its micro-batch (the oracle on
    11_plain.yaml's keys: "[critic] Please set at least one of …")."""
    text = (VERL / "11_plain.yaml").read_text().replace("algorithm:\n  adv_estimator: grpo\n", "")
    check = check_config([Source("ppo.yaml", text)], versions=TODAY)
    assert [f.code for f in check.findings if f.effect.value == "refused"] == ["verl/critic-micro-batch-missing"]


def test_dapo_trains_on_the_prompts_its_filter_keeps() -> None:
    """recipe/dapo: 768 prompts a round, groups with equal rewards dropped until 256 are kept, the batch cut to
    256 · 4 (dapo_ray_trainer.py:237-296 at v0.6.1); the actor's numbers as for 256 prompts (the oracle)."""
    check = checked("16_dapo.sh")
    assert numbers(check) == (8, 8, 8, 4, 256, 256, 4, 1024, 4, 10240, None)
    [dapo] = [f for f in check.findings if f.code == "verl/dapo-generation-rounds"]
    assert (dapo.context.generated, dapo.context.prompts, dapo.context.rounds) == (768, 256, 1)


def test_a_generation_batch_without_the_filter_is_what_trains() -> None:
    """Without the filter the dataloader's batch is data.gen_batch_size (ray_trainer.py:350): 512 prompts · 4, 8 steps
    (the oracle with +data.gen_batch_size=512)."""
    text = (VERL / "16_dapo.sh").read_text().replace("algorithm.filter_groups.enable=True", "").replace(" * 3", " * 2")
    check = check_config([Source("dapo.sh", text)])
    assert numbers(check)[4:9] == (256, 512, 4, 2048, 8)
    assert "verl/gen-batch-without-filter" in {f.code for f in check.findings}


@pytest.mark.parametrize(
    ("given", "code", "refused"),
    [(4, "verl/fewer-gpus-than-written", True), (16, "verl/more-gpus-than-written", False)],
)
def test_nodes_given_from_outside_are_held_against_the_script(given: int, code: str, refused: bool) -> None:
    """verl asks Ray for trainer.nnodes · n_gpus_per_node GPUs: fewer is refused ("Total available GPUs 4 is less
    than total desired GPUs 8", single_controller/ray/base.py:205-221), more leaves the rest idle; it trains on 8."""
    check = checked("01_plain_grpo.sh", world=given)
    assert {f.code for f in check.findings} == {code}
    assert (check.refused, check.world.size if check.world else None) == (refused, 8)
    if refused:
        assert check.findings[0].message == "Total available GPUs 4 is less than total desired GPUs 8"
    else:
        assert check.global_batch == 1280
