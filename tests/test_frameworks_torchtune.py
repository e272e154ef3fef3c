"""torchtune: its own arithmetic on fixtures shaped like its recipe configs, and what a user is shown.

The fixtures in ``tests/data/configs/torchtune/`` follow ``recipes/configs/llama3_1/8B_full.yaml``,
``llama3_1/70B_full.yaml``, ``llama3_3/70B_full_multinode.yaml`` and ``llama3_1/8B_full_single_device.yaml`` of
pytorch/torchtune at bd2a0fc, each with its ``tune run`` line in the header as torchtune ships them. Their numbers
were obtained by running torchtune here (0.6.1 from PyPI, torch 2.13 CPU): B is the number of distinct sample ids
all ranks drew in the first ``gradient_accumulation_steps`` batches, on real gloo processes with the real
``init_device_mesh`` and torchdata's ``StatefulDistributedSampler``/``StatefulDataLoader`` (the recipe's lines
181-188, 825-845), ``ParallelDims`` lifted verbatim from bd2a0fc; the refusals from the real dataset builder, the real
``tune run`` CLI and the recipe's lines (research: ``/work/research/torchtune/run_fixtures.py``,
``fixtures/EXPECTED.md``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check_numbers import numbers, shown

from effbatch.core.configs import Check, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "torchtune"


def checked(name: str, world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source(name, (CONFIGS / name).read_text())], given)


DOCSTRING = "torchtune/data-parallel-excludes-tp-cp"
# (fixture, (world, d, b, a, B, L, T), findings); the world from each header's tune run line; EXPECTED.md's rows.
CASES = [
    # --nproc_per_node 4: d = 4, B = 2 · 4 · 8 = 64.
    ("01_plain_full.yaml", (4, 4, 2, 8, 64, 2048, 131072), set()),
    # 2 × 8 GPUs, TP 8: the dp mesh has 2 ranks, the sampler gave 8 distinct sequences a step; the docstring 64.
    ("02_tp8_multinode.yaml", (16, 2, 4, 1, 8, 1024, 8192), {DOCSTRING}),
    # 8 GPUs, TP 2, CP 2: d = 2, measured B = 16; the docstring 64.
    ("03_tp2_cp2.yaml", (8, 2, 2, 4, 16, 8192, 131072), {DOCSTRING}),
    # HSDP on 2 × 8, replicate 2, shard -1 = 8: d = 16, B = 1 · 16 · 2 = 32.
    ("04_hsdp_multinode.yaml", (16, 16, 1, 2, 32, 4096, 131072), set()),
    # TP 3 on 8: shard = 8 // 3 = 2, "Invalid parallel dims: dp_replicate(1) * dp_shard(2) * tp(3) != WORLD_SIZE(8)".
    ("05_refuse_tp3_on_8.yaml", (8, None, 2, 1, None, 2048, None), {"torchtune/parallel-dims"}),
    # optimizer_in_bwd with GA 4: the recipe's RuntimeError.
    ("06_refuse_optimizer_in_bwd_ga.yaml", (2, 2, 4, 4, None, 2048, None), {"torchtune/optimizer-in-bwd-accumulation"}),
    # packed: True, max_seq_len null: the real alpaca_dataset's ValueError.
    (
        "07_refuse_packed_without_max_seq_len.yaml",
        (4, 4, 2, 1, None, None, None),
        {"torchtune/packed-without-max-seq-len"},
    ),
    # full_finetune_single_device with --nproc_per_node 2: the real tune run CLI exits 2.
    (
        "08_refuse_single_device_recipe_with_nproc.yaml",
        (2, 2, 4, 2, None, 2048, None),
        {"torchtune/single-device-recipe-distributed"},
    ),
    # packed: B = 64 packs of 4096 positions each (PackedDataset pads every pack to max_seq_len).
    ("09_packed.yaml", (4, 4, 2, 8, 64, 4096, 262144), set()),
]


@pytest.mark.parametrize(("name", "expected", "found"), CASES, ids=[case[0] for case in CASES])
def test_torchtune_computes_what_it_will_really_use(
    name: str, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """torchtune is detected, the world comes from the tune run line, and the numbers are the ones measured."""
    check = checked(name)
    assert check.framework == "torchtune"
    assert numbers(check) == expected
    assert {finding.code for finding in check.findings} == found


def test_tensor_parallel_says_what_the_docstring_claims_and_what_trains() -> None:
    """The pitfall names the docstring's 64 and the 8 the sampler gives; the world is read from the header."""
    check = checked("02_tp8_multinode.yaml")
    text = shown(check)
    assert "batch_size · GPUs · a = 64" in text
    assert "Trainiert wird mit B = 8." in text
    assert check.world is not None
    assert check.world.where == "tune run, 02_tp8_multinode.yaml:5"


def test_a_refusal_quotes_torchtunes_assertion_and_the_world_sizes_that_fit() -> None:
    """TP 3 on 8 GPUs: ParallelDims' message verbatim and the GPU counts that would divide."""
    text = shown(checked("05_refuse_tp3_on_8.yaml"))
    assert "Invalid parallel dims: dp_replicate(1) * dp_shard(2) * tp(3) != WORLD_SIZE(8)" in text
    assert "6 oder 9 GPUs" in text


def test_a_recipe_without_a_launch_line_asks_for_the_gpus_and_is_not_deepspeed() -> None:
    """8B_full.yaml (once a negative: DeepSpeed's key names) is torchtune's; with 8 GPUs B = 2 · 8 · 1 = 16."""
    check = checked("8B_full_recipe.yaml", 8)
    assert check.framework == "torchtune"
    assert numbers(check)[:5] == (8, 8, 2, 1, 16)
    assert {finding.code for finding in check.findings} == {"torchtune/no-max-seq-len"}


def test_a_tune_run_launch_line_beside_the_config_gives_the_world() -> None:
    """``tune run --nnodes 2 --nproc_per_node 8 …`` as a separate launch line."""
    config = (CONFIGS / "01_plain_full.yaml").read_text().replace("tune run", "run")
    line = "tune run --nnodes=2 --nproc-per-node 8 full_finetune_distributed --config 01_plain_full.yaml\n"
    check = check_config([Source("run.sh", line), Source("01_plain_full.yaml", config)])
    assert numbers(check)[:5] == (16, 16, 2, 8, 256)


# (launch, the line the tune run command starts on)
LAUNCHES = [
    # one line
    (
        "tune run --nproc_per_node 4 full_finetune_distributed --config 01_plain_full.yaml "
        "batch_size=4 gradient_accumulation_steps=2\n",
        1,
    ),
    # a launch script: bash joins the lines a trailing backslash continues (tab-indented, as users write them)
    (
        "#!/bin/bash\n\ntune run --nproc_per_node 4 full_finetune_distributed --config 01_plain_full.yaml \\\n"
        "\tdataset.packed=False \\\n\tbatch_size=4 \\\n\tgradient_accumulation_steps=2\necho done\n",
        3,
    ),
]


@pytest.mark.parametrize(("line", "at"), LAUNCHES, ids=["one-line", "continued"])
def test_overrides_after_the_config_win_over_the_yaml(line: str, at: int) -> None:
    """``tune run … --config x.yaml batch_size=4 gradient_accumulation_steps=2`` (torchtune's own override syntax):
    4 · 4 · 2 = 32 instead of the YAML's 2 · 4 · 8, each value read where it was written."""
    config = (CONFIGS / "01_plain_full.yaml").read_text().replace("tune run", "run")
    check = check_config([Source("run.sh", line), Source("01_plain_full.yaml", config)])
    assert numbers(check)[:5] == (4, 4, 4, 2, 32)
    assert [r.where for r in check.read if r.key == "batch_size"] == [f"tune run, run.sh:{at}"]
