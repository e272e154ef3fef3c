"""Nanotron: its own arithmetic on configs in the shape of its ``examples/config_tiny_llama.yaml``.

Every fixture in ``tests/data/configs/nanotron/`` is that example with the changes its first line names; the
numbers and messages were obtained by loading each fixture with nanotron's own ``get_config_from_file``
(huggingface/nanotron at 2411b022, dacite strict, ``Config.__post_init__``, ``Config.global_batch_size``) plus the
world-size assertion of ``parallel/context.py:26-28`` and the 1F1B check of ``engine.py:251-254`` lifted verbatim
(/work/research/nanotron/run_fixtures.py, its output in fixtures/EXPECTED.json).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Check, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "nanotron"
LAUNCH = "torchrun --nproc_per_node=8 --nnodes=2 run_train.py --config-file config.yaml\n"


def checked(name: str, *, launch: str | None = None) -> Check:
    sources = [Source(name, (CONFIGS / name).read_text())]
    if launch is not None:
        sources.append(Source("launch.sh", launch))
    return check_config(sources)


def numbers(check: Check) -> tuple[int | None, ...]:
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


# (fixture, launch line or None, (world, d, b, a, B, L), findings with nanotron's own message)
CASES = [
    # examples/config_tiny_llama.yaml as it is: tp 2 · dp 4 = 8 GPUs from the config alone, B = 3 · 4 · 1 = 12.
    ("01_plain_tiny_llama.yaml", None, (8, 4, 3, 1, 12, 4096), {}),
    # dp 8, mbs 2, accumulation 16: B = 2 · 8 · 16 = 256 (EXPECTED: T 524.288).
    ("02_accumulation.yaml", None, (8, 8, 2, 16, 256, 2048), {}),
    # the 8-GPU config launched on 2 × 8: context.py's assertion.
    (
        "03_refused_world_mismatch.yaml",
        LAUNCH,
        (16, 4, 3, 1, None, 4096),
        {"nanotron/world-size": "TP*CP*DP*PP=2*1*1*4=8 != WORLD_SIZE=16"},
    ),
    # pp 4 with 1f1b and one micro-batch: at least PP - 1 = 3 needed.
    (
        "04_refused_1f1b_microbatches.yaml",
        None,
        (8, 2, 3, 1, None, 4096),
        {
            "nanotron/1f1b-microbatches": (
                "Number of microbatches (1) must be at least PP_SIZE-1=3 when using the "
                "OneForwardOneBackwardPipelineEngine"
            )
        },
    ),
    # tp 4 with the example's 2 KV heads: Config.__post_init__.
    (
        "05_refused_tp_above_kv_heads.yaml",
        None,
        (8, 2, 3, 1, None, 4096),
        {"nanotron/kv-heads-below-tp": "num_key_value_heads (2) must be >= tp (4)"},
    ),
    # tokens.global_batch_size is no field of TokensArgs: dacite's UnexpectedDataError.
    (
        "06_refused_unknown_key.yaml",
        None,
        (None, None, None, None, None, None),
        {"nanotron/unknown-key": 'can not match "global_batch_size" to any data class field'},
    ),
    # tp 2 · cp 2 · dp 2: the CP ranks add no samples, B = 4 · 2 · 8 = 64.
    (
        "07_context_parallel.yaml",
        None,
        (8, 2, 4, 8, 64, 4096),
        {"nanotron/context-parallel": None},
    ),
    # tokens.micro_batch_size is required: dacite's MissingValueError.
    (
        "08_refused_missing_micro_batch.yaml",
        None,
        (None, None, None, None, None, None),
        {"nanotron/missing-key": 'missing value for field "tokens.micro_batch_size"'},
    ),
]


@pytest.mark.parametrize(("name", "launch", "expected", "findings"), CASES, ids=[c[0] for c in CASES])
def test_nanotron_uses_what_its_own_code_computes(
    name: str, launch: str | None, expected: tuple[int | None, ...], findings: dict[str, str | None]
) -> None:
    """Detected as Nanotron, the numbers nanotron's config code gives, its refusals quoted verbatim."""
    check = checked(name, launch=launch)
    assert check.framework == "nanotron"
    assert numbers(check) == expected
    assert {f.code: f.message for f in check.findings} == findings


def test_a_world_size_given_from_outside_must_match_the_config() -> None:
    """``--world-size 8`` for the 8-GPU example passes; the answer shows GPUs = TP · PP · CP · DP."""
    check = check_config([Source("c.yaml", (CONFIGS / "01_plain_tiny_llama.yaml").read_text())], World(8, "gpus"))
    shown = plain_text(check_answer(check, Visibility.IN_CHANNEL).document, choices=False)
    assert check.ok
    assert "GPUs = TP · PP · CP · DP = 2 × 1 × 1 × 4 = 8" in shown
    assert "Nanotron: effektive Batch-Größe 12 Sequenzen" in shown


def test_the_refusal_says_how_many_gpus_the_config_wants() -> None:
    """Launched on 16, the answer names the 8 GPUs the config is laid out for."""
    check = checked("03_refused_world_mismatch.yaml", launch=LAUNCH)
    shown = plain_text(check_answer(check, Visibility.IN_CHANNEL).document, choices=False)
    assert "Nanotron bricht ab: Die Konfiguration verlangt TP · PP · CP · DP = 8 GPUs, gestartet wird auf 16." in shown
    assert "Passend wären 8 GPUs." in shown
