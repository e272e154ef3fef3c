"""OLMo-core: its own arithmetic on Python launch scripts in the shape of its ``src/scripts/train/`` (read with ast).

Every fixture in ``tests/data/configs/olmo_core/`` names the script it follows in its first line; the numbers and
messages were obtained by running ai2-olmo-core 3.0.0's own checks on the values the fixture passes
(``build_world_mesh`` with a faked world size, ``TransformerTrainModule.__init__`` and ``pre_train``,
``DataLoaderBase.rank_batch_size``, ``BatchSizeSchedulerCallback.__post_init__``;
/work/research/olmo_core/run_fixtures.py, its output in fixtures/EXPECTED.json). G and R are tokens; B and b
sequences.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World, check_config

CONFIGS = Path(__file__).parent / "data" / "configs" / "olmo_core"
RANK = "rank batch size (in tokens) {} must be divisible by sequence length {}"
GLOBAL = "global batch size ({}) must be divisible by micro-batch size ({}) x DP world size ({})"


def checked(name: str, world: int, text: str | None = None) -> Check:
    source = Source(name, text if text is not None else (CONFIGS / name).read_text())
    return check_config([source], World(world, f"--world-size {world}"))


def numbers(check: Check) -> tuple[int | None, ...]:
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


# (fixture, GPUs, (world, d, b, a, B, L), findings with OLMo-core's own message)
CASES = [
    # template.py: G = 512 · 4096 tokens on 2 × 8 GPUs (HSDP): rank batch 131.072, R = 4 · 4096 → b 4, a 8, B 512.
    ("01_plain_template.py", 16, (16, 16, 4, 8, 512, 4096), {}),
    # OLMo2-13B.py: partial(build_config, global_batch_size=1024 · 4096), R = 16 · common.max_sequence_length.
    (
        "02_refused_global_not_divisible.py",
        128,
        (128, 128, 16, None, None, 4096),
        {"olmo_core/global-batch-divisible": GLOBAL.format("4,194,304", "65,536", 128)},
    ),
    # examples/llm/train.py with rank_microbatch_size=12_000 tokens: refused at the train module's build.
    (
        "03_refused_microbatch_not_multiple.py",
        8,
        (8, None, None, None, None, 1024),
        {
            "olmo_core/microbatch-multiple-of-length": (
                "'rank_microbatch_size' (12,000 tokens) must be divisible by 'max_sequence_length' (1,024 tokens)"
            )
        },
    ),
    # private-olmo.py: 256 · 4096 tokens on 512 GPUs, 2.048 a rank, less than one sequence.
    (
        "04_refused_rank_batch_below_seq.py",
        512,
        (512, 512, 1, None, None, 4096),
        {
            "olmo_core/rank-batch-multiple-of-length": (
                "rank batch size (in tokens) 2048 must be divisible by sequence length 4096"
            )
        },
    ),
    # OLMo2-7B-long-context.py: CP 8 on 64 GPUs, d = 8; R = one 65.536-token sequence, a = 8, B = 64.
    ("05_context_parallel_long.py", 64, (64, 8, 1, 8, 64, 65536), {}),
    # template.py with FSDP and TP 4 on 32 GPUs: d = 8, b = 2, a = 16, B = 256.
    ("06_tensor_parallel.py", 32, (32, 8, 2, 16, 256, 8192), {}),
    # OLMo2-7B.py on 64 GPUs: as written b 2, a 8; on B200 (R doubled) b 4, a 4, still accepted.
    ("07_b200_doubles_microbatch.py", 64, (64, 64, 2, 8, 1024, 4096), {"olmo_core/changed-at-run-time": None}),
    # ... on 512 GPUs: as written a = 1; on B200 OLMo-core refuses the doubled R.
    (
        "07_b200_doubles_microbatch.py",
        512,
        (512, 512, 2, 1, 1024, 4096),
        {"olmo_core/changed-at-run-time-refused": GLOBAL.format("4,194,304", "16,384", 512)},
    ),
    # BatchSizeSchedulerCallback 512·S → 1024·S → 1536·S: 1536 is no whole multiple of 1024.
    (
        "08_batch_size_schedule.py",
        64,
        (64, 64, 2, 4, None, 4096),
        {
            "olmo_core/batch-size-schedule-invalid": (
                "invalid batch size schedule, batch size can only be increased by an integer factor"
            )
        },
    ),
]


@pytest.mark.parametrize(("name", "world", "expected", "findings"), CASES, ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_olmo_core_uses_what_its_own_code_computes(
    name: str, world: int, expected: tuple[int | None, ...], findings: dict[str, str | None]
) -> None:
    """Detected as OLMo-core, the numbers its own checks give, its refusals quoted with its thousands commas."""
    check = checked(name, world)
    assert check.framework == "olmo_core"
    assert numbers(check) == expected
    assert {f.code: f.message for f in check.findings} == findings


def test_a_schedule_that_grows_by_whole_factors_is_shown_in_phases() -> None:
    """[512·S, 1024·S] from 10¹¹ tokens on: phase 2 has B = 1.024 (the research's accepted variant), LR noted."""
    text = (CONFIGS / "08_batch_size_schedule.py").read_text()
    text = text.replace(", 1536 * SEQUENCE_LENGTH]", "]").replace(", Duration.tokens(500_000_000_000)]", "]")
    check = checked("08.py", 64, text)
    assert [(p.start, p.global_batch) for p in check.schedule] == [(0, 512), (100_000_000_000 // 4096, 1024)]
    assert {f.code for f in check.findings} == {"olmo_core/batch-size-schedule"}


def test_the_keyword_passed_wins_over_a_constant_that_is_not() -> None:
    """template.py defines RANK_MICROBATCH_SIZE = 8 · S but passes 16 · S: the keyword is read."""
    text = (CONFIGS / "01_plain_template.py").read_text()
    text = text.replace("rank_microbatch_size=RANK_MICROBATCH_SIZE", "rank_microbatch_size=2 * SEQUENCE_LENGTH")
    assert checked("t.py", 16, text).micro_batch == 2


def test_a_value_computed_at_run_time_is_named() -> None:
    """A ladder's ``args.rank_mbz * args.sequence_length`` cannot be read without running it: the error names it."""
    text = (CONFIGS / "01_plain_template.py").read_text()
    text = text.replace("rank_microbatch_size=RANK_MICROBATCH_SIZE", "rank_microbatch_size=args.rank_mbz * 4096")
    with pytest.raises(CheckError) as raised:
        checked("ladder.py", 16, text)
    assert raised.value.kind is ProblemKind.BAD_VALUE
    assert raised.value.ctx["value"] == "args.rank_mbz * 4096"


def test_the_answer_says_tokens_become_sequences() -> None:
    """The formulas turn OLMo-core's tokens into sequences."""
    shown = plain_text(check_answer(checked("01_plain_template.py", 16), Visibility.IN_CHANNEL).document)
    assert "B = global_batch_size / L = 2.097.152 / 4.096 = 512 Sequenzen" in shown
    assert "a = global_batch_size / (d · rank_microbatch_size) = 2.097.152 / (16 · 16.384) = 8" in shown


# relace's train_300M_1B.py (TimurKhayrullin/OLMo-core@666b653): the length from an argparse namespace that
# ``parse_known_args()`` returns inside a function and ``main()`` hands to ``build_config``.
ARGPARSE = """import argparse
from olmo_core.data import NumpyDataLoaderConfig, NumpyFSLDatasetConfig
from olmo_core.train.train_module import TransformerTrainModuleConfig


def build_config(opts):
    NumpyFSLDatasetConfig(paths=[], sequence_length=opts.sequence_length)
    NumpyDataLoaderConfig(global_batch_size=1024 * 1024)
    TransformerTrainModuleConfig(rank_microbatch_size=16 * 1024, max_sequence_length=opts.sequence_length)


def parser_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("run_name", type=str)
    parser.add_argument("--sequence-length", type=int, default=2048)
    opts, overrides = parser.parse_known_args()
    return opts, overrides


def main():
    opts, overrides = parser_args()
    build_config(opts)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize(
    ("launch", "expected"),
    [
        # no launch line: argparse's default 2048 → B = 2^20 / 2048 = 512, b = 16.384 / 2048 = 8, a = 512 / 8 = 64
        (None, (1, 1, 8, 64, 512, 2048)),
        # the launch line's flag wins: L = 4096 → B 256, b 4, a 64
        ("torchrun --nproc-per-node=1 train.py run1 --sequence-length 4096\n", (1, 1, 4, 64, 256, 4096)),
        # argparse's unambiguous prefix of a long option, with ``=``: L = 1024 → B 1.024, b 16, a 64
        ("torchrun --nproc-per-node=1 train.py run1 --seq=1024 trainer.max_duration=1\n", (1, 1, 16, 64, 1024, 1024)),
    ],
)
def test_an_argparse_default_or_the_launch_lines_flag_is_the_length(
    launch: str | None, expected: tuple[int | None, ...]
) -> None:
    """``max_sequence_length=opts.sequence_length``: argparse's default, or the flag the launch line passes."""
    sources = [Source("train.py", ARGPARSE)] + ([Source("run.sh", launch)] if launch else [])
    check = check_config(sources, World(1, "--world-size 1"))
    assert check.framework == "olmo_core"
    assert numbers(check) == expected


def test_a_flag_argparse_would_refuse_is_named_not_guessed() -> None:
    """``--sequence-length 2k``: argparse's ``int`` refuses it, so the length is unknown and the error names it."""
    sources = [Source("train.py", ARGPARSE), Source("run.sh", "python train.py run1 --sequence-length 2k\n")]
    with pytest.raises(CheckError) as raised:
        check_config(sources, World(1, "--world-size 1"))
    assert raised.value.ctx["value"] == "opts.sequence_length"


# (what the script writes in place of template.py's values, GPUs, (world, d, b, a, B, L), findings)
EVALUATED = [
    # Python's builtins over constants: R = max(2, 1) · S → b = 2, a = 512 / (16 · 2) = 16
    (
        {"RANK_MICROBATCH_SIZE = 4 * SEQUENCE_LENGTH": "RANK_MICROBATCH_SIZE = max(2, 1) * SEQUENCE_LENGTH"},
        16,
        (16, 16, 2, 16, 512, 4096),
        {},
    ),
    # a float constant as Python has it: int(2e6) // 4096 · 4096 = 488 sequences, 30,5 a rank: refused
    (
        {"512 * SEQUENCE_LENGTH\n": "int(2e6) // SEQUENCE_LENGTH * SEQUENCE_LENGTH\n"},
        16,
        (16, 16, 4, None, None, 4096),
        {"olmo_core/rank-batch-multiple-of-length": RANK.format(124928, 4096)},
    ),
    # HSDP replicas from the world the launch gives: get_world_size() // 3 = 5 on 16 GPUs does not divide d = 16
    (
        {
            "from olmo_core.optim": "from olmo_core.distributed.utils import get_world_size\nfrom olmo_core.optim",
            "name=DataParallelType.hsdp)": "name=DataParallelType.hsdp, num_replicas=get_world_size() // 3)",
        },
        16,
        (16, None, 4, None, None, 4096),
        {"olmo_core/hsdp-degree": "data parallel world size (16) must be divisible by 'num_replicas' (5)"},
    ),
]


@pytest.mark.parametrize(("changes", "world", "expected", "findings"), EVALUATED, ids=["max", "float", "world"])
def test_the_scripts_arithmetic_is_pythons(
    changes: dict[str, str], world: int, expected: tuple[int | None, ...], findings: dict[str, str]
) -> None:
    """The script's values are what Python computes from them (the Python reader's one evaluator), the world size
    ``get_world_size()`` returns included."""
    text = (CONFIGS / "01_plain_template.py").read_text()
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    check = checked("t.py", world, text)
    assert numbers(check) == expected
    assert {f.code: f.message for f in check.findings} == findings
