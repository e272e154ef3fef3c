"""TRL SFT: SFTConfig is TrainingArguments plus ``max_length`` (1024) and ``packing``, so the batch is the Trainer's;
``trl sft`` hands ``num_processes``, ``num_machines`` and ``accelerate_config`` to ``accelerate launch``.

Fixtures in ``tests/data/configs/trl/sft/``: shaped like TRL's own ``examples/cli_configs/example_config.yaml``
(01 is it) and its usage lines (``sft_gpt_oss.sh`` is examples/scripts/sft_gpt_oss.py's, ``trl_sft_line.sh``
trl/scripts/sft.py's, huggingface/trl@f2cd577). Numbers obtained by running trl 1.16.0's own CLI parsing, accelerate
1.16.0's launcher and transformers' ``get_total_train_batch_size`` on them with 8 GPUs on the launching machine,
08/09 on a real SFTTrainer (/work/research/trl/run_trl.py, sft_trainer_check.py, examples.py; results.txt,
examples_out.txt and fixtures/EXPECTED.md there).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.core.configs import Check, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "trl" / "sft"


def checked(names: tuple[str, ...], world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source(name, (CONFIGS / name).read_text()) for name in names], given)


def numbers(check: Check) -> tuple[int | None, ...]:
    """(world, d, b, a, B, L)."""
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


TOTAL = "huggingface/total-train-batch-size"
DEFAULT_LENGTH = "trl/sft-max-length-default"
PACKING = "trl/sft-packing"
ROWS = [
    # EXPECTED.md 01 (= examples/cli_configs/example_config.yaml): no batch keys, 8 a device on 8 GPUs: 64, L 1024.
    (("01_example_config.yaml",), 8, (8, 8, 8, 1, 64, 1024), {TOTAL, DEFAULT_LENGTH}),
    # EXPECTED.md 02: accelerate_config zero3 (trl/accelerate_configs/zero3.yaml: 8 processes), 2 · 8 · 8 = 128.
    (("02_packing_zero3_in_yaml.yaml",), None, (8, 8, 2, 8, 128, 4096), {TOTAL, PACKING, "trl/sft-accelerate-config"}),
    # EXPECTED.md 03: num_processes 16 over num_machines 2 forwarded to accelerate launch: 4 · 16 · 2 = 128.
    (("03_num_processes_in_yaml.yaml",), None, (16, 16, 4, 2, 128, 2048), {TOTAL}),
    # EXPECTED.md 04: split_batches: 32 is the global micro-batch, 4 a process (accelerate's prepare_data_loader),
    # B = 32 while the Trainer reports 256.
    (
        ("04_split_batches.yaml",),
        None,
        (8, 8, 4, 1, 32, 1024),
        {TOTAL, DEFAULT_LENGTH, "accelerate/split-batches", "trl/sft-accelerate-config"},
    ),
    # EXPECTED.md 05: per_device_batch_size is no SFTConfig field; accelerate launch's parser refuses it.
    (("05_typo_key.yaml",), 8, (8, None, None, None, None, None), {"trl/sft-unknown-batch-key"}),
    # EXPECTED.md 06: the accelerate config beside it: dp_replicate 2 × dp_shard 2 (TP 2 excluded), 4 · 4 · 4 = 64.
    (
        ("06_tp_hsdp.yaml", "accel_tp_hsdp.yaml"),
        None,
        (8, 4, 4, 4, 64, 8192),
        {TOTAL, PACKING, "accelerate/model-parallel"},
    ),
    # EXPECTED.md 07: max_length null, no fixed length: 8 · 8 · 4 = 256, no T.
    (("07_no_truncation.yaml",), 8, (8, 8, 8, 4, 256, None), {TOTAL}),
    # EXPECTED.md 08: padding_free without packing while max_length keeps 1024: SFTTrainer refuses.
    (
        ("08_padding_free_refused.yaml",),
        8,
        (8, 8, 8, 1, None, 1024),
        {TOTAL, DEFAULT_LENGTH, "trl/sft-padding-free-without-packing"},
    ),
    # EXPECTED.md 09: packing (bfd) turns padding_free on; 4 · 8 = 32 bins of at most 32 tokens.
    (("09_packing_bfd.yaml",), 8, (8, 8, 4, 1, 32, 32), {TOTAL, PACKING}),
    # examples_out.txt "examples/scripts/sft_gpt_oss.py (zero3 …)": 2 · 8 · 1 = 16, L 4096.
    (("sft_gpt_oss.sh", "deepspeed_zero3.yaml"), None, (8, 8, 2, 1, 16, 4096), {TOTAL, PACKING}),
    # examples_out.txt "trl/scripts/sft.py docstring #1 … as `trl sft` on 8 GPUs": 2 · 8 · 8 = 128, L 1024.
    (("trl_sft_line.sh",), None, (8, 8, 2, 8, 128, 1024), {TOTAL, DEFAULT_LENGTH, PACKING}),
    # example_config.yaml under `accelerate launch … sft.py --config`: the zero3 file's 8 processes, 8 · 8 = 64.
    (
        ("script_line.sh", "deepspeed_zero3.yaml", "01_example_config.yaml"),
        None,
        (8, 8, 8, 1, 64, 1024),
        {TOTAL, DEFAULT_LENGTH},
    ),
    # NOTES.md refusal 2: 02's accelerate_config key, read by TrlParser in sft.py itself: "Unknown arguments …".
    (
        ("script_line.sh", "deepspeed_zero3.yaml", "02_packing_zero3_in_yaml.yaml"),
        None,
        (None, None, None, None, None, None),
        {"trl/sft-unknown-keys-in-script"},
    ),
    # The former negative (clis.md's SFT YAML): 01's defaults with 09's packing: 8 · 8 = 64 bins of 1024 tokens.
    (("10_clis_sft.yaml",), 8, (8, 8, 8, 1, 64, 1024), {TOTAL, PACKING}),
]


@pytest.mark.parametrize(("names", "world", "expected", "found"), ROWS, ids=lambda v: str(v))
def test_trl_sft_as_its_own_code_runs_it(
    names: tuple[str, ...], world: int | None, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """World, d, b, a, B and L as trl 1.16.0 (with accelerate and transformers) computed them, and the findings."""
    check = checked(names, world)
    assert check.framework == "trl"
    assert numbers(check) == expected
    assert {f.code for f in check.findings} == found


def test_a_grpo_config_stays_grpo() -> None:
    """GRPO's keys decide: the same module reads it by GRPO's rule, with its rollout."""
    grpo = "reward_funcs: [accuracy_reward]\nnum_processes: 2\nper_device_train_batch_size: 4\ndataset_name: x\n"
    check = check_config([Source("grpo.yaml", grpo)])
    assert check.framework == "trl"
    assert check.rl is not None


def test_a_llamafactory_yaml_is_not_trl() -> None:
    """LLaMA-Factory writes model_name_or_path too, but its stage and template decide."""
    lf = "model_name_or_path: x\nstage: sft\ntemplate: llama3\ndataset_name: y\nper_device_train_batch_size: 1\n"
    assert check_config([Source("lf.yaml", lf)], World(8, "gpus")).framework == "llamafactory"
