"""llm-foundry: its own arithmetic on fixtures shaped like its example YAMLs, and what a user is shown.

The fixtures in ``tests/data/configs/llmfoundry/`` follow ``scripts/train/yamls/pretrain/mpt-125m.yaml`` (07 also
``finetune/mpt-7b_dolly_sft.yaml``'s ``train_loader``) of mosaicml/llm-foundry at 8c8dd48. llm-foundry needs the
GPU stack and does not install here, so the numbers were obtained by executing its deciding lines lifted verbatim
(``llmfoundry/utils/config_utils.py:425-462`` ``calculate_batch_size_info`` with a fake world size, Composer's
``t.split`` from ``composer/core/data_spec.py:38-46`` and the replication sampler rule of
``data/finetuning/dataloader.py:334-343``) on these files resolved with OmegaConf
(research: ``/work/research/llmfoundry/lifted.py``, ``run_fixtures.py``, ``fixtures/EXPECTED.md``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check_numbers import numbers, shown

from effbatch.core.configs import Check, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs"


def checked(name: str, world: int | None = 8) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source(name, (CONFIGS / name).read_text())], given)


# (fixture, composer -n, (world, d, b, a, B, L, T), findings); every row: EXPECTED.md's row of that fixture.
CASES = [
    # 256 / 8 = 32 a device, ⌈32 / 16⌉ = 2 micro-batches: B = 256, T = 256 · 2048.
    ("01_plain.yaml", 8, (8, 8, 16, 2, 256, 2048, 524288), set()),
    # 100 % 8 ≠ 0: ValueError "Global batchsize 100 is not divisible by …=8 …".
    (
        "02_refuse_not_divisible.yaml",
        8,
        (8, None, None, None, None, 2048, None),
        {"llmfoundry/global-batch-size-divisible"},
    ),
    # 96 / 8 = 12 a device in micro-batches of 5: t.split(5) gives 5, 5, 2; GA = ⌈12 / 5⌉ = 3, B stays 96.
    (
        "03_ceil_last_microbatch_smaller.yaml",
        8,
        (8, 8, 5, None, 96, 2048, 196608),
        {"llmfoundry/uneven-microbatches"},
    ),
    # 16 / 8 = 2 a device; micro 8 reduced to 2 (the log warning), GA 1.
    ("04_micro_reduced.yaml", 8, (8, 8, 2, 1, 16, 2048, 32768), {"llmfoundry/microbatch-reduced"}),
    # micro 'auto': GA decided at run time, B = 512 unchanged.
    ("05_auto_microbatch.yaml", 8, (8, 8, None, None, 512, 4096, 2097152), {"llmfoundry/auto-microbatch"}),
    # tp_config degree 2: the ffn strategy shards inputs along the batch, TP ranks keep distinct samples: B = 64.
    ("06_tensor_parallel.yaml", 8, (8, 8, 4, 2, 64, 2048, 131072), {"llmfoundry/tensor-parallel-keeps-batch"}),
    # replication 2: the sampler has 8 // 2 = 4 replicas, each rank loads 64 / 8 = 8: B = 32, not 64.
    (
        "07_replication_halves_batch.yaml",
        8,
        (8, 4, 4, 2, 32, 2048, 65536),
        {"llmfoundry/replication", "llmfoundry/tensor-parallel-keeps-batch"},
    ),
    # update_batch_size_info indexes cfg['device_train_microbatch_size']: KeyError before any default applies.
    (
        "08_refuse_missing_microbatch_key.yaml",
        8,
        (8, None, None, None, None, 2048, None),
        {"llmfoundry/missing-batch-key"},
    ),
]


@pytest.mark.parametrize(("name", "world", "expected", "found"), CASES, ids=[case[0] for case in CASES])
def test_llmfoundry_computes_what_it_will_really_use(
    name: str, world: int, expected: tuple[int | None, ...], found: set[str]
) -> None:
    """llm-foundry is detected and its own rule gives the research's numbers and exactly these findings."""
    check = checked(f"llmfoundry/{name}", world)
    assert check.framework == "llmfoundry"
    assert numbers(check) == expected
    assert {finding.code for finding in check.findings} == found


def test_a_refusal_quotes_llmfoundrys_message_and_the_fix() -> None:
    """The user reads llm-foundry's ValueError as it prints it and two global batches that divide."""
    text = shown(checked("llmfoundry/02_refuse_not_divisible.yaml"))
    assert "llm-foundry: So startet dieser Lauf nicht" in text
    assert "Global batchsize 100 is not divisible by (world_size // data_replication_degree)=8 as a result" in text
    assert "global_train_batch_size: 96" in text
    assert "global_train_batch_size: 104" in text


def test_replication_says_both_numbers() -> None:
    """Replication trains fewer distinct sequences than the config states: the heading names both."""
    check = checked("llmfoundry/07_replication_halves_batch.yaml")
    assert check.intended == 64
    assert "trainiert mit B = 32 statt 64" in shown(check)


def test_an_interpolated_length_is_followed_to_its_variable() -> None:
    """``max_seq_len: ${variables.max_seq_len}`` is read where the number stands, with its line."""
    check = checked("llmfoundry/01_plain.yaml")
    assert [r.where for r in check.read if r.key == "variables.max_seq_len"] == ["llmfoundry/01_plain.yaml:6"]


PLATFORM = """\
compute:
  gpus: 16
parameters:
  variables:
    max_seq_len: 4096
  max_seq_len: ${variables.max_seq_len}
  train_loader:
    name: finetuning
  global_train_batch_size: 16
  device_train_microbatch_size: 1
"""


def test_a_platform_run_yaml_gives_its_own_gpus() -> None:
    """mcli/mcli-llama3-70b-instruct-finetune.yaml's shape: the train config under ``parameters``, 16 GPUs in
    ``compute.gpus``; research examples.md: d 16, 1 a device, GA 1, B 16, T 65.536."""
    check = check_config([Source("mcli.yaml", PLATFORM)])
    assert numbers(check) == (16, 16, 1, 1, 16, 4096, 65536)


def test_olmo_v1_with_the_same_key_names_stays_olmo() -> None:
    """OLMo v1 shares Composer's key names; without llm-foundry's own keys it is OLMo's floor that applies."""
    assert checked("olmo_v1_full.yaml", 24).framework == "olmo"
    pasted = '{"global_train_batch_size": 1024, "device_train_microbatch_size": 4}'
    assert check_config([Source("eingefügt", pasted)], World(24, "gpus")).framework == "olmo"


@pytest.mark.parametrize(
    ("line", "world"),
    [
        ("composer -n 8 train/train.py 01_plain.yaml", 8),  # the fixtures' launch line: the processes of one node
        ("composer --nproc=8 --world_size 16 --node_rank 0 train/train.py 01_plain.yaml", 16),  # multi-node
    ],
)
def test_the_composer_launch_line_gives_the_world(line: str, world: int) -> None:
    """composer/cli/launcher.py: ``--world_size`` where given, else ``-n``/``--nproc``."""
    config = Source("01_plain.yaml", (CONFIGS / "llmfoundry" / "01_plain.yaml").read_text())
    check = check_config([Source("run.sh", line), config])
    assert check.framework == "llmfoundry"
    assert check.world is not None
    assert (check.world.size, check.global_batch) == (world, 256)
