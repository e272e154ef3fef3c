"""``source FILE`` and ``. FILE`` against real bash: the sourced file's assignments are the sourcing script's.

Each row is run by bash (``bash_oracle``: the script as ``script.sh``, the row's files beside it, bash started in
that folder as a launch from the repository's root would be) and read by the reader with the same files as the
sources it was given; the reader's value must be bash's, or named unknown where the row says so. Generated
scripts do the same with a generated file sourced from a generated script. Then the check on a small fixture:
a launch script that takes its per-device batch from a sourced setup file.
"""

from __future__ import annotations

import pytest
from bash_oracle import Value, compare, ours, run_bash
from bash_scripts import ALL, prelude, statements
from check_numbers import numbers, shown
from examples_budget import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from effbatch.core.configs import CheckError, Source, check_config
from effbatch.core.configs.shell import MAX_SOURCE_DEPTH, Sources, alternatives, reading

SETUP = (
    "GLOBAL=${GLOBAL:-$DEFAULT_GLOBAL}\nNNODES=${SLURM_JOB_NUM_NODES:-1}\nGPUS_PER_NODE=${GPUS:-8}\n"
    "ACCUMULATION=${ACCUMULATION:-2}\nPER_DEVICE=$((GLOBAL / (NNODES * GPUS_PER_NODE * ACCUMULATION)))\n"
)

# (script, files beside it, variable, bash's value, the reader's where it differs: None = named unknown)
CASES: list[tuple[str, dict[str, str], str, Value, Value | None]] = [
    # what the sourced file sets is the script's, arithmetic included
    ("source lib.sh\nX=$((G / N))", {"lib.sh": "G=512\nN=8\n"}, "X", ("S", "64"), ("S", "64")),
    (". ./lib.sh\nX=$((G / N))", {"lib.sh": "G=512\nN=8\n"}, "X", ("S", "64"), ("S", "64")),
    # the path from the launch's folder (the repository's root), folders deep; the file sees the script's values
    (
        "DEFAULT_GLOBAL=2048\nsource scripts/setups/train.sh",
        {"scripts/setups/train.sh": SETUP},
        "PER_DEVICE",
        ("S", "128"),
        ("S", "128"),
    ),
    (
        'DEFAULT_GLOBAL=512\nsource "conf/setup.sh"\nB=$PER_DEVICE',
        {"conf/setup.sh": SETUP},
        "B",
        ("S", "32"),
        ("S", "32"),
    ),
    # a file sourced by a sourced file
    (
        "source a.sh\nX=$((A * B))",
        {"a.sh": "A=3\nsource b.sh\n", "b.sh": "B=$((A + 1))\n"},
        "X",
        ("S", "12"),
        ("S", "12"),
    ),
    # return ends the file (its status $?), the script goes on; exit ends the script
    ("source lib.sh\nY=$?", {"lib.sh": "X=1\nreturn 3\nX=2\n"}, "X", ("S", "1"), ("S", "1")),
    ("source lib.sh\nY=$?", {"lib.sh": "X=1\nreturn 3\nX=2\n"}, "Y", ("S", "3"), ("S", "3")),
    ("source lib.sh\nX=1", {"lib.sh": "Y=2\nexit 0\n"}, "X", ("U",), ("U",)),
    # words after the file are its $1 … while it runs; without them it shares the script's (shift included)
    ("set -- a b c\nsource lib.sh 4 2\nY=$#", {"lib.sh": "X=$(( $1 * $2 ))\n"}, "X", ("S", "8"), ("S", "8")),
    ("set -- a b c\nsource lib.sh 4 2\nY=$#", {"lib.sh": "X=$(( $1 * $2 ))\n"}, "Y", ("S", "3"), ("S", "3")),
    ("set -- 5 6\nsource lib.sh\nY=$1", {"lib.sh": "X=$1\nshift\n"}, "Y", ("S", "6"), ("S", "6")),
    # functions it defines and readonly variables it makes are the script's
    ("source lib.sh\nf\nY=$X", {"lib.sh": "f() { X=7; }\n"}, "Y", ("S", "7"), ("S", "7")),
    ("source lib.sh\nR=5", {"lib.sh": "readonly R=1\n"}, "R", ("S", "1"), ("S", "1")),
    # an error bash reports ends the file's line; the file and the script go on
    ("source lib.sh; W=3", {"lib.sh": "X=$((1/0)); Y=1\nZ=2\n"}, "W", ("S", "3"), ("S", "3")),
    ("source lib.sh; W=3", {"lib.sh": "X=$((1/0)); Y=1\nZ=2\n"}, "Z", ("S", "2"), ("S", "2")),
    ("source lib.sh; W=3", {"lib.sh": "X=$((1/0)); Y=1\nZ=2\n"}, "Y", ("U",), ("U",)),
    # a sourced file that is not there: bash goes on, the reader reads nothing from it
    ("MB=4\nsource missing.sh\nX=$MB", {"lib.sh": "MB=2\n"}, "X", ("S", "4"), ("S", "4")),
    # ``return`` in a shell of its own (``bash -c``) ends no sourced file; ``eval return`` ends it
    ("source lib.sh", {"lib.sh": "bash -c 'return'\nX=1\n"}, "X", ("S", "1"), ("S", "1")),
    ("source lib.sh", {"lib.sh": "eval return\nX=1\n"}, "X", ("U",), ("U",)),
    # inside a function, ``return`` in the sourced file ends the file, not the function
    ("f() { source lib.sh; Y=2; }\nf", {"lib.sh": "return\nX=1\n"}, "Y", ("S", "2"), ("S", "2")),
    # in a subshell what it sets stays there
    ("MB=4\n( source lib.sh )\nX=$MB", {"lib.sh": "MB=2\n"}, "X", ("S", "4"), ("S", "4")),
    # X=1 source FILE: the file sees X=1 (its other assignments stay); after it, X is what it was before
    ("X=1 source lib.sh\nA=$Y", {"lib.sh": "Y=$((X * 2))\n"}, "A", ("S", "2"), ("S", "2")),
    ("X=1 source lib.sh", {"lib.sh": "Y=$((X * 2))\n"}, "X", ("U",), ("U",)),
    ("X=7 source lib.sh\nC=$Z", {"lib.sh": "Z=$X\nX=5\n"}, "C", ("S", "7"), ("S", "7")),
    ("X=7 source lib.sh", {"lib.sh": "Z=$X\nX=5\n"}, "X", ("U",), ("U",)),  # the file's own X=5 undone too
    ("X=2\nX=9 . ./lib.sh\nE=$X", {"lib.sh": "F=$((X * 2))\n"}, "E", ("S", "2"), ("S", "2")),
    ("X=2\nX=9 . ./lib.sh", {"lib.sh": "F=$((X * 2))\n"}, "F", ("S", "18"), ("S", "18")),
]


@pytest.mark.parametrize(("script", "files", "name", "bash", "reader"), CASES)
def test_a_sourced_file_sets_what_bash_sets(
    script: str, files: dict[str, str], name: str, bash: Value, reader: Value | None
) -> None:
    """Each row: bash's value as written down, and the reader's (bash's, or named unknown) with the same files."""
    assert run_bash(script, [name], files=files).values[name] == bash
    read = reading(script, sources=Sources({"script.sh": script, **files}, "script.sh"))
    assert ours(read, name) == reader


def test_without_the_file_among_the_sources_the_value_stays_unresolved() -> None:
    """The same script given alone: the per-device batch is not invented, it stays as written."""
    script = "DEFAULT_GLOBAL=2048\nsource scripts/setups/train.sh\nrun --bs $PER_DEVICE\n"
    assert [c.words for c in reading(script).script.commands][-1] == ("run", "--bs", "$PER_DEVICE")


# (sources given: name → text, the sourcing script's name, what the reader reads of PER_DEVICE in each alternative)
WHICH = [
    # given by its name alone, in another folder than the path says: the one file that ends as the path does
    ({"case/run.sh": "source scripts/setups/train.sh", "case/train.sh": "PER_DEVICE=4"}, ["4"]),
    # the exact path from the root wins over a file that only ends alike
    ({"case/run.sh": "source lib/train.sh", "lib/train.sh": "PER_DEVICE=4", "x/train.sh": "PER_DEVICE=9"}, ["4"]),
    # beside the sourcing script
    ({"case/run.sh": "source ./train.sh", "case/train.sh": "PER_DEVICE=4", "x/train.sh": "PER_DEVICE=9"}, ["4"]),
    # more folders in common decide
    ({"run.sh": "source a/b/t.sh", "q/b/t.sh": "PER_DEVICE=4", "z/t.sh": "PER_DEVICE=9"}, ["4"]),
    # a path only the run knows in part: matched by what follows its last unknown folder
    ({"run.sh": 'source "$(dirname "$0")/t.sh"', "t.sh": "PER_DEVICE=4"}, ["4"]),
    # two files equally good: an undecided choice, each alternative read
    ({"run.sh": "source s/t.sh", "a/t.sh": "PER_DEVICE=4", "b/t.sh": "PER_DEVICE=9"}, ["4", "9"]),
    # none: not followed
    ({"run.sh": "source s/t.sh", "a/u.sh": "PER_DEVICE=4"}, [None]),
]


@pytest.mark.parametrize(("files", "values"), WHICH)
def test_the_source_meant_is_the_one_bash_reads_else_a_named_choice(
    files: dict[str, str], values: list[str | None]
) -> None:
    """Which source a ``source`` path names: exact from the launch's folder, else the best ending; a tie is a
    choice the alternatives enumerate (``Script.undecided`` names the line), never a silent pick."""
    name = next(iter(files))
    found = alternatives(files[name], sources=Sources(files, name))
    assert [a.script.variables.get("PER_DEVICE") for a in found] == values
    first = reading(files[name], sources=Sources(files, name)).script
    assert bool(first.undecided) == (len(values) > 1)


def test_a_file_sourcing_itself_is_bounded() -> None:
    """A file that sources itself without end: the reader stops at its depth bound and names it."""
    files = {"run.sh": "source run.sh\n"}
    with pytest.raises(CheckError) as raised:
        reading(files["run.sh"], sources=Sources(files, "run.sh"))
    assert (raised.value.ctx["detail"], raised.value.ctx["max"]) == ("shell_nesting", MAX_SOURCE_DEPTH)


def test_a_guarded_file_is_read_once() -> None:
    """The usual guard (``[ -n "$LOADED" ] && return``) keeps a file sourced twice from setting its values twice
    (the script empties ``LOADED`` first: else the environment could have set it, a condition the reader names)."""
    lib = '[ -n "$LOADED" ] && return\nLOADED=1\nN=$((N + 1))\n'
    script = "N=0\nLOADED=\nsource lib.sh\nsource lib.sh\n"
    assert run_bash(script, ["N"], files={"lib.sh": lib}).values["N"] == ("S", "1")
    assert ours(reading(script, sources=Sources({"script.sh": script, "lib.sh": lib}, "script.sh")), "N") == ("S", "1")


@pytest.mark.timeout(300)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prelude(), statements(), statements(), st.sampled_from(["source lib.sh", ". ./lib.sh", "source lib.sh 3 5"]))
def test_what_the_reader_decides_of_a_sourced_file_is_what_bash_does(
    head: str, before: str, lib: str, line: str
) -> None:
    """Generated: a generated file sourced from a generated script (after the prelude that sets every variable);
    every variable the reader knows is bash's, every ``run`` command it decides is bash's."""
    event(compare(f"{head}{before}\n{line}\nGBS=$MB\n", ALL, {"lib.sh": lib + "\n"}))


SFT = (
    "DEFAULT_GLOBAL=1024\nsource scripts/setups/train.sh\n"
    "torchrun --nnodes=$NNODES --nproc_per_node=$GPUS_PER_NODE train.py --deepspeed ds.json \\\n"
    "    --per_device_train_batch_size $PER_DEVICE --gradient_accumulation_steps $ACCUMULATION\n"
)
DS = '{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"}'


def test_the_check_takes_the_batch_from_the_sourced_setup() -> None:
    """A launch script whose per-device batch the sourced setup file computes: the check's micro batch,
    accumulation and global batch are bash's (1024 / (1 × 8 × 2) = 64 per device)."""
    sources = [Source("sft.sh", SFT), Source("train.sh", SETUP), Source("ds.json", DS)]
    assert numbers(check_config(sources))[:5] == (8, 8, 64, 2, 1024)


def test_two_files_a_source_line_may_read_are_both_checked() -> None:
    """``source scripts/setups/train.sh`` with two ``train.sh`` among the sources: never one silently; both are
    checked and the answer names the line and both batches."""
    sources = [
        Source("sft.sh", SFT),
        Source("a/train.sh", SETUP),
        Source("b/train.sh", SETUP.replace("$DEFAULT_GLOBAL", "512")),
        Source("ds.json", DS),
    ]
    check = check_config(sources)
    [finding] = [f for f in check.findings if f.code.startswith("script/")]
    assert finding.code == "script/branches-differ"
    text = shown(check)
    assert "Ab Zeile 2 von sft.sh verzweigt das Skript je nach source scripts/setups/train.sh" in text
    assert "trainiert der Lauf mit B = 512 oder B = 1.024" in text
