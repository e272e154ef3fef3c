"""accelerate: its config YAML alone (world, d, a; no batch size) and beside TrainingArguments (the world size and d
for the Hugging Face check).

Fixtures in ``tests/data/configs/accelerate/``: shaped like accelerate's own ``examples/config_yaml_templates`` and
``examples/torch_native_parallelism/configs`` (huggingface/accelerate@16cb6eb); their numbers were obtained by
running accelerate 1.16.0's own launcher, ``ParallelismConfig`` and ``prepare_data_loader`` on them
(/work/research/accelerate/run_accel.py, results in its results.txt and fixtures/EXPECTED.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.core.configs import Check, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "accelerate"


def checked(names: tuple[str, ...], world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source(name, (CONFIGS / name).read_text()) for name in names], given)


def numbers(check: Check) -> tuple[int | None, ...]:
    """(world, d, b, a, B, L)."""
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


ROWS = [
    # EXPECTED.md 01 (examples/config_yaml_templates/multi_node.yaml): 4 a node × 2 = 8, d 8; no batch in the YAML.
    (("01_multi_node.yaml",), "accelerate", (8, 8, None, 1, None, None), {"accelerate/loader-batch"}),
    # EXPECTED.md 02: 10 processes over 4 machines, nproc_per_node = 10 // 4 = 2: 8 start (utils/launch.py:217).
    (
        ("02_floor_processes_per_machine.yaml",),
        "accelerate",
        (8, 8, None, 1, None, None),
        {"accelerate/processes-floored", "accelerate/loader-batch"},
    ),
    # EXPECTED.md 05 (examples/torch_native_parallelism/configs/tp_hsdp.yaml): d = 2 · 2 = 4 of 8, TP 2 excluded.
    (
        ("05_tp_hsdp.yaml",),
        "accelerate",
        (8, 4, None, 1, None, None),
        {"accelerate/model-parallel", "accelerate/loader-batch"},
    ),
    # EXPECTED.md 06: total_size 2 · 2 = 4 on 8 processes, refused by _validate_accelerator.
    (
        ("06_parallelism_total_mismatch.yaml",),
        "accelerate",
        (8, None, None, None, None, None),
        {"accelerate/parallelism-total"},
    ),
    # EXPECTED.md 07: dp_replicate 4 × tp 2, dp_shard 1 under FSDP2: refused (1.16.0 parallelism_config.py:376-385).
    (
        ("07_tp_with_pure_ddp.yaml",),
        "accelerate",
        (8, None, None, None, None, None),
        {"accelerate/fsdp-no-shard-dimension"},
    ),
    # EXPECTED.md 08: deepspeed_config.gradient_accumulation_steps 4 becomes a (ACCELERATE_GRADIENT_ACCUMULATION_STEPS).
    (("08_deepspeed_ga.yaml",), "accelerate", (4, 4, None, 4, None, None), {"accelerate/loader-batch"}),
    # EXPECTED.md 09: num_processes -1 is refused at launch (commands/launch.py:1299-1300).
    (
        ("09_num_processes_unset.yaml",),
        "accelerate",
        (None, None, None, None, None, None),
        {"accelerate/num-processes-unset"},
    ),
    # examples.md, single_accelerator.yaml: distributed_type NO, one process (the launcher's simple_launcher).
    (("10_single_accelerator.yaml",), "accelerate", (1, 1, None, 1, None, None), {"accelerate/loader-batch"}),
    # examples.md, slurm/fsdp_config.yaml: num_processes absent is ClusterConfig's -1, refused at launch unless the
    # line passes --num_processes (its SLURM script does): a warning, not an error in someone's pre-commit hook.
    (("11_slurm_fsdp.yaml",), "accelerate", (None, None, None, None, None, None), {"accelerate/num-processes-missing"}),
    # EXPECTED.md 03 with TrainingArguments' accelerator_config: the loader batch 32 is global, 32 // 8 = 4 a process,
    # B = 32 (prepare_data_loader(split_batches=True, num_processes=8) run on a loader of 32); the Trainer logs 256.
    (
        ("split_args.yaml", "03_split_batches.yaml"),
        "huggingface",
        (8, 8, 4, 1, 32, None),
        # accelerator_config is a field from transformers 4.38.0 on, and nothing pins the release: a warning
        {"accelerate/split-batches", "huggingface/total-train-batch-size", "huggingface/argument-by-release"},
    ),
    # EXPECTED.md 04: a loader batch of 30 on 8 processes is refused in split_batches mode.
    (
        ("split_args_refused.yaml", "03_split_batches.yaml"),
        "huggingface",
        (8, None, None, None, None, None),
        {"accelerate/split-batches-divisible", "huggingface/total-train-batch-size", "huggingface/argument-by-release"},
    ),
    # EXPECTED.md 05 beside TrainingArguments: d = 4 from the parallelism_config, B = 2 · 4 · 4 = 32.
    (
        ("hf_args.yaml", "05_tp_hsdp.yaml"),
        "huggingface",
        (8, 4, 2, 4, 32, 4096),
        {"accelerate/model-parallel", "huggingface/total-train-batch-size"},
    ),
    # EXPECTED.md 02 under an `accelerate launch --config_file` line: the floor to 8 processes, B = 4 · 8 · 2 = 64.
    (
        ("launch.sh", "02_floor_processes_per_machine.yaml"),
        "huggingface",
        (8, 8, 4, 2, 64, None),
        {"accelerate/processes-floored", "huggingface/total-train-batch-size"},
    ),
]


@pytest.mark.parametrize(("names", "framework", "expected", "found"), ROWS, ids=lambda v: str(v))
def test_accelerate_as_its_own_code_runs_it(
    names: tuple[str, ...], framework: str, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """World, d, b, a, B and L as accelerate 1.16.0 computed them for the same files, and the findings."""
    check = checked(names)
    assert check.framework == framework
    assert numbers(check) == expected
    assert {f.code for f in check.findings} == found


def test_a_given_world_size_wins_over_the_yaml_and_hides_no_floor() -> None:
    """--world-size 16 is the number of processes; the YAML's 10 over 4 machines is then not what runs."""
    check = checked(("hf_args.yaml", "02_floor_processes_per_machine.yaml"), 16)
    assert numbers(check)[:5] == (16, 16, 2, 4, 128)
    assert "accelerate/processes-floored" not in {f.code for f in check.findings}


def test_the_launch_flag_floors_like_the_yaml() -> None:
    """`accelerate launch --num_processes 10 --num_machines 4 train.py …`: 8 processes, as utils/launch.py starts."""
    line = "accelerate launch --num_processes 10 --num_machines 4 train.py --per_device_train_batch_size 4"
    check = check_config([Source("run.sh", line)])
    assert numbers(check)[:5] == (8, 8, 4, 1, 32)


DS_YAML = (
    "compute_environment: LOCAL_MACHINE\ndeepspeed_config:\n deepspeed_config_file: ./configs/zero2.json\n"
    "distributed_type: DEEPSPEED\nnum_machines: 1\nnum_processes: 2\n"
)
LOOP = (
    "from accelerate import Accelerator\nfrom torch.utils.data import DataLoader\n"
    "loader = DataLoader(data, batch_size=1)\naccelerator = Accelerator()\n"
    "loader = accelerator.prepare(loader)\n"
)


@pytest.mark.parametrize(("accumulation", "expected"), [("64", (2, 2, 1, 64, 128)), ('"auto"', (2, 2, 1, 1, 2))])
def test_a_deepspeed_config_files_accumulation_is_the_runs(accumulation: str, expected: tuple[int, ...]) -> None:
    """``deepspeed_config_file`` naming a JSON with gradient_accumulation_steps 64: accelerate 1.16.0's
    ``_prepare_deepspeed`` (accelerator.py:2170-2196, run here on PTE's files) keeps the file's 64 over the
    Accelerator's 1 and builds train_batch_size 1 · 64 · 2 = 128; "auto" is filled with the Accelerator's 1."""
    json = f'{{"gradient_accumulation_steps": {accumulation}, "train_micro_batch_size_per_gpu": "auto"}}'
    sources = [Source("accelerate.yaml", DS_YAML), Source("zero2.json", json), Source("train.py", LOOP)]
    assert numbers(check_config(sources))[:5] == expected
