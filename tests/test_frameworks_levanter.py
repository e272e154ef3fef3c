"""Levanter: its own arithmetic on YAML configs in the shape of its ``config/*.yaml`` (and marin's ``trainer.mesh``).

Every fixture in ``tests/data/configs/levanter/`` names the example it follows in its first line; the numbers and
messages were obtained by decoding each fixture's trainer section into Levanter's own ``TrainerConfig``
(stanford-crfm/levanter at 9263f81e, jax on fake CPU devices) and calling its ``_validate_and_set_defaults``
(/work/research/levanter/run_real_fixtures.sh, output fixtures/EXPECTED_real.txt) for 01-06 and 08; the loader's
padding (05) and marin's mesh (07) from their lines lifted verbatim (lifted.py, run_fixtures.py, EXPECTED.json).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Check, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "levanter"


def checked(name: str, world: int) -> Check:
    return check_config([Source(name, (CONFIGS / name).read_text())], World(world, f"--world-size {world}"))


def numbers(check: Check) -> tuple[int | None, ...]:
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


# (fixture, devices, (world, d, b, a, B, L), findings with Levanter's own message)
CASES = [
    # config/gpt2_small_fast.yaml on 8 devices: per_device_parallelism -1 becomes 256 // 8 = 32, a = 1.
    ("01_plain_gpt2_small.yaml", 8, (8, 8, 32, 1, 256, 1024), {}),
    # config/llama2_7b.yaml on 64: b 2, a = 1024 / (2 · 64) = 8.
    ("02_accum_llama7b.yaml", 64, (64, 64, 2, 8, 1024, 4096), {}),
    # B = 100 on 8: b = 100 // 8 = 12, and 100 is no multiple of 12 · 8.
    (
        "03_refused_nondivisible.yaml",
        8,
        (8, 8, 12, None, None, 1024),
        {
            "levanter/batch-divisible": (
                "train_batch_size (100) must be divisible by per_device_parallelism * data_axis_size (12, 8)"
            )
        },
    ),
    # config/gpt2_nano.yaml's B = 4 on 8: b = 0, then `B % 0` – a ZeroDivisionError, no message of its own.
    ("04_crash_batch_below_devices.yaml", 8, (8, 8, None, None, None, 512), {"levanter/batch-below-data-axis": None}),
    # config/gpt2_small_fast_batch_schedule.yaml: 60 → 128 → 256 without per_device_parallelism, 60 padded to 64.
    (
        "05_schedule_padded.yaml",
        8,
        (8, 8, 32, 1, 256, 1024),
        {
            "levanter/padded-with-zeros": (
                "Padding batch size 60 to 64 to be divisible by data axis size 8. This results in a per-device batch "
                "size of 8. (Extra data is zeros.)"
            ),
            "levanter/schedule-without-microbatching": None,
        },
    ),
    # model_axis_size 4 on 32 devices: d = 8, b 4, a = 256 / 32 = 8.
    ("06_tensor_parallel_old.yaml", 32, (32, 8, 4, 8, 256, 2048), {}),
    # marin's trainer.mesh.axes {model: 4} on 16: data = 16 / 4 = 4, b = 128 // 4 = 32.
    ("07_marin_mesh_tp.yaml", 16, (16, 4, 32, 1, 128, 4096), {}),
    # per_device_parallelism 8 with a schedule: the phase from step 1000 (96) is no multiple of 8 · 8.
    (
        "08_schedule_refused_pdp.yaml",
        8,
        (8, 8, 8, None, None, 1024),
        {
            "levanter/phase-divisible": (
                "At step 1000, train_batch_size (96) must be divisible by per_device_parallelism * data_axis_size "
                "(8, 8)"
            )
        },
    ),
]


@pytest.mark.parametrize(("name", "world", "expected", "findings"), CASES, ids=[c[0] for c in CASES])
def test_levanter_uses_what_its_own_code_computes(
    name: str, world: int, expected: tuple[int | None, ...], findings: dict[str, str | None]
) -> None:
    """Detected as Levanter, the numbers its TrainerConfig sets, its refusals quoted verbatim."""
    check = checked(name, world)
    assert check.framework == "levanter"
    assert numbers(check) == expected
    assert {f.code: f.message for f in check.findings} == findings


def test_a_schedule_in_steps_becomes_phases_in_sequences() -> None:
    """Steps 0-63 at 60, 64-1023 at 128, then 256: each phase starts after the sequences of the ones before."""
    schedule = checked("05_schedule_padded.yaml", 8).schedule
    assert [(p.start, p.global_batch, p.samples) for p in schedule] == [
        (0, 60, 64 * 60),
        (64 * 60, 128, 960 * 128),
        (64 * 60 + 960 * 128, 256, None),
    ]


def test_an_include_is_read_as_text() -> None:
    """``data: !include data/openwebtext_source.yaml`` (27 of Levanter's 95 example configs) does not stop the check."""
    check = checked("01_plain_gpt2_small.yaml", 8)
    assert check.ok


def test_the_crash_is_explained_in_our_own_words() -> None:
    """B < d: Levanter has no message of its own; the answer says why it crashes and what would pass."""
    shown = plain_text(check_answer(checked("04_crash_batch_below_devices.yaml", 8), Visibility.IN_CHANNEL).document)
    assert "Levanter stürzt ab" in shown
    assert "ZeroDivisionError" in shown
    assert "Passend wäre: train_batch_size: 8." in shown
