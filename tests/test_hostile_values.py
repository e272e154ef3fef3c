"""Values no run can use – zero, negative, degrees above the GPUs – get an answer from every framework's check, never a
traceback (which Slack words as „es lag nicht an deiner Eingabe“ although it did).

Every config fixture (one set per framework, ``tests/data/configs``) with each of its first integers replaced by 0, -1
and 64, checked with the world size unknown and given; and the layouts whose parallel degrees exceed the GPUs, each
with the finding that names the framework's own refusal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_configs import ABOVE_THE_GPUS, hostile_values

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer, problem_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.check_command import check_request
from effbatch.core.configs import FRAMEWORK_IDS, CheckError, Source, World, check_config

FIXTURES = Path(__file__).parent / "data" / "configs"
#: Each framework's fixtures, by folder (the files beside them on their own).
GROUPS = sorted({path.parent.name if path.parent != FIXTURES else path.name for path in FIXTURES.rglob("*.*")})


def answered(name: str, text: str, world: int | None) -> str:
    """What a user receives for ``text``: the check's answer, or why it cannot be checked (both as text)."""
    try:
        check = check_config([Source(name, text)], World(world, "--world-size") if world else None)
    except CheckError as error:
        return plain_text(problem_answer(error).document)
    return plain_text(check_answer(check, Visibility.EPHEMERAL).document)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("group", GROUPS)
def test_every_framework_answers_zero_and_negative_values(group: str) -> None:
    """Each fixture with a 0, a -1 or a 64 in place of each of its integers: an answer or a German problem, and no
    exception escapes the check or its layout."""
    paths = [FIXTURES / group] if (FIXTURES / group).is_file() else sorted((FIXTURES / group).rglob("*.*"))
    for path in paths:
        if path.suffix == ".md":
            continue
        for text in hostile_values(path.read_text(encoding="utf-8")):
            for world in (None, 8):
                assert answered(path.name, text, world)


EXPECTED = {
    "LitGPT: more nodes than processes": "num_nodes = 4 Maschinen, aber nur 2 Prozesse",
    "OpenRLHF: ring attention × TP above the actor's GPUs": "Ring-Attention 2 × Tensor-Parallelität 2",
    "verl: Ulysses SP 2 on one GPU": "Ulysses-Sequenz-Parallelität 2 braucht mindestens 2 GPUs",
    "verl: Megatron TP · PP above the GPUs, dynamic batch": "8 GPUs lassen sich nicht durch TP · PP = 16",
    "MaxText: a zero tensor axis": "Unspecified value unable to be determined",
    "MaxText: zero pipeline micro-batches": "num_pipeline_microbatches must be positive",
}


@pytest.mark.parametrize("case", sorted(ABOVE_THE_GPUS))
def test_a_layout_beyond_the_gpus_is_the_frameworks_refusal(case: str) -> None:
    """More nodes, or larger model-parallel degrees, than the run has GPUs: the framework refuses to start, and the
    answer says so with the values it was given."""
    name, text, world = ABOVE_THE_GPUS[case]
    shown = answered(name, text, world)
    assert "bricht ab" in shown
    assert EXPECTED[case] in shown


@pytest.mark.parametrize("word", ["gpus=²", "gpus=٨", "nodes=³"])
def test_a_world_size_in_other_digits_is_no_world_size(word: str) -> None:
    """``prüfe gpus=²``: a superscript or Arabic-Indic digit (a digit to ``str.isdigit``, none to ``int``) sets no world
    size and raises nothing; the word stays part of the text."""
    request = check_request(f"prüfe {word} micro_batch_size: 4")
    assert request.world is None
    assert request.text.startswith(word)


def test_the_fixtures_cover_every_framework() -> None:
    """The hostile values above reach every registered framework's check: each is the one some fixture is read as."""
    seen = set()
    for path in FIXTURES.rglob("*.*"):
        if path.suffix == ".md":
            continue
        try:
            seen.add(check_config([Source(path.name, path.read_text(encoding="utf-8"))], World(8, "8")).framework)
        except CheckError:
            continue
    assert seen >= set(FRAMEWORK_IDS)
