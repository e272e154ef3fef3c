"""Config checks in the core: each framework's own arithmetic on configs written from its documented format.

Every row names the framework source its rule follows; the fixtures in ``tests/data/configs/`` are
written in the shape of that framework's own examples (each file says which) and are our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check_numbers import shown
from large_configs import large_configs

from effbatch.core.configs import (
    Check,
    CheckError,
    Level,
    ProblemKind,
    Source,
    World,
    check_config,
    clean,
)
from effbatch.core.configs.read import MAX_CONFIG_BYTES

CONFIGS = Path(__file__).parent / "data" / "configs"


def source(name: str) -> Source:
    return Source(name, (CONFIGS / name).read_text())


def checked(names: tuple[str, ...], world: int | None = None, framework: str | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([source(name) for name in names], given, framework)


def pasted(text: str, world: int | None = None, framework: str | None = None) -> Check:
    given = World(world, f"gpus={world}") if world else None
    return check_config([Source("eingefügt", text)], given, framework)


def numbers(check: Check) -> tuple[int | None, ...]:
    """(world, d, b, a, B, L, T) as the framework will use them."""
    world = check.world.size if check.world else None
    return (
        world,
        check.data_parallel,
        check.micro_batch,
        check.accumulation,
        check.global_batch,
        check.seq_len,
        check.tokens_per_step,
    )


def codes(check: Check) -> set[str]:
    return {finding.code for finding in check.findings}


# (files, --world-size, framework detected, (world, d, b, a, B, L, T), findings)
# The DeepSpeed rows were run here through DeepSpeed's own DeepSpeedConfig (deepspeed 0.19.8 on torch 2.13 CPU,
# deepspeed.comm.get_world_size patched to the row's world size): it gives the same b, a and train_batch_size,
# refuses ds_mismatch.json with the quoted assertion and ds_auto.json with a TypeError ("auto" > 0).
FILE_CASES = [
    # deepspeed/runtime/config.py _batch_assertion: 256 == 4 · 8 · 8; the info that DeepSpeed read before
    # torch.distributed starts sees world 1 (DeepSpeed #4703).
    (("ds_consistent.json",), 8, "deepspeed", (8, 8, 4, 8, 256, None, None), {"deepspeed/world-size-before-launch"}),
    # all three given and no world size: the config itself requires 256 / (4 · 8) = 8 GPUs.
    (
        ("ds_consistent.json",),
        None,
        "deepspeed",
        (None, 8, 4, 8, 256, None, None),
        {"deepspeed/required-world-size"},
    ),
    # _set_batch_related_parameters: gradient_accumulation_steps = 256 // 4 // 8 = 8.
    (("ds_filled.json",), 8, "deepspeed", (8, 8, 4, 8, 256, None, None), {"deepspeed/filled-in"}),
    # _batch_assertion refuses 256 != 4 * 1 * 8.
    (("ds_mismatch.json",), 8, "deepspeed", (8, 8, 4, 1, None, None, None), {"deepspeed/batch-assertion"}),
    # DeepSpeedConfig.__init__: world_size //= sequence_parallel_size (Ulysses): 16 / 4 = 4; B = 2 · 4 · 4.
    (
        ("ds_ulysses.json",),
        16,
        "deepspeed",
        (16, 4, 2, 4, 32, None, None),
        {"deepspeed/sequence-parallel", "deepspeed/filled-in-product"},
    ),
    # AutoTP keeps world_size = 8: the 4 ranks of a TP group count as data-parallel (DeepSpeed #6914).
    (
        ("ds_autotp.json",),
        8,
        "deepspeed",
        (8, 8, 2, 4, 64, None, None),
        {"deepspeed/autotp-counted-as-data-parallel", "deepspeed/filled-in-product"},
    ),
    # "auto" is filled only by transformers/integrations/deepspeed.py; DeepSpeed alone refuses it.
    (("ds_auto.json",), 8, "deepspeed", (8, None, None, None, None, None, None), {"deepspeed/auto-without-trainer"}),
    # transformers/trainer.py "Total train batch size" = per_device · gradient_accumulation_steps · world.
    (("hf_args.yaml",), 8, "huggingface", (8, 8, 4, 8, 256, None, None), {"huggingface/total-train-batch-size"}),
    # torchrun --nnodes 2 --nproc_per_node 8 and a DeepSpeed file of "auto" beside it: the Trainer fills
    # 4, 2 and 4 · 2 · 16 = 128 (transformers/integrations/deepspeed.py trainer_config_process).
    (
        ("hf_launch.sh", "ds_auto.json"),
        None,
        "huggingface",
        (16, 16, 4, 2, 128, None, None),
        {"huggingface/total-train-batch-size", "huggingface/deepspeed-auto"},
    ),
    # megatron/training/arguments.py: d = 8 / (2 · 2 · 1) = 2; num_microbatches_calculator: a = 64 / (2 · 2) = 16.
    (("megatron_line.sh",), None, "megatron", (8, 2, 2, 16, 64, 4096, 262144), set()),
    # A launch script in the shape of examples/gpt3/train_gpt3_175b_distributed.sh: ${VAR:-default}, $((…)),
    # arrays, +=, a quoted multi-line string; 4 × 8 GPUs, d = 32 / (4 · 2) = 4, a = 128 / (1 · 4) = 32.
    (
        ("megatron_script.sh",),
        None,
        "megatron",
        (32, 4, 1, 32, 128, 2048, 262144),
        {"megatron/sequence-parallel"},
    ),
    # examples/nlp/language_modeling/conf/megatron_gpt_config.yaml: world 2 × 8, d = 16 / 2 = 8, a = 256 / 16.
    (("nemo.yaml",), None, "nemo", (16, 8, 2, 16, 256, 4096, 1048576), set()),
    # torchtitan/distributed/parallel_dims.py: shard -1 is the rest, 8 / 2 = 4; a = 128 / (8 · 4) = 4.
    (("torchtitan.toml",), 8, "torchtitan", (8, 4, 8, 4, 128, 8192, 1048576), set()),
    # torchtitan's config registry (Python, read with ast): d = 32 / 2 = 16, 2 · 8192 tokens a micro-batch,
    # a = 4Mi / (16.384 · 1 · 16) = 16, B = T / L = 512; the second function is not followed.
    (
        ("config_registry.py",),
        32,
        "torchtitan",
        (32, 16, 2, 16, 512, 8192, 4194304),
        {"torchtitan/first-config-of-registry"},
    ),
    # nanoGPT train.py: gradient_accumulation_steps //= ddp_world_size, 40 / 8 = 5; 12 · 1024 · 40 tokens a step.
    (("train_gpt2.py",), 8, "nanogpt", (8, 8, 12, 5, 480, 1024, 491520), {"nanogpt/accumulation-is-global"}),
    # ... and assert gradient_accumulation_steps % ddp_world_size == 0 fails for 40 on 3 GPUs.
    (("train_gpt2.py",), 3, "nanogpt", (3, 3, 12, None, None, 1024, None), {"nanogpt/accumulation-divisible"}),
    # axolotl/utils/config: batch_size = micro_batch_size · gradient_accumulation_steps, · world = 64.
    (("axolotl.yaml",), 8, "axolotl", (8, 8, 2, 4, 64, 4096, 262144), set()),
    # OLMo scripts/train.py floors 1024 // 24 = 42 a device: B = 1.008; 42 in micro-batches of 4 are ten full ones
    # and one of 2, so there is no whole a to show (b · d · a would not be B). scripts/train.py's two floor
    # divisions and olmo/train.py's split_batch (tensor.split(micro): [4] · 10 + [2]) lifted and run: B 1.008.
    (
        ("olmo.yaml",),
        24,
        "olmo",
        (24, 24, 4, None, 1008, 4096, 4128768),
        {"olmo/floored", "olmo/uneven-microbatches"},
    ),
    # 1024 on 64 GPUs is whole: 16 a device, 4 micro-batches of 4.
    (("olmo.yaml",), 64, "olmo", (64, 64, 4, 4, 1024, 4096, 4194304), set()),
]


@pytest.mark.parametrize(("names", "world", "framework", "expected", "found"), FILE_CASES)
def test_each_framework_computes_what_it_will_really_use(
    names: tuple[str, ...],
    world: int | None,
    framework: str,
    expected: tuple[int | None, ...],
    found: set[str],
) -> None:
    """The framework is detected, its own rule gives the numbers, and exactly the expected findings appear."""
    check = checked(names, world)
    assert check.framework == framework
    assert numbers(check) == expected
    assert codes(check) == found


def test_findings_that_refuse_or_change_the_run_are_errors() -> None:
    """A refused or silently floored run is not ok; a filled-in or noted value is."""
    assert not checked(("ds_mismatch.json",), 8).ok
    assert not checked(("olmo.yaml",), 24).ok
    assert checked(("ds_filled.json",), 8).ok
    levels = {f.code: f.level for f in checked(("ds_autotp.json",), 8).findings}
    assert levels["deepspeed/autotp-counted-as-data-parallel"] is Level.WARNING


def test_deepspeed_assertion_quotes_its_own_message_and_the_fix() -> None:
    """The finding carries DeepSpeed's text and the accumulation that would pass (256 / (4 · 8) = 8)."""
    finding = next(f for f in checked(("ds_mismatch.json",), 8).findings if f.code == "deepspeed/batch-assertion")
    assert finding.message is not None
    assert finding.message.endswith("256 != 4 * 1 * 8")
    assert finding.fix is not None
    assert finding.fix.written() == ('"gradient_accumulation_steps": 8',)


# Megatron-LM rules on launch lines (megatron/training/arguments.py, megatron/core/num_microbatches_calculator.py,
# megatron/core/parallel_state.py): (line, (world, d, b, a, B, L, T), findings).
LAUNCH = "torchrun --nproc-per-node 8 pretrain_gpt.py"
MEGATRON_CASES = [
    # No --global-batch-size: one micro-batch, B = b · d = 2 · 8.
    (f"{LAUNCH} --micro-batch-size 2", (8, 8, 2, 1, 16, None, None), {"megatron/global-batch-size-default"}),
    # 66 is not divisible by 2 · 2: ConstantNumMicroBatchesCalculator refuses it.
    (
        f"{LAUNCH} --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --micro-batch-size 2 "
        "--global-batch-size 66",
        (8, 2, 2, None, None, None, None),
        {"megatron/global-batch-size-divisible"},
    ),
    # TP · PP = 16 does not divide 8 GPUs: "world size (8) is not divisible by total_model_size".
    (
        f"{LAUNCH} --tensor-model-parallel-size 8 --pipeline-model-parallel-size 2 --global-batch-size 64",
        (8, None, 1, None, None, None, None),
        {"megatron/world-size-divisible"},
    ),
    # Context parallelism divides d: 8 / (1 · 1 · 4) = 2.
    (
        f"{LAUNCH} --context-parallel-size 4 --micro-batch-size 1 --global-batch-size 8 --seq-length 8192",
        (8, 2, 1, 4, 8, 8192, 65536),
        set(),
    ),
    # --sequence-parallel rides on TP = 2 and divides nothing: d = 8 / 2 = 4.
    (
        f"{LAUNCH} --tensor-model-parallel-size 2 --sequence-parallel --micro-batch-size 1 --global-batch-size 16",
        (8, 4, 1, 4, 16, None, None),
        {"megatron/sequence-parallel"},
    ),
    # ... and with TP = 1 Megatron switches it off ("Disabling sequence parallelism ...").
    (
        f"{LAUNCH} --sequence-parallel --micro-batch-size 1 --global-batch-size 16",
        (8, 8, 1, 2, 16, None, None),
        {"megatron/sequence-parallel-without-tensor-parallel"},
    ),
    # Expert parallelism does not reduce d, but ETP · EP · PP = 1 · 16 · 1 must divide 8 (parallel_state.py).
    (
        f"{LAUNCH} --expert-model-parallel-size 16 --expert-tensor-parallel-size 1 --global-batch-size 8",
        (8, 8, 1, 1, None, None, None),
        {"megatron/expert-parallel-divisible"},
    ),
    # EP = 8 on 8 GPUs is fine and d stays 8.
    (f"{LAUNCH} --expert-model-parallel-size 8 --global-batch-size 64", (8, 8, 1, 8, 64, None, None), set()),
    # 30 layers on 4 equal stages: ParallelTransformer's "num_layers must be divisible by pipeline_model_parallel_size".
    (
        f"{LAUNCH} --num-layers 30 --pipeline-model-parallel-size 4 --global-batch-size 8",
        (8, 2, 1, 4, None, None, None),
        {"megatron/num-layers-divisible"},
    ),
    # Megatron-DeepSpeed with --deepspeed builds GPTModelPipe: DeepSpeed's PipelineModule balances 30 layers over 4.
    (
        f"{LAUNCH} --num-layers 30 --pipeline-model-parallel-size 4 --global-batch-size 8 --deepspeed "
        "--deepspeed_config ds.json",
        (8, 2, 1, 4, 8, None, None),
        set(),
    ),
    # ... unless its pipeline is switched off (--no-pipeline-parallel: Megatron's own stages again) ...
    (
        f"{LAUNCH} --num-layers 30 --pipeline-model-parallel-size 4 --global-batch-size 8 --deepspeed "
        "--no-pipeline-parallel",
        (8, 2, 1, 4, None, None, None),
        {"megatron/num-layers-divisible"},
    ),
    # ... or a stage would get no transformer layer (2 layers on 4 stages, type:transformer) ...
    (
        f"{LAUNCH} --num-layers 2 --pipeline-model-parallel-size 4 --global-batch-size 8 --deepspeed",
        (8, 2, 1, 4, None, None, None),
        {"megatron/num-layers-divisible"},
    ),
    # ... while type:transformer|embedding also counts both embeddings: 2 + 2 layers fill 4 stages.
    (
        f"{LAUNCH} --num-layers 2 --pipeline-model-parallel-size 4 --global-batch-size 8 --deepspeed "
        "--pp-partition-method 'type:transformer|embedding'",
        (8, 2, 1, 4, 8, None, None),
        set(),
    ),
]


@pytest.mark.parametrize(("line", "expected", "found"), MEGATRON_CASES)
def test_megatron_rules(line: str, expected: tuple[int | None, ...], found: set[str]) -> None:
    """d from TP · PP · CP, micro-batches from the global batch, and Megatron's refusals."""
    check = pasted(line)
    assert check.framework == "megatron"
    assert (numbers(check), codes(check)) == (expected, found)


def test_megatron_rampup_schedule_has_its_phases() -> None:
    """--rampup-batch-size 32 32 7000 to 256: 7 increments of 1.000 samples, then the full batch.

    RampupBatchsizeNumMicroBatchesCalculator: batch = 32 + int(consumed / 1000) · 32 until 7.000 samples; megatron-core
    0.16.1's own calculator, run here over consumed samples 0 … 7.001, changes the batch at exactly these samples.
    """
    check = checked(("megatron_rampup.sh",))
    phases = [(p.start, p.global_batch, p.samples) for p in check.schedule]
    assert phases == [(i * 1000, 32 + 32 * i, 1000) for i in range(7)] + [(7000, 256, None)]
    assert "megatron/rampup-batch-size-deprecated" in codes(check)
    assert check.global_batch == 256


def test_megatron_step_schedule_in_tokens() -> None:
    """--step-batch-size-schedule "0:64 1M:128" at L = 1.024: 128 at 1M / 1024 = 976 samples."""
    check = pasted(
        f'{LAUNCH} --micro-batch-size 2 --seq-length 1024 --step-batch-size-schedule "0:64 1M:128"',
    )
    assert [(p.start, p.global_batch, p.samples) for p in check.schedule] == [(0, 64, 976), (976, 128, None)]
    assert (check.global_batch, check.accumulation) == (128, 8)
    assert codes(check) == set()


@pytest.mark.parametrize(
    ("schedule", "rule"),
    [
        ("100:64 1M:128", "megatron/step-schedule-first-threshold"),  # the first threshold must be 0
        ("0:64 0:128", "megatron/step-schedule-increasing"),  # thresholds strictly increasing
        ("0:64 1M:100", "megatron/phase-divisible"),  # 100 is not divisible by b · d = 16 when reached
    ],
)
def test_megatron_step_schedule_refusals(schedule: str, rule: str) -> None:
    """The schedule's own checks in StepBatchsizeNumMicroBatchesCalculator."""
    check = pasted(f'{LAUNCH} --micro-batch-size 2 --seq-length 1024 --step-batch-size-schedule "{schedule}"')
    assert rule in codes(check)
    assert not check.ok


def test_megatron_step_schedule_with_global_batch_size_is_refused() -> None:
    """Megatron: "Cannot specify both --step-batch-size-schedule and --global-batch-size"."""
    check = pasted(f'{LAUNCH} --global-batch-size 64 --step-batch-size-schedule "0:64 1M:128" --seq-length 1024')
    assert "megatron/step-schedule-with-global-batch-size" in codes(check)
    assert check.global_batch is None  # refused in arguments.py, not answered as the schedule's first phase


def test_megatron_encoder_seq_length_is_the_length_without_seq_length() -> None:
    """T5/BERT-style scripts set only --encoder-seq-length; arguments.py takes it as the sequence length."""
    check = pasted(f"{LAUNCH} --micro-batch-size 2 --global-batch-size 16 --encoder-seq-length 512")
    assert (check.seq_len, check.tokens_per_step) == (512, 8192)


def test_megatron_ramp_up_to_a_huge_batch_is_checked_in_closed_form() -> None:
    """A ramp of 10¹² sequences in steps of 1 is not listed: at most 64 phases, every bad phase counted."""
    check = pasted(f"{LAUNCH} --micro-batch-size 3 --global-batch-size 1000000000000 --rampup-batch-size 1 1 100")
    assert len(check.schedule) == 64
    [phase] = [f for f in check.findings if f.code == "megatron/phase-divisible"]
    # b · d = 3 · 8 = 24 divides one batch in 24 of 1 … 10¹²: 10¹² − ⌊10¹² / 24⌋ batches are refused
    assert phase.context.count == 10**12 - 10**12 // 24
    assert check.global_batch is None


# Where the world size comes from: (launch text, world size). Launchers' own option names:
# torch/distributed/run.py, deepspeed/launcher/runner.py, accelerate/commands/launch.py.
WORLD_CASES = [
    ("torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py --micro-batch-size 1", 16),
    ("torchrun --nnodes=2 --nproc-per-node=4 pretrain_gpt.py --micro-batch-size 1", 8),
    ("torchrun --standalone --nproc-per-node 4 pretrain_gpt.py --micro-batch-size 1", 4),
    ("torchrun --nnodes 1:4 --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 1", 32),  # elastic min:max
    ("python -m torch.distributed.run --nproc_per_node 2 pretrain_gpt.py --micro-batch-size 1", 2),
    ("deepspeed --num_nodes 2 --num_gpus 8 pretrain_gpt.py --micro-batch-size 1", 16),
    ("accelerate launch --num_processes 16 --num_machines 2 pretrain_gpt.py --micro-batch-size 1", 16),
    ("WORLD_SIZE=4\npython pretrain_gpt.py --micro-batch-size 1", 4),
    ("NNODES=2\nGPUS_PER_NODE=4\npython pretrain_gpt.py --micro-batch-size 1", 8),
    # a wrapper in front of the launcher (uv run, nsys profile) and a variable holding the launcher
    ("uv run torchrun --nproc-per-node 2 pretrain_gpt.py --micro-batch-size 1", 2),
    ("LAUNCH='torchrun --nproc-per-node 4'\n$LAUNCH pretrain_gpt.py --micro-batch-size 1", 4),
    # a SLURM batch script (Megatron-LM examples/academic_paper_scripts/sc21/SRUN.sh): nodes × tasks per node,
    # or × the GPUs per node where one task per node (torchrun) starts a process per GPU
    ("#SBATCH -t 0:30:00 --nodes=4 --ntasks-per-node=8\nsrun python pretrain_gpt.py --micro-batch-size 1", 32),
    ("#SBATCH -N 2\n#SBATCH --ntasks-per-node=1 --gres=gpu:8\nsrun python pretrain_gpt.py --micro-batch-size 1", 16),
]


@pytest.mark.parametrize(("text", "world"), WORLD_CASES)
def test_world_size_from_each_launcher(text: str, world: int) -> None:
    """torchrun (both spellings), deepspeed, accelerate, WORLD_SIZE, NNODES × GPUS_PER_NODE."""
    check = pasted(text)
    assert check.world is not None
    assert check.world.size == world


def test_world_size_given_wins_over_the_launcher() -> None:
    """gpus= (or --world-size) is what the user says will run; it overrides the script."""
    assert numbers(pasted("torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 2", world=16))[:2] == (
        16,
        16,
    )


# Shell features of real launch scripts: (script, expected (world, d, b, a, B, L, T)).
SCRIPT_CASES = [
    # Variables with defaults and arithmetic (Megatron-LM examples/*/train_*.sh).
    (
        "GPUS=${GPUS:-8}\nMBS=2\nGBS=$(( MBS * 8 * 4 ))\n"
        "torchrun --nproc-per-node $GPUS pretrain_gpt.py --micro-batch-size ${MBS} --global-batch-size $GBS",
        (8, 8, 2, 4, 64, None, None),
    ),
    # A quoted array expanded element by element, an unquoted string re-split.
    (
        'ARGS=(\n  --micro-batch-size 4\n  "--global-batch-size" 64\n)\nMORE="--seq-length 1024"\n'
        'torchrun --nproc-per-node 4 pretrain_gpt.py "${ARGS[@]}" $MORE',
        (4, 4, 4, 4, 64, 1024, 65536),
    ),
    # Comments, ; and &&, a line continuation, export.
    (
        "export CUDA_DEVICE_MAX_CONNECTIONS=1 # for TP\ncd /work && torchrun --nproc-per-node 2 \\\n"
        "  pretrain_gpt.py --micro-batch-size 1 --global-batch-size 8 ; echo done",
        (2, 2, 1, 4, 8, None, None),
    ),
    # torchrun -m package.module (Megatron-LM examples/inference/*.sh): the module is the program.
    (
        "torchrun --nproc-per-node 4 -m examples.pretrain --micro-batch-size 2 --global-batch-size 32",
        (4, 4, 2, 4, 32, None, None),
    ),
    # A comment line inside the continued command ends it (bash 5.2 runs `--micro-batch-size 4` as a
    # command of its own: "command not found"), so Megatron gets b = 2 and a = 256 / (2 · 8) = 16, not b = 4.
    (
        "torchrun --nproc-per-node 8 pretrain_gpt.py \\\n    --micro-batch-size 2 \\\n    --global-batch-size 256 \\\n"
        "    # --rampup-batch-size 16 16 1000 \\\n    --micro-batch-size 4\n",
        (8, 8, 2, 16, 256, None, None),
    ),
    # A subshell does not change the script's MBS; a loop over literal words runs pass by pass
    # (GBS = 32 · 2 · 2 = 128); ** groups from the right (bash: 2 ** 1 ** 3 = 2).
    (
        "MBS=2\n( MBS=8 )\nGBS=32\nfor n in a b; do GBS=$(( GBS * 2 )); done\nL=$(( 1024 * 2 ** 1 ** 3 ))\n"
        "torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size $MBS --global-batch-size $GBS --seq-length $L",
        (8, 8, 2, 8, 128, 2048, 262144),
    ),
]

# Files that only define the flags, in the shape of Megatron-LM's examples/post_training/modelopt/conf/*.sh
# (a string a launcher sources) and examples/megatron_fsdp/*.sh (an array run later through bash -c).
DEFINED_CASES = [
    ('MODEL_ARGS=" \\\n    --micro-batch-size 2 \\\n    --seq-length 4096 \\\n"\n', (16, 16, 2, 1, 32, 4096, 131072)),
    (
        "MBS=${MBS:-4}\nARGS=(\n  --micro-batch-size ${MBS}\n  --global-batch-size 256\n)\n"
        'CMD="python pretrain_gpt.py ${ARGS[@]}"\nbash -c "${CMD}"\n',
        (16, 16, 4, 4, 256, None, None),
    ),
]


@pytest.mark.parametrize(("script", "expected"), DEFINED_CASES)
def test_flags_defined_but_not_run_in_the_file(script: str, expected: tuple[int | None, ...]) -> None:
    """No command carries the flags: those in the file's arrays and variables are checked."""
    check = pasted(script, world=16)
    assert check.framework == "megatron"
    assert numbers(check) == expected


@pytest.mark.parametrize(("script", "expected"), SCRIPT_CASES)
def test_launch_scripts_are_read_as_bash_would_expand_them(script: str, expected: tuple[int | None, ...]) -> None:
    """Simple assignments, ${VAR:-default}, $((…)), arrays and continuations resolve; nothing runs."""
    assert numbers(pasted(script)) == expected


def test_a_flag_after_a_comment_line_is_not_read() -> None:
    """The user reads the micro-batch bash passes (line 2), and nothing of the line after the comment."""
    script = next(script for script, _ in SCRIPT_CASES if "# --rampup" in script)
    answer = shown(pasted(script))
    assert "• --micro-batch-size = 2 (eingefügt:2)" in answer
    assert "= 4" not in answer


# Formats and rules read from pasted text: (text, world, framework, (world, d, b, a, B, L, T), findings).
PASTED_CASES = [
    # torchtitan's older [training] batch_size is per rank (torchtitan #572): B = 8 · 8.
    (
        "[training]\nbatch_size = 8\nseq_len = 2048\n",
        8,
        "torchtitan",
        (8, 8, 8, 1, 64, 2048, 131072),
        {"torchtitan/batch-size-is-local"},
    ),
    # torchtitan: global 100 is not divisible by local 8 · d 8.
    (
        "[training]\nlocal_batch_size = 8\nglobal_batch_size = 100\nseq_len = 2048\n",
        8,
        "torchtitan",
        (8, 8, 8, None, None, 2048, None),
        {"torchtitan/global-batch-size-divisible"},
    ),
    # torchtitan: explicit degrees whose product is not the world size (ParallelDims._validate).
    (
        "[training]\nlocal_batch_size = 8\nseq_len = 2048\n[parallelism]\ndata_parallel_shard_degree = 4\n"
        "tensor_parallel_degree = 4\n",
        8,
        "torchtitan",
        (8, None, None, None, None, None, None),
        {"torchtitan/parallel-dims"},
    ),
    # NeMo: TP · PP = 8 does not divide 12 GPUs.
    (
        "trainer:\n  devices: 4\n  num_nodes: 3\nmodel:\n  micro_batch_size: 1\n  global_batch_size: 24\n"
        "  tensor_model_parallel_size: 4\n  pipeline_model_parallel_size: 2\n",
        None,
        "nemo",
        (12, None, 1, None, None, None, None),
        {"nemo/world-size-divisible"},
    ),
    # NeMo: global 100 not divisible by micro 2 · d 8.
    (
        "trainer:\n  devices: 8\nmodel:\n  micro_batch_size: 2\n  global_batch_size: 100\n",
        None,
        "nemo",
        (8, 8, 2, None, None, None, None),
        {"nemo/global-batch-size-divisible"},
    ),
    # axolotl at 067b021: the schema (utils/schemas/training.py) fills gradient_accumulation_steps = 1 before
    # normalize_config's `gradient_accumulation_steps or batch_size // micro_batch_size`, so batch_size 32 does not
    # change what trains: B = 4 · 1 · 2 = 8 (check_batch_size_fields, the schema's defaults and normalize_config
    # lifted verbatim and run with these values: b 4, a 1, B 8; with the explicit null below b 4, a 7, B 28).
    (
        "base_model: x\nmicro_batch_size: 4\nbatch_size: 32\nsequence_len: 2048\n",
        2,
        "axolotl",
        (2, 2, 4, 1, 8, 2048, 16384),
        {"axolotl/batch-size-ignored"},
    ),
    # axolotl: only an explicit `gradient_accumulation_steps: null` (pydantic keeps None) reaches the floor:
    # 30 // 4 = 7, so 28 sequences a device train instead of 30.
    (
        "base_model: x\nmicro_batch_size: 4\ngradient_accumulation_steps: null\nbatch_size: 30\nsequence_len: 2048\n",
        1,
        "axolotl",
        (1, 1, 4, 7, 28, 2048, 57344),
        {"axolotl/floored"},
    ),
    # OLMo's keys in JSON (a config dumped by a script) read as its YAML would be.
    (
        '{"global_train_batch_size": 1024, "device_train_microbatch_size": 4}',
        64,
        "olmo",
        (64, 64, 4, 4, 1024, None, None),
        set(),
    ),
    # Hugging Face flags in an accelerate launch line: the world size from --num_processes (the total).
    (
        "accelerate launch --num_processes 4 train.py --per_device_train_batch_size 8 --gradient_accumulation_steps 2",
        None,
        "huggingface",
        (4, 4, 8, 2, 64, None, None),
        {"huggingface/total-train-batch-size"},
    ),
]


@pytest.mark.parametrize(("text", "world", "framework", "expected", "found"), PASTED_CASES)
def test_pasted_configs(
    text: str, world: int | None, framework: str, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """Each format detected from its content and checked by its framework's rule."""
    check = pasted(text, world)
    assert check.framework == framework
    assert (numbers(check), codes(check)) == (expected, found)


def test_torchtitan_explicit_degrees_name_the_one_world_size_that_fits() -> None:
    """shard 4 · TP 4 given: only 16 GPUs make ParallelDims valid (with shard -1, any multiple of the rest)."""
    text = (
        "[training]\nlocal_batch_size = 8\n[parallelism]\ndata_parallel_shard_degree = 4\ntensor_parallel_degree = 4\n"
    )
    [finding] = pasted(text, 8).findings
    assert finding.fix is not None
    assert finding.fix.values == (16,)


def test_trainer_and_a_contradicting_deepspeed_file() -> None:
    """transformers/integrations/deepspeed.py: a DeepSpeed number that differs from the Trainer's is refused."""
    trainer = Source("args.yaml", "per_device_train_batch_size: 4\ngradient_accumulation_steps: 2\n")
    deepspeed = Source("ds.json", '{"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 2}')
    check = check_config([trainer, deepspeed], World(8, "--world-size 8"))
    assert check.framework == "huggingface"
    assert "huggingface/deepspeed-mismatch" in codes(check)
    assert check.global_batch is None  # the Trainer refuses to start
    assert not check.ok


def test_framework_named_overrides_detection() -> None:
    """A DeepSpeed-looking JSON read as Hugging Face arguments when --framework says so."""
    check = pasted('{"per_device_train_batch_size": 2, "gradient_accumulation_steps": 4}', 2, "huggingface")
    assert (check.framework, check.global_batch) == ("huggingface", 16)


def test_slack_escapes_and_code_fences_are_undone() -> None:
    """Slack sends ```…``` and &amp; &lt; &gt;: the launch line inside is read as typed."""
    text = "```cd /w &amp;&amp; torchrun --nproc-per-node 2 pretrain_gpt.py --global-batch-size 4```"
    assert pasted(clean(text)).global_batch == 4


# What cannot be checked: (text, world, kind).
REFUSALS = [
    ("", None, ProblemKind.EMPTY),
    ("hello world, no config here", None, ProblemKind.UNKNOWN_FORMAT),
    ('{"train_batch_size": 256, ', None, ProblemKind.UNREADABLE),  # mangled JSON
    ("a: !!python/object/apply:os.system ['ls']\n", None, ProblemKind.UNSAFE),  # YAML Python tag
    (
        "micro_batch_size: 2\ngradient_accumulation_steps: 4\nsequence_len: 1024\nbase_model: x\n",
        None,
        ProblemKind.WORLD_SIZE_NEEDED,
    ),
    ("torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size $4", None, ProblemKind.BAD_VALUE),
    ('{"train_batch_size": "many"}', 8, ProblemKind.BAD_VALUE),
    ('{"train_batch_size": 0, "train_micro_batch_size_per_gpu": 1}', 8, ProblemKind.BAD_VALUE),
    ("x" * (MAX_CONFIG_BYTES + 1), None, ProblemKind.TOO_LARGE),
]


@pytest.mark.parametrize(("text", "world", "kind"), REFUSALS)
def test_what_cannot_be_checked_says_why(text: str, world: int | None, kind: ProblemKind) -> None:
    """Only CheckError, with the kind the German message is chosen by; nothing is executed."""
    with pytest.raises(CheckError) as raised:
        pasted(text, world)
    assert raised.value.kind is kind


def test_yaml_billion_laughs_is_refused_fast() -> None:
    """Nested aliases that would expand to 10⁹ entries are refused by the alias cap, not expanded."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    with pytest.raises(CheckError) as raised:
        pasted("\n".join(lines) + "\nmicro_batch_size: 1\n")
    assert raised.value.kind in (ProblemKind.UNSAFE, ProblemKind.UNREADABLE)


def test_nanogpt_config_is_read_not_run() -> None:
    """A call in a nanoGPT config is not evaluated: only literals and arithmetic are read."""
    with pytest.raises(CheckError) as raised:
        pasted("batch_size = __import__('os').getpid()\nblock_size = 1024\ngradient_accumulation_steps = 8\n", 8)
    assert raised.value.kind is ProblemKind.BAD_VALUE
    assert raised.value.ctx["value"] == "__import__('os').getpid()"


# Just under the 64 KiB cap (tests/large_configs.py): (name, world, B). How fast is `make bench`'s business.
LARGE_CASES = [("megatron", None, 128), ("olmo", 24, 1008), ("deepspeed", 8, 256), ("torchtitan", 8, 128)]


@pytest.mark.parametrize(("name", "world", "batch"), LARGE_CASES)
def test_configs_near_the_size_cap_are_checked(name: str, world: int | None, batch: int) -> None:
    """Long data lists, arrays and sections do not change the numbers read."""
    given = World(world, "--world-size") if world else None
    assert check_config([large_configs()[name]], given).global_batch == batch


def test_megatron_shape_and_length_give_the_batch_size_laws() -> None:
    """--num-layers 32 --hidden-size 4096 --train-iters 500000 at T = 512 × 4.096: N = 12 · 32 · 4.096² ≈ 6,4 Mrd.,
    D = 500.000 × 2.097.152 ≈ 1,05 Bio. tokens; the laws are core.guidance's (their own tests hold them to the
    papers), here only that the check hands them the numbers it read."""
    from effbatch.core.guidance import shape_guidance

    check = pasted(
        "torchrun --nnodes 4 --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-layers 32 "
        "--hidden-size 4096 --seq-length 4096 --micro-batch-size 1 --global-batch-size 512 --train-iters 500000"
    )
    estimate = check.estimate()
    assert estimate is not None
    assert (estimate.params, estimate.tokens) == (12 * 32 * 4096**2, 500_000 * 512 * 4096)
    assert estimate == shape_guidance(32, 4096, 0, 500_000, 512 * 4096, 4096)
    data = check.as_json(lambda finding: finding.code)
    assert data["guidance"]["step_law_batch_tokens"] == round(estimate.guidance.step_law.batch_tokens)


def test_no_laws_without_the_length() -> None:
    """Without --train-iters or --train-samples there is no D, so no estimate and no guidance in the JSON."""
    check = pasted(f"{LAUNCH} --num-layers 32 --hidden-size 4096 --seq-length 4096 --global-batch-size 64")
    assert check.estimate() is None
    assert "guidance" not in check.as_json(lambda finding: finding.code)


def test_nemo_shape_and_max_steps_give_the_batch_size_laws() -> None:
    """NeMo's megatron_gpt_config.yaml names model.num_layers, model.hidden_size and trainer.max_steps."""
    check = pasted(
        "trainer:\n  devices: 8\n  num_nodes: 2\n  max_steps: 300000\nmodel:\n  micro_batch_size: 2\n"
        "  global_batch_size: 256\n  encoder_seq_length: 2048\n  num_layers: 24\n  hidden_size: 2048\n"
    )
    estimate = check.estimate()
    assert estimate is not None
    assert (estimate.params, estimate.tokens) == (12 * 24 * 2048**2, 300_000 * 256 * 2048)
