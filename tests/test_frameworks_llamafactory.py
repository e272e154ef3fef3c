"""LLaMA-Factory: its three paths, chosen by the environment of ``llamafactory-cli train`` (the Hugging Face
Trainer, ``USE_MEGATRON_BRIDGE=1``, ``USE_V1=1``), and ``cutoff_len`` as the sequence length.

Fixtures in ``tests/data/configs/llamafactory/``: YAMLs shaped like LLaMA-Factory's own ``examples/train_lora``,
``examples/megatron_bridge`` and ``examples/v1`` (hiyouga/LLaMA-Factory@ff6d4d1; 05 is llama3_sft.yaml itself),
launch lines as its README writes them. Numbers obtained by running llamafactory 0.9.5's ``get_train_args`` and
transformers' ``get_total_train_batch_size`` on them, and for the Megatron-Bridge and v1 paths (not in 0.9.5) their
lines lifted verbatim from ff6d4d1 and executed (/work/research/llamafactory/run_lf.py and lifted.py; results.txt and
fixtures/EXPECTED.md there).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.core.configs import Check, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "llamafactory"


def checked(names: tuple[str, ...], world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source(name, (CONFIGS / name).read_text()) for name in names], given)


def numbers(check: Check) -> tuple[int | None, ...]:
    """(world, d, b, a, B, L)."""
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


TOTAL = "huggingface/total-train-batch-size"
PACKED = "llamafactory/packing-cutoff"
#: No file pins LLaMA-Factory: trust_remote_code (a field from 0.9.2), overwrite_output_dir (LLaMA-Factory's own from
#: 0.9.4, transformers' before 5.0.0) and neat_packing (from 0.8.3) are refused by some releases (the tables of
#: core/configs/frameworks/_shared/fields_llamafactory.json).
BY_RELEASE = "llamafactory/key-by-release"
ROWS = [
    # EXPECTED.md 01 (examples/train_lora/qwen3_lora_sft.yaml): NNODES 2 × NPROC_PER_NODE 8, B = 1 · 8 · 16 = 128.
    (("train_2x8.sh", "01_lora_sft.yaml"), None, (16, 16, 1, 8, 128, 2048), {TOTAL, BY_RELEASE}),
    # EXPECTED.md 02: NPROC_PER_NODE 4; stage pt packs by default, cutoff_len stays 2048.
    (
        ("train_1x4.sh", "02_pretrain_packing_default.yaml"),
        None,
        (4, 4, 1, 8, 32, 2048),
        {TOTAL, "llamafactory/pretrain-packs"},
    ),
    # EXPECTED.md 03: neat_packing, 4096 − 1 = 4095; without NPROC_PER_NODE the machine's 8 GPUs (or 1: B 8).
    (("03_neat_packing_sft.yaml",), 8, (8, 8, 2, 4, 64, 4095), {TOTAL, PACKED, BY_RELEASE}),
    (("03_neat_packing_sft.yaml",), 1, (1, 1, 2, 4, 8, 4095), {TOTAL, PACKED, BY_RELEASE}),
    # ... started by a plain `llamafactory-cli train` line on the 8-GPU machine: the same, and said to depend on it.
    (
        ("train_plain.sh", "03_neat_packing_sft.yaml"),
        8,
        (8, 8, 2, 4, 64, 4095),
        {TOTAL, PACKED, "llamafactory/world-from-machine", BY_RELEASE},
    ),
    # EXPECTED.md 04: neat_packing with stage pt, refused by get_train_args.
    (
        ("04_neat_packing_pt_refused.yaml",),
        8,
        (8, None, None, None, None, 2048),
        {"llamafactory/neat-packing-outside-sft"},
    ),
    # EXPECTED.md 05 (examples/megatron_bridge/llama3_sft.yaml): global = 1 · 1 · 8 // 1 = 8, a = 1.
    (("mbridge_1x8.sh", "05_mbridge_llama3_sft.yaml"), None, (8, 8, 1, 1, 8, 2048), set()),
    # EXPECTED.md 06: EP 4: global = 1 · 4 · 8 // 4 = 8 where mbs · GA · d = 32; Megatron runs a = 1.
    (
        ("mbridge_1x8.sh", "06_mbridge_ep4.yaml"),
        None,
        (8, 8, 1, 1, 8, 2048),
        {"llamafactory/megatron-bridge-divides-by-ep"},
    ),
    # EXPECTED.md 07: EP 4, GA 1: global 8 // 4 = 2, Megatron's calculator refuses 2 % (1 · 8).
    (
        ("mbridge_1x8.sh", "07_mbridge_ep4_refused.yaml"),
        None,
        (8, 8, 1, None, None, 2048),
        {"llamafactory/megatron-bridge-global-batch-divisible"},
    ),
    # EXPECTED.md 08: TP 3 does not divide 8, refused by _validate_megatron_bridge_parallel_args.
    (
        ("mbridge_1x8.sh", "08_mbridge_tp3_refused.yaml"),
        None,
        (8, None, 1, None, None, 2048),
        {"llamafactory/megatron-bridge-parallel-divisible"},
    ),
    # EXPECTED.md 09: TP 2 × PP 2 on 16: global = 2 · 8 · 16 // 4 = 64, d = 4, a = 8.
    (("mbridge_2x8.sh", "09_mbridge_tp2_pp2.yaml"), None, (16, 4, 2, 8, 64, 2048), set()),
    # EXPECTED.md 10 (examples/v1/train_full/train_full_ulysses_cp.yaml shape): d = 8 // 2 = 4, a = 64 // 4 // 2 = 8.
    (("v1_1x8.sh", "10_v1_fsdp2_global.yaml"), None, (8, 4, 2, 8, 64, 4096), set()),
    # EXPECTED.md 11: 30 % (4 · 2) refused by the v1 BatchGenerator.
    (
        ("v1_1x8.sh", "11_v1_indivisible.yaml"),
        None,
        (8, 4, 2, None, None, 4096),
        {"llamafactory/v1-global-batch-divisible"},
    ),
    # EXPECTED.md 12: global_batch_size unset: d · micro = 16, a = 1.
    (("v1_1x8.sh", "12_v1_default_global.yaml"), None, (8, 8, 2, 1, 16, 4096), set()),
    # examples/megatron/qwen3_moe_full.yaml's shape (an MCA config, USE_MCA=1): mcore_adapter counts, not read here.
    (("mca_moe.yaml",), 8, (8, None, 1, None, None, 4096), {"llamafactory/mca-not-read"}),
    # EXPECTED.md 13: packing: true in SFT, 4096 − 1 = 4095.
    (("train_1x8.sh", "13_packing_sft.yaml"), None, (8, 8, 2, 4, 64, 4095), {TOTAL, PACKED}),
]


@pytest.mark.parametrize(("names", "world", "expected", "found"), ROWS, ids=lambda v: str(v))
def test_llamafactory_as_its_own_code_runs_it(
    names: tuple[str, ...], world: int | None, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """World, d, b, a, B and L as LLaMA-Factory computed them for the same files and environment, and the findings."""
    check = checked(names, world)
    assert check.framework == "llamafactory"
    assert numbers(check) == expected
    assert {f.code for f in check.findings} == found


def test_the_ep_division_is_a_silent_change_with_both_numbers() -> None:
    """06: the config means 1 · 4 · 8 = 32 and trains 8; the fix keeps 32 with a multiple of EP."""
    check = checked(("mbridge_1x8.sh", "06_mbridge_ep4.yaml"))
    assert (check.global_batch, check.intended) == (8, 32)
    [finding] = check.findings
    assert finding.fix is not None
    assert finding.fix.written() == ("gradient_accumulation_steps: 16",)


def test_a_bridge_yaml_without_the_variable_is_refused_for_its_keys() -> None:
    """HfArgumentParser refuses keys it does not know: LLaMA-Factory's message names them."""
    check = checked(("train_1x8.sh", "05_mbridge_llama3_sft.yaml"))
    [finding] = check.findings
    assert finding.message is not None
    assert finding.message.startswith("Some keys are not used by the HfArgumentParser: ['context_parallel_size'")
