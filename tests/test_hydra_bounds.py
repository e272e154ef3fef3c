"""Hydra's defaults composed once per config and package: deep and wide trees answered, trees that multiply refused.

A defaults list is a tree; walked as one, a ladder of configs that each list every config of the next level took
seconds to minutes (29 files of 5,6 KB: 45 s). Nothing here is timed: ``pytest.mark.timeout`` is a hang guard far
above what the composition now takes and far below what the tree walk took.
"""

from __future__ import annotations

import pytest

from effbatch.bot.rendering.checks import problem_text
from effbatch.core.configs import MAX_FILE_BYTES, Check, CheckError, Source, check_config
from effbatch.core.configs.frameworks._shared.hydra import MAX_DEPTH, MAX_WORK

GUARD = pytest.mark.timeout(30)
MAIN = (
    "trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  tensor_model_parallel_size: 1\n"
    "  pipeline_model_parallel_size: 1\n  encoder_seq_length: 4096\n"
)


def _filler(name: str, keys: int) -> str:
    """Settings that are no batch setting, as real configs carry them (optimizer, data, logging)."""
    return f"{name}_settings:\n" + "".join(f"  option_{k}: value {k}\n" for k in range(keys))


def ladder(levels: int, width: int, keys: int = 40) -> dict[str, str]:
    """``main`` lists the ``width`` configs of level 0; each of them lists every config of the next level. The
    deepest configs set the micro-batch (``x + 1``), level 0 the global batch (``48 · (x + 1)``)."""
    files = {}
    for level in range(levels):
        for x in range(width):
            below = [f"l{level + 1}_{y}" for y in range(width)] if level + 1 < levels else []
            own = f"model:\n  micro_batch_size: {x + 1}\n" if level == levels - 1 else ""
            own += f"model:\n  global_batch_size: {48 * (x + 1)}\n" if level == 0 else ""
            listed = "".join(f"  - {name}\n" for name in below)
            files[f"l{level}_{x}.yaml"] = f"defaults:\n{listed}  - _self_\n{own}{_filler(f'l{level}_{x}', keys)}"
    files["main.yaml"] = "defaults:\n" + "".join(f"  - l0_{x}\n" for x in range(width)) + "  - _self_\n" + MAIN
    return files


def multiplying(levels: int) -> dict[str, str]:
    """Each config of a chain lists the next one twice, under two packages (``/c@a``, ``/c@b``): the composed
    config doubles with each level, as it would in Hydra."""
    files = {
        f"c/n{level}.yaml": f"defaults:\n  - /c@a: n{level + 1}\n  - /c@b: n{level + 1}\n  - _self_\nx: {level}\n"
        for level in range(levels)
    }
    files[f"c/n{levels}.yaml"] = "x: last\n"
    files["main.yaml"] = "defaults:\n  - /c@run: n0\n  - _self_\n" + MAIN + "  micro_batch_size: 1\n"
    return files


def chain(levels: int) -> dict[str, str]:
    """``main`` → ``c1`` → … → ``c<levels>``, each listing the next."""
    files = {f"c{level}.yaml": f"defaults:\n  - c{level + 1}\nk{level}: 1\n" for level in range(1, levels)}
    files[f"c{levels}.yaml"] = "model:\n  micro_batch_size: 2\n  global_batch_size: 64\n"
    files["main.yaml"] = "defaults:\n  - c1\n  - _self_\n" + MAIN
    return files


def checked(files: dict[str, str]) -> Check:
    return check_config([Source(name, text) for name, text in files.items()], max_bytes=MAX_FILE_BYTES)


def numbers(check: Check) -> tuple[int | None, ...]:
    """(world, d, b, a, B)."""
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch)


#: Trees whose walk multiplied: each is composed as Hydra merges it, the last config listed winning. The numbers
#: are what hydra-core 1.3.2 composed for ``ladder(3, 3)`` and ``chain(20)`` (same rule, smaller trees).
ANSWERED = [
    # 37 files; 3¹² paths through the tree. Level 0's last config (48 · 3 = 144) and the deepest level's last
    # (b = 3) win: d = 8, a = 144 / (3 · 8) = 6.
    ("wide and deep", ladder(12, 3), (8, 8, 3, 6, 144)),
    # 31 files of 5,6 KB, each level's two configs listing both of the next: the shape that took 45 s.
    ("two wide, fifteen deep", ladder(15, 2, keys=260), (8, 8, 2, 6, 96)),
    # a chain as deep as Hydra configs may nest: d = 8, a = 64 / (2 · 8) = 4.
    ("deepest chain", chain(MAX_DEPTH), (8, 8, 2, 4, 64)),
]


@GUARD
@pytest.mark.parametrize(("files", "expected"), [row[1:] for row in ANSWERED], ids=[row[0] for row in ANSWERED])
def test_a_deep_and_wide_defaults_tree_is_answered(files: dict[str, str], expected: tuple[int, ...]) -> None:
    """A defaults tree with exponentially many paths is composed once per config: NeMo's numbers, no finding."""
    check = checked(files)
    assert check.framework == "nemo"
    assert numbers(check) == expected
    assert not {f.code for f in check.findings} - {"megatron/global-batch-size-default"}


#: Trees no training config needs, each refused with its own German reason.
REFUSED = [
    # 2²⁰ packages: the composed config itself would hold millions of values.
    ("packages multiply", multiplying(20), f"mehr als {MAX_WORK:,} Einträge und Werte".replace(",", ".")),
    ("nested too deep", chain(MAX_DEPTH + 2), f"tiefer als {MAX_DEPTH} Ebenen verschachtelt"),
]


@GUARD
@pytest.mark.parametrize(("files", "said"), [row[1:] for row in REFUSED], ids=[row[0] for row in REFUSED])
def test_a_defaults_tree_too_large_or_too_deep_is_refused(files: dict[str, str], said: str) -> None:
    """The check stops with a German reason naming the primary config and the limit, never a generic error."""
    with pytest.raises(CheckError) as caught:
        checked(files)
    german = problem_text(caught.value)
    assert german.startswith("Die Datei „main.yaml“ lässt sich nicht zusammensetzen: Ihre `defaults:`")
    assert said in german


TP, GLOBAL = "  tensor_model_parallel_size: 1\n", "# @package _global_\n"


def test_a_later_config_s_override_reaches_an_earlier_group() -> None:
    """Hydra expands a defaults list from its last entry: ``exp``'s ``override /parallel: tp2`` chooses the option
    of the ``parallel`` group listed before it. hydra-core 1.3.2 composed TP 2: d = 4, a = 64 / (2 · 4) = 8."""
    check = checked(
        {
            "main.yaml": "defaults:\n  - parallel: tp1\n  - exp\n  - _self_\n" + MAIN.replace(TP, ""),
            "exp.yaml": "defaults:\n  - override /parallel: tp2\n  - _self_\nmodel:\n  micro_batch_size: 2\n"
            "  global_batch_size: 64\n",
            "parallel/tp1.yaml": f"{GLOBAL}model:\n{TP}",
            "parallel/tp2.yaml": f"{GLOBAL}model:\n{TP.replace('1', '2')}",
        }
    )
    assert numbers(check) == (8, 4, 2, 8, 64)
