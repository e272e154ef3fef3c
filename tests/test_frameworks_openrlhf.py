"""OpenRLHF: prompts, samples, optimizer steps per rollout and DeepSpeed's accumulation, as OpenRLHF counts them.

Fixtures in ``tests/data/configs/openrlhf/`` follow OpenRLHF's own ``examples/scripts/*.sh`` (each names the one it
follows), in both flag spellings (dotted since ed62d0e, 2026-04-19; flat before). Every number was obtained by running
OpenRLHF's own ``train_ppo_ray.py`` argparse and post-parse asserts (HEAD 3c3be62 and 76351db, ray stubbed) and its
DeepSpeed lines lifted verbatim (deepspeed.py:103-117, 451-456, DeepSpeed's batch assertion, ppo_trainer.py:72-78):
/work/research/openrlhf/fixtures/EXPECTED.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer, check_json, finding_text
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Check, Source, check_config
from effbatch.core.configs.frameworks import openrlhf
from effbatch.core.configs.read import parse

OPENRLHF = Path(__file__).parent / "data" / "configs" / "openrlhf"


def checked(name: str) -> Check:
    return check_config([Source(name, (OPENRLHF / name).read_text())])


def numbers(check: Check) -> tuple[object, ...]:
    """(world, d, b, a, B, P, n, P·n, k, L, token bound) as OpenRLHF uses them."""
    rl = check.rl
    assert rl is not None
    world = check.world.size if check.world else None
    batch = (check.data_parallel, check.micro_batch, check.accumulation, check.global_batch)
    return (world, *batch, rl.prompts, rl.samples, rl.sequences, rl.optimizer_steps, check.seq_len, rl.token_bound)


@pytest.mark.parametrize(
    ("name", "expected", "codes"),
    [
        # examples/scripts/train_dapo_ray_hybrid_engine.sh, dotted flags: 128 prompts × 8, B 128, 8 steps
        ("01_plain_dotted.sh", (8, 8, 8, 2, 128, 128, 8, 1024, 8, 2048, None), set()),
        # the same run with the flat flags before the rename (run against train_ppo_ray.py at 76351db)
        ("02_plain_flat_pre_rename.sh", (8, 8, 8, 2, 128, 128, 8, 1024, 8, 2048, None), set()),
        # 400 samples with train.batch_size 128: the scheduler counts 3 steps (floor), accepted
        (
            "07_silent_rollout_not_multiple_defaults.sh",
            (8, 8, 2, 8, 128, 100, 4, 400, 3, 2048, None),
            {"openrlhf/steps-floored", "openrlhf/defaults"},
        ),
        # ring attention 2 × DeepSpeed TP 2 on 8 GPUs: d = 2, a = 64·2·2 // 4 // 8 = 8, two epochs
        # --ds.packing_samples counts nothing anew: b = 4 samples laid end to end (replay_buffer.py, actor.py:236)
        ("08_model_parallel_ring_tp.sh", (8, 2, 4, 8, 64, 64, 8, 512, 16, 8192, None), {"openrlhf/packing"}),
        # train_prorlv2_math_hybrid_engine.sh: dynamic batch, micro-batches ≤ 32.768 tokens per GPU
        (
            "09_dynamic_batch.sh",
            (8, 8, None, None, 1024, 512, 16, 8192, 8, 9216, 32768),
            {"openrlhf/dynamic-batch", "openrlhf/defaults"},
        ),
    ],
)
def test_openrlhf_numbers_are_openrlhfs_own(name: str, expected: tuple[object, ...], codes: set[str]) -> None:
    """d, b, a, B and P, n, P·n, k per rollout, as OpenRLHF's CLI and DeepSpeed lines compute them."""
    check = checked(name)
    assert check.framework == "openrlhf"
    assert numbers(check) == expected
    assert {f.code for f in check.findings} == codes


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        # argparse of today's train_ppo_ray.py, run on the fixture
        (
            "03_refuse_old_flags_on_new_cli.sh",
            "openrlhf/flag-spellings-mixed",
            "train_ppo_ray.py: error: unrecognized arguments: --micro_train_batch_size 8 --train_batch_size 128"
            " --rollout_batch_size 128 --n_samples_per_prompt 8",
        ),
        # DeepSpeed's batch assertion inside deepspeed.initialize (lifted)
        (
            "04_refuse_deepspeed_batch_assertion.sh",
            "openrlhf/deepspeed-batch-assertion",
            "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu *"
            " gradient_acc_step * world_size 100 != 8 * 1 * 8",
        ),
        # train_ppo_ray.py's post-parse asserts, run on the fixtures
        (
            "05_refuse_sample_batches_lt_processes.sh",
            "openrlhf/sample-batches-below-processes",
            "The number of sample batches must be greater than or equal to the effective number of actor processes.",
        ),
        (
            "06_refuse_group_norm_n1.sh",
            "openrlhf/estimator-needs-samples",
            "group_norm requires n_samples_per_prompt > 1",
        ),
    ],
)
def test_openrlhf_refusals_quote_openrlhf(name: str, code: str, message: str) -> None:
    """Where OpenRLHF (or its DeepSpeed) refuses, there is no batch and no step count; its message verbatim."""
    check = checked(name)
    [finding] = [f for f in check.findings if f.code == code]
    assert finding.message == message
    assert check.global_batch is None
    assert check.rl is not None
    assert check.rl.optimizer_steps is None


def test_the_deepspeed_fix_is_a_flag_in_the_commands_spelling() -> None:
    """100 samples on 8 GPUs with micro 8: 64 or 128 would pass, written as dotted flags."""
    check = checked("04_refuse_deepspeed_batch_assertion.sh")
    [finding] = [f for f in check.findings if f.code == "openrlhf/deepspeed-batch-assertion"]
    assert "`--train.batch_size 64` oder `--train.batch_size 128`" in finding_text(check, finding)


def test_the_answer_and_json_show_the_rollout() -> None:
    """Formulas for P · n, a and k; each value read with its line; ``--json`` has the rl object."""
    check = checked("02_plain_flat_pre_rename.sh")
    shown = plain_text(check_answer(check, Visibility.IN_CHANNEL).document, choices=False)
    assert "P · n = 128 Prompts × 8 Antworten = 1.024 Sequenzen je Rollout" in shown
    assert "s = P · n // train.batch_size · Epochen = 128 × 8 // 128 × 1 = 8" in shown
    assert "--rollout_batch_size = 128 (02_plain_flat_pre_rename.sh:16)" in shown
    assert check_json(check)["rl"] == {
        "prompts_per_rollout": 128,
        "samples_per_prompt": 8,
        "sequences_per_rollout": 1024,
        "optimizer_steps_per_rollout": 8,
    }


def test_openrlhfs_sft_is_not_a_rollout() -> None:
    """``deepspeed --module openrlhf.cli.train_sft`` shares --train_batch_size but has no rollout flags."""
    line = (
        "deepspeed --module openrlhf.cli.train_sft --max_len 2048 --dataset Open-Orca/OpenOrca"
        " --train_batch_size 256 --micro_train_batch_size 2 --pretrain meta-llama/Meta-Llama-3-8B"
    )
    assert not openrlhf.detect(parse(Source("train_sft.sh", line)))


def test_a_command_inside_bash_c_is_read() -> None:
    """examples/scripts/train_ppo_ray_slurm.sh runs OpenRLHF in ``srun … bash -c "…"``: 4 GPUs, a = 128 // 8 // 4."""
    script = (
        'srun --overlap --nodes=1 --ntasks=1 -w "$node_1" bash -c \\\n'
        '"pip install ray[default] \\\n'
        "&& ray job submit --address=http://localhost:8265 \\\n"
        "    -- python3 -m openrlhf.cli.train_ppo_ray \\\n"
        "    --actor.num_nodes 1 \\\n"
        "    --actor.num_gpus_per_node 4 \\\n"
        "    --train.micro_batch_size 8 \\\n"
        "    --train.batch_size 128 \\\n"
        "    --rollout.micro_batch_size 16 \\\n"
        '    --rollout.batch_size 1024" &>> ${JOBLOG}\n'
    )
    check = check_config([Source("train_ppo_ray_slurm.sh", script)])
    # OpenRLHF's own lines on that example (research examples.md): d 4, b 8, a 4, B 128, k 8
    assert numbers(check) == (4, 4, 8, 4, 128, 1024, 1, 1024, 8, 2048, None)
    assert "--train.batch_size = 128 (train_ppo_ray_slurm.sh:8)" in plain_text(
        check_answer(check, Visibility.IN_CHANNEL).document
    )


PACKED = (OPENRLHF / "08_model_parallel_ring_tp.sh").read_text()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # train_ppo_ray.py HEAD 661 ``assert args.vllm.num_engines > 0``: the parser's default None cannot compare
        (("   --vllm.num_engines 2 \\\n", ""), "'>' not supported between instances of 'NoneType' and 'int'"),
        (("--vllm.num_engines 2", "--vllm.num_engines 0"), "Only support `--packing_samples` with vLLM."),
        # ring attention forces packing on (HEAD 642-645), so it needs vLLM as well
        ((" --ds.packing_samples \\\n", ""), None),
    ],
)
def test_packing_needs_vllm_engines(change: tuple[str, str], message: str | None) -> None:
    """Packing, asked for or forced, is asserted to run with vLLM engines."""
    text = PACKED.replace(*change)
    if message is None:  # packing forced by ring attention, engines given: it runs, packed
        check = check_config([Source("run.sh", text)])
        assert "openrlhf/packing" in {f.code for f in check.findings}
        return
    check = check_config([Source("run.sh", text)])
    [finding] = [f for f in check.findings if f.code == "openrlhf/packing-needs-vllm"]
    assert (finding.message, check.global_batch) == (message, None)


def test_a_value_split_by_the_shell_is_refused_by_argparse() -> None:
    """lmm-r1's train_sokoban.sh: ``MODEL_CPK_NAME="ckpt name"`` expanded unquoted gives argparse words no flag takes
    (the vendored train_ppo_ray.py's parser, run: "unrecognized arguments: name name/ckpt name")."""
    text = (Path(__file__).parent / "data/corpus/openrlhf/lmmr1-sokoban-refused/train_sokoban.sh").read_text()
    check = check_config([Source("train_sokoban.sh", text)])
    [finding] = [f for f in check.findings if f.code == "openrlhf/unrecognized-arguments"]
    assert finding.message == "train_ppo_ray.py: error: unrecognized arguments: name name/ckpt name"
    assert check.global_batch is None


@pytest.mark.parametrize(
    "extra",
    [
        " --actor.adam.betas 0.9 0.95 --reward.clip_range -10 10",  # nargs=2 (HEAD 437, 466)
        " --ds.lora.target_modules q_proj k_proj v_proj",  # nargs="*" (HEAD 367)
        " --train.colocate_all --ds.zero_stage 3",  # a switch before a flag
        " $@",  # what the script's caller adds: unknown, never counted
    ],
)
def test_words_a_flag_takes_are_no_stray_words(extra: str) -> None:
    text = (OPENRLHF / "01_plain_dotted.sh").read_text().rstrip() + extra + "\n"
    check = check_config([Source("run.sh", text)])
    assert "openrlhf/unrecognized-arguments" not in {f.code for f in check.findings}
