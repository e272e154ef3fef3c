"""PyTorch Lightning: LightningCLI YAMLs, B = b · devices · num_nodes · accumulate_grad_batches (d of a
ModelParallelStrategy: its data_parallel_size), and what Lightning 2 refuses.

Fixtures in ``tests/data/configs/lightning/``: LightningCLI configs shaped like the docs' CLI examples
(Lightning-AI/pytorch-lightning@7f0c343 ships no LightningCLI YAML of its own); their numbers were obtained by
running lightning 2.6.6's own LightningCLI, Trainer and strategies on them with N GPUs a node faked
(/work/research/lightning/run_lightning.py; results.txt and fixtures/EXPECTED.md there).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.core.configs import Check, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs"


def checked(names: tuple[str, ...], world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source(name, (CONFIGS / name).read_text()) for name in names], given)


def numbers(check: Check) -> tuple[int | None, ...]:
    """(world, d, b, a, B, L)."""
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


LAST = "lightning/last-window"
ROWS = [
    # EXPECTED.md 01: DDP, 8 devices × 2 nodes = 16 replicas (ddp.py:137-138), B = 16 · 16 · 4 = 1.024.
    ("01_ddp_multinode.yaml", None, (16, 16, 16, 4, 1024, 1024), {LAST}),
    # EXPECTED.md 02: devices -1 = every GPU of the node; run with 4 faked GPUs: B = 32 · 4 = 128.
    ("02_devices_minus1.yaml", 4, (4, 4, 32, 1, 128, None), {"lightning/devices-from-machine"}),
    # EXPECTED.md 03: devices and strategy "auto" on 8 GPUs: DDP over all 8, B = 64.
    ("03_devices_auto.yaml", 8, (8, 8, 8, 1, 64, None), {"lightning/devices-from-machine"}),
    # EXPECTED.md 04: strategy dp, removed in 2.0, is refused as an invalid strategy name.
    ("04_strategy_dp.yaml", None, (None, None, None, None, None, None), {"lightning/strategy-removed"}),
    # EXPECTED.md 05: the scheduler's factors 8 / 4 / 1 by epoch 0 / 4 / 8 give B 256 / 128 / 32.
    (
        "05_grad_accum_scheduler.yaml",
        None,
        (8, 8, 4, 8, 256, None),
        {LAST, "lightning/accumulation-schedule"},
    ),
    # EXPECTED.md 06: accumulate_grad_batches 2 beside the scheduler: refused at fit start.
    ("06_scheduler_and_accumulate.yaml", None, (8, 8, 4, None, None, None), {"lightning/scheduler-and-accumulate"}),
    # EXPECTED.md 07: ModelParallelStrategy "auto" on 2 nodes × 8: dp = 2 nodes, tp = 8; B = 4 · 2 = 8.
    ("07_model_parallel_auto.yaml", None, (16, 2, 4, 1, 8, 4096), {"lightning/model-parallel"}),
    # EXPECTED.md 08: dp 2 × tp 2 = 4 on 8 GPUs: refused (fabric model_parallel.py:526-531).
    ("08_model_parallel_mismatch.yaml", None, (8, None, 4, None, None, None), {"lightning/model-parallel-world-size"}),
    # EXPECTED.md 09: FSDP, 4 devices × 4 nodes, every rank data-parallel: B = 2 · 16 · 8 = 256.
    ("09_fsdp.yaml", None, (16, 16, 2, 8, 256, 2048), {LAST}),
    # The former negative (same rule as 01): 16 · 8 · 2 = 256.
    ("10_lightning_cli.yaml", None, (8, 8, 16, 2, 256, None), {LAST}),
]


@pytest.mark.parametrize(("name", "world", "expected", "found"), ROWS, ids=lambda v: str(v))
def test_lightning_as_its_own_code_runs_it(
    name: str, world: int | None, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """World, d, b, a, B and L as lightning 2.6.6 computed them for the same YAML, and the findings."""
    check = checked((f"lightning/{name}",), world)
    assert check.framework == "lightning"
    assert numbers(check) == expected
    assert {f.code for f in check.findings} == found


def test_a_nemo_yaml_stays_nemo() -> None:
    """NeMo 1 uses the Lightning Trainer too, but model.global_batch_size decides: Megatron's rule."""
    assert checked(("nemo.yaml",)).framework == "nemo"


def test_the_dp_refusal_quotes_lightning() -> None:
    """The message Lightning 2.6.6 raised for strategy dp, word for word."""
    [finding] = checked(("lightning/04_strategy_dp.yaml",)).findings
    assert finding.message is not None
    assert finding.message.startswith("You selected an invalid strategy name: `strategy='dp'`. It must be either")
