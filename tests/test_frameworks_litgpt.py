"""LitGPT: its own arithmetic on fixtures shaped like its ``config_hub`` YAMLs, and what a user is shown.

The fixtures in ``tests/data/configs/litgpt/`` follow ``config_hub/pretrain/tinyllama.yaml`` and
``config_hub/finetune/llama-3-8b/full.yaml`` of Lightning-AI/litgpt at 2685705. Their numbers were obtained by
running LitGPT itself here (litgpt 0.5.13 from PyPI, whose ``args.py`` is identical to 2685705, on torch 2.13 CPU):
each YAML parsed by jsonargparse against the real ``setup()`` of ``litgpt.pretrain`` / ``litgpt.finetune.full``,
then the real ``parse_devices``, ``validate_args``, ``TrainArgs.batch_size`` and
``TrainArgs.gradient_accumulation_iters``; the "before 0.5.8" number through ``args.py`` at tag v0.5.7
(research: ``/work/research/litgpt/run_fixtures.py``, ``fixtures/EXPECTED.md``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check_numbers import numbers, shown

from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "litgpt"


def checked(name: str, world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source(name, (CONFIGS / name).read_text())], given)


# (fixture, world given or None: devices × num_nodes, (world, d, b, a, B, L, T), findings); EXPECTED.md's rows.
CASES = [
    # 512 // 8 = 64 a device, 64 // 4 = 16: B = 4 · 8 · 16 = 512.
    ("01_pretrain_plain.yaml", None, (8, 8, 4, 16, 512, 2048, 1048576), set()),
    # 100 // 8 = 12, 12 // 5 = 2: B = 5 · 8 · 2 = 80, not 100 (args.py:58, 64).
    (
        "02_finetune_floors.yaml",
        None,
        (8, 8, 5, 2, 80, 512, 40960),
        {"litgpt/per-device-floored", "litgpt/accumulation-floored"},
    ),
    # 4 nodes × 8: 512 // 32 = 16, 16 // 4 = 4: B = 512; args.py at v0.5.7 (// devices only) gives 2048.
    ("03_pretrain_multinode.yaml", None, (32, 32, 4, 4, 512, 2048, 1048576), {"litgpt/per-machine-in-old-versions"}),
    # 4 // 8 = 0: assert batch_size > 0 (args.py:65).
    (
        "04_refuse_global_smaller_than_world.yaml",
        None,
        (8, 8, 1, None, None, 512, None),
        {"litgpt/nothing-per-device"},
    ),
    # 32 // 8 = 4, 4 // 8 = 0: assert gradient_accumulation_iters > 0 (args.py:59).
    (
        "05_refuse_micro_larger_than_per_device.yaml",
        None,
        (8, 8, 8, None, None, 512, None),
        {"litgpt/micro-batch-larger-than-per-device"},
    ),
    # devices auto = torch.cuda.device_count() or 1, here 1: 64 // 1 = 64, 64 // 4 = 16, B = 64; L null.
    ("06_devices_auto.yaml", 1, (1, 1, 4, 16, 64, None, None), {"litgpt/devices-auto"}),
    # validate_args: "… requires the 'max_tokens' argument" (ValueError, pretrain.py:532).
    (
        "07_refuse_pretrain_without_max_tokens.yaml",
        None,
        (8, 8, 4, 16, None, 2048, None),
        {"litgpt/pretrain-requires"},
    ),
]


@pytest.mark.parametrize(("name", "world", "expected", "found"), CASES, ids=[case[0] for case in CASES])
def test_litgpt_computes_what_it_will_really_use(
    name: str, world: int | None, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """LitGPT is detected and its own rule gives the numbers LitGPT itself gave, with exactly these findings."""
    check = checked(name, world)
    assert check.framework == "litgpt"
    assert numbers(check) == expected
    assert {finding.code for finding in check.findings} == found


def test_the_floors_say_both_numbers_and_a_fix_in_yaml() -> None:
    """The heading names what trains and what was asked; the fix is the train section's key."""
    text = shown(checked("02_finetune_floors.yaml"))
    assert "LitGPT: trainiert mit B = 80 statt 100" in text
    assert "global_batch_size: 80 oder global_batch_size: 120 (unter train)" in text


def test_devices_auto_asks_for_the_gpus() -> None:
    """``devices: auto`` depends on the machine: without a GPU count the check asks for it."""
    with pytest.raises(CheckError) as error:
        checked("06_devices_auto.yaml")
    assert error.value.kind is ProblemKind.WORLD_SIZE_NEEDED
    # on an 8-GPU box the same file gives 8 a device, a = 2, B = 64 (EXPECTED.md's note on 06)
    assert numbers(checked("06_devices_auto.yaml", 8))[:5] == (8, 8, 4, 2, 64)


def test_a_file_without_batch_keys_takes_the_commands_defaults() -> None:
    """``litgpt finetune_full`` sets 16 / 1 on 1 device (finetune/full.py:48-56), said with where it comes from."""
    check = check_config([Source("ft.yaml", "checkpoint_dir: x\ntrain:\n  micro_batch_size: 1\n")])
    assert numbers(check)[:5] == (1, 1, 1, 16, 16)
    assert ("train.global_batch_size", "litgpt/finetune/full.py:55") in {(r.key, r.where) for r in check.read}


def test_flags_of_the_launch_line_win_over_the_yaml() -> None:
    """``litgpt finetune_full --config 02_finetune_floors.yaml --devices 4 --train.global_batch_size 80``: jsonargparse
    takes the flags over the YAML: 80 // 4 = 20 a device, 20 // 5 = 4, B = 5 · 4 · 4 = 80 without a floor."""
    line = "litgpt finetune_full --config 02_finetune_floors.yaml --devices 4 --train.global_batch_size 80\n"
    config = Source("02_finetune_floors.yaml", (CONFIGS / "02_finetune_floors.yaml").read_text())
    check = check_config([Source("run.sh", line), config])
    assert numbers(check)[:5] == (4, 4, 5, 4, 80)
    assert not check.findings
    assert ("--train.global_batch_size", "run.sh:1") in {(r.key, r.where) for r in check.read}


def test_a_launch_line_alone_takes_the_commands_defaults_and_offers_flags() -> None:
    """``litgpt pretrain --devices 8 --train.global_batch_size 100`` with pretrain's micro-batch 4 (pretrain.py:60):
    100 // 8 = 12, 12 // 4 = 3, B = 96; the fix is written as a flag."""
    line = "litgpt pretrain --model_name pythia-14m --devices 8 --train.global_batch_size 100 --train.max_tokens 1000\n"
    check = check_config([Source("run.sh", line)])
    assert check.framework == "litgpt"
    assert numbers(check)[:5] == (8, 8, 4, 3, 96)
    assert "Passend wäre: --train.global_batch_size 96 oder --train.global_batch_size 128." in shown(check)
