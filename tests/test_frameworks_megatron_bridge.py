"""Megatron-Bridge and NeMo 2: their own arithmetic on Python recipes in the shape of Bridge's
``src/megatron/bridge/recipes/llama/h100/llama3.py`` and NeMo's ``nemo/collections/llm/recipes/llama3_8b.py``.

Every fixture in ``tests/data/configs/megatron_bridge/`` names the recipe it follows in its first line; the numbers
and messages were obtained with megatron-core 0.16.1's own ``num_microbatches_calculator`` and Bridge's deciding
lines of ``training/config.py`` (067f987d) lifted verbatim (/work/research/megatron_bridge/mb_real.py and
run_fixtures.py, output in fixtures/EXPECTED.json). The world is the GPU count the recipe's name carries, NeMo 2's
``num_nodes × num_gpus_per_node`` of ``pretrain_recipe``, or given.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "megatron_bridge"
NAMED = "megatron_bridge/world-from-recipe-name"
PACKED = (
    "Micro batch size should be 1 when training with packed sequence, but your micro batch size is 2. The following "
    "config is equivalent to your current setting for a packed dataset. Please update your config to the following: "
    "Set micro batch size to 1 (currently 2) Set global batch size to 64 (currently 128) Set packed sequence length "
    "to 4096 (currently 2048) For details please visit "
    "https://docs.nvidia.com/nemo-framework/user-guide/latest/sft_peft/packed_sequence.html"
)


def checked(name: str, world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source(name, (CONFIGS / name).read_text())], given)


def numbers(check: Check) -> tuple[int | None, ...]:
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


# (fixture, GPUs given or None, (world, d, b, a, B, L), findings with the framework's own message)
CASES = [
    # llama3_8b_pretrain_2gpu_h100_bf16_config: CP 2 on the 2 GPUs of its name, d = 1, a = 512 / (1 · 1). Its name
    # also names the H100: by Megatron's own estimate Llama 3 8B's 18 bytes a parameter (d = 1) exceed its 80 GiB.
    ("01_plain_pretrain.py", None, (2, 1, 1, 512, 512, 8192), {NAMED: None, "memory/does-not-fit": None}),
    # B = 100 with b 2 on 16 GPUs: ConfigContainer.validate's eval check fires before megatron-core's calculator.
    (
        "02_refused_not_divisible.py",
        None,
        (16, 16, 2, None, None, 4096),
        {
            NAMED: None,
            "megatron_bridge/eval-batch-divisible": (
                "eval_global_batch_size (100) must be divisible by eval_micro_batch_size * eval_data_parallel_size "
                "(2 * 16 = 32)"
            ),
        },
    ),
    # llama3_8b_sft_2gpu_h100_bf16_config with micro-batch 2: _sft_common packs offline, which needs 1.
    (
        "03_refused_packed_sft_mbs2.py",
        None,
        (2, 1, 2, None, None, 2048),
        {NAMED: None, "megatron_bridge/packed-micro-batch": PACKED},
    ),
    # decrease_batch_size_if_needed with the eval batch set apart: megatron-core floors 100 to 96, a = 3.
    (
        "04_decrease_batch_size.py",
        None,
        (16, 16, 2, 3, 96, 4096),
        {
            NAMED: None,
            "megatron_bridge/batch-size-decreased": (
                "decreasing batch size from 100 to 96to keep divisiblity by micro_batch_size=2 * data_parallel_size=16"
            ),
        },
    ),
    # llama3_8b_pretrain_16gpu_h100_bf16_16k_config: TP 4 · PP 2 · CP 2 = 16, d = 1, a = 512.
    ("05_tp_pp_cp.py", None, (16, 1, 1, 512, 512, 16384), {NAMED: None}),
    # rampup_batch_size [64, 64, 100000]: megatron-core starts at 64 (a 2) and ends at 1024 (a 32).
    ("06_rampup.py", None, (16, 16, 2, 32, 1024, 4096), {NAMED: None, "megatron_bridge/rampup": None}),
    # a recipe that sets only the model: _pretrain_common's 32 × 4096 with b 2 on 8 GPUs (given), a = 2.
    ("07_defaults_only.py", 8, (8, 8, 2, 2, 32, 4096), {"megatron_bridge/inherited-global-batch-size": None}),
    # 64k recipe with length 65530 and CP 4: not divisible by 2 · CP.
    (
        "08_refused_cp_seq.py",
        None,
        (32, 1, 1, None, None, 65530),
        {
            NAMED: None,
            "megatron_bridge/context-parallel-sequence-length": (
                "Sequence length must be divisible by 2 * context parallel size if context parallel is used."
            ),
        },
    ),
    # NeMo 2 llama3_8b.py: 1 × 8 GPUs, CP 2, d = 4, a = 512 / (1 · 4) = 128.
    ("09_nemo2_recipe.py", None, (8, 4, 1, 128, 512, 8192), {}),
    # NeMo 2 llama3_70b.py: pretrain_recipe's num_nodes 1 wins over trainer()'s 4; TP 4 · PP 4 · CP 2 = 32 on 8.
    (
        "10_nemo2_70b_default_nodes.py",
        None,
        (8, None, 1, None, None, 8192),
        {
            "megatron_bridge/nemo2-num-nodes": None,
            "megatron_bridge/world-size-divisible": "world_size (8) is not divisible by 32",
        },
    ),
]


@pytest.mark.parametrize(("name", "world", "expected", "findings"), CASES, ids=[c[0] for c in CASES])
def test_megatron_bridge_uses_what_its_own_code_computes(
    name: str, world: int | None, expected: tuple[int | None, ...], findings: dict[str, str | None]
) -> None:
    """Detected as Megatron-Bridge, the numbers of its validation and megatron-core's calculator, messages verbatim."""
    check = checked(name, world)
    assert check.framework == "megatron_bridge"
    assert numbers(check) == expected
    assert {f.code: f.message for f in check.findings} == findings


def test_the_ramp_is_shown_in_phases() -> None:
    """64 → 1024 in steps of 64 over 100.000 sequences: the first phases and the end, as megatron-core ramps."""
    schedule = checked("06_rampup.py").schedule
    assert [(p.start, p.global_batch) for p in schedule[:3]] == [(0, 64), (6667, 128), (13334, 192)]
    assert (schedule[-1].start, schedule[-1].global_batch) == (100000, 1024)


def test_a_given_world_wins_over_the_recipes_name() -> None:
    """The 2-GPU recipe on 4 GPUs: d = 4 / 2 = 2, a = 256; nothing is said about the GPU count in the name (the H100
    it names still holds the memory estimate, which does not fit at d = 2 either)."""
    check = checked("01_plain_pretrain.py", 4)
    assert numbers(check) == (4, 2, 1, 256, 512, 8192)
    assert [f.code for f in check.findings] == ["memory/does-not-fit"]


def test_a_recipe_without_gpus_in_its_name_asks_for_them() -> None:
    """Without a GPU count in the name or given, the world size is asked for."""
    with pytest.raises(CheckError) as raised:
        checked("07_defaults_only.py")
    assert raised.value.kind is ProblemKind.WORLD_SIZE_NEEDED


def test_the_world_from_the_name_is_said() -> None:
    """The answer names the recipe whose name gave the GPU count."""
    shown = plain_text(check_answer(checked("05_tp_pp_cp.py"), Visibility.IN_CHANNEL).document)
    assert "d = GPUs / (TP · PP · CP) = 16 / (4 · 2 · 2) = 1" in shown
    assert "Die GPU-Zahl (16) steht im Namen des Rezepts llama3_8b_pretrain_16gpu_h100_bf16_16k_config" in shown


def test_a_pasted_recipe_is_read_as_python() -> None:
    """Pasted without a file name, NeMo 2's annotated ``def trainer(num_nodes: int = 1, …)`` is Python, not YAML."""
    check = check_config([Source("eingefügt", (CONFIGS / "09_nemo2_recipe.py").read_text())])
    assert check.framework == "megatron_bridge"
    assert numbers(check) == (8, 4, 1, 128, 512, 8192)


def test_a_recipes_arithmetic_is_pythons() -> None:
    """A recipe that computes its batch from a parameter and a module constant with Python's builtins: Python's value
    (``max(16, gpus * 32)`` = 64 sequences on the 2 GPUs of its name, a = 64 / (1 · 1) with CP 2)."""
    text = (CONFIGS / "01_plain_pretrain.py").read_text()
    text = text.replace(
        "def llama3_8b_pretrain_2gpu_h100_bf16_config()", "def llama3_8b_pretrain_2gpu_h100_bf16_config(gpus=2)"
    )
    text = text.replace("cfg.train.global_batch_size = 512", "cfg.train.global_batch_size = max(16, gpus * 32)")
    text = text.replace("cfg.dataset.seq_length = 8192", "cfg.dataset.seq_length = int(8.192e3)")
    check = check_config([Source("llama3.py", text)])
    assert numbers(check) == (2, 1, 1, 64, 64, 8192)
