"""Files a training repository really holds that are no batch config: none is attributed to a framework with an
error, and the pre-commit hook passes on all of them (a false alarm in someone's hook costs us the user).

The corpus in ``tests/data/negatives/`` is our own, written in the shape of the files it names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.bot.serving.cli import main
from effbatch.core.configs import CheckError, Level, ProblemKind, Source, World, check_config

NEGATIVES = sorted(p for p in (Path(__file__).parent / "data" / "negatives").iterdir() if p.is_file())
#: What "not a config of any framework" may look like to the caller.
UNRELATED = {ProblemKind.NOTHING_TO_CHECK, ProblemKind.UNKNOWN_FORMAT, ProblemKind.EMPTY}


def test_the_corpus_is_large_enough() -> None:
    """At least 30 files, as the issue asks."""
    assert len(NEGATIVES) >= 30


@pytest.mark.parametrize("path", NEGATIVES, ids=lambda path: path.name)
def test_no_negative_is_attributed_with_an_error(path: Path) -> None:
    """Either no framework recognises the file, or what one reads raises no error finding."""
    try:
        check = check_config([Source(path.name, path.read_text())], World(8, "--world-size 8"))
    except CheckError as error:
        refused: ProblemKind | None = error.kind
    else:
        refused = None
        assert not [f.code for f in check.findings if f.level is Level.ERROR]
    assert refused is None or refused in UNRELATED


def test_the_pre_commit_hook_passes_on_every_negative(capsys: pytest.CaptureFixture[str]) -> None:
    """``effbatch check --each`` (the hook's entry) exits 0 and says which files it skipped."""
    assert main(["check", "--each", *map(str, NEGATIVES)]) == 0
    err = capsys.readouterr().err
    assert "torchtune_eleuther_eval.yaml: keine Batch-Einstellungen eines Frameworks gefunden – übersprungen" in err


def test_an_unrecognised_file_is_refused_with_what_was_looked_for(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --each: exit 2 and a message naming the frameworks read and --framework."""
    assert main(["check", str(NEGATIVES[0])]) == 2
    err = capsys.readouterr().err
    assert "Ich lese Konfigurationen von accelerate, axolotl, DeepSpeed, " in err  # in alphabetical order
    assert "Hugging Face Trainer" in err
    assert "--framework deepspeed" in err
