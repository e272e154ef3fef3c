"""The shell reader against real bash: what it says it knows is bash's value; what it cannot decide it names.

Two parts. A table of hand-written cases (the measured classes and bash's rules), each with
the value GNU bash 5.2.15 gives, written down and checked against the bash on this machine as the test runs.
And a differential test: hypothesis writes scripts from the part of bash the reader decides
(``bash_scripts``), bash runs each (``bash_oracle``: empty environment, a temporary folder, a timeout) and the
reader reads it; for every variable the reader does not name unknown, its value must be bash's, and where it
decides every ``run`` command, their words must be the words bash passed.
"""

from __future__ import annotations

import pytest
from bash_oracle import Value, compare, decided_runs, ours, run_bash
from bash_scripts import ALL, scripts
from examples_budget import examples
from hypothesis import HealthCheck, event, given, settings

from effbatch.core.configs import CheckError
from effbatch.core.configs.shell import reading

# (script, variable, bash's value: ("S", text) a scalar, ("A", *elements) an array, ("U",) unset; the reader's
# where it differs from bash's: None = it names the variable unknown).
CASES: list[tuple[str, str, Value, Value | None]] = [
    # a leading unary operator applies to its operand only; ** groups from the right
    ("X=$(( -2 * 3 + 10 ))", "X", ("S", "4"), ("S", "4")),
    ("X=$(( !0 + 1 ))", "X", ("S", "2"), ("S", "2")),
    ("X=$(( 2 ** 3 ** 2 ))", "X", ("S", "512"), ("S", "512")),
    ("X=$(( -2 ** 2 ))", "X", ("S", "4"), ("S", "4")),
    ("X=$(( ~1 + 1 << 2 ))", "X", ("S", "-4"), ("S", "-4")),
    # ?: and assignments group from the right; , gives its last value; && and || skip their right side
    ("X=$(( 1 ? 2 : 0 ? 3 : 4 ))", "X", ("S", "2"), ("S", "2")),
    ("A=1\nX=$(( B = A += 2 ))", "B", ("S", "3"), ("S", "3")),
    ("X=$(( A = 5, A * 2 ))", "X", ("S", "10"), ("S", "10")),
    ("A=1\nX=$(( 0 && (A = 7) ))", "A", ("S", "1"), ("S", "1")),
    # bash's 64 bits: from 2**63 on bash wraps around; the reader refuses the script (CheckError), never wraps
    ("X=$(( 2 ** 62 ))", "X", ("S", "4611686018427387904"), ("S", "4611686018427387904")),
    # a shift's count is taken modulo 64 (x86-64 and arm64 alike), a negative one too; bits shifted out are lost
    ("X=$(( (256 >> 64) + 256 ))", "X", ("S", "512"), ("S", "512")),
    ("X=$(( 1 << 63 ))", "X", ("S", "-9223372036854775808"), ("S", "-9223372036854775808")),
    ("X=$(( 1 << 65 ))", "X", ("S", "2"), ("S", "2")),
    ("X=$(( 1 << -1 ))", "X", ("S", "-9223372036854775808"), ("S", "-9223372036854775808")),
    ("X=$(( 256 >> -1 ))", "X", ("S", "0"), ("S", "0")),
    ("X=$(( -256 >> 2 ))", "X", ("S", "-64"), ("S", "-64")),
    ("X=$(( -1 >> 70 ))", "X", ("S", "-1"), ("S", "-1")),
    ("X=$(( 3 << 62 ))", "X", ("S", "-4611686018427387904"), ("S", "-4611686018427387904")),
    ("X=1\n(( X <<= 64 ))", "X", ("S", "1"), ("S", "1")),
    # the smallest number divided by -1 stays itself (its remainder 0); C's remainder takes the dividend's sign
    (
        "M=$(( -9223372036854775807 - 1 ))\nX=$(( M / -1 ))",
        "X",
        ("S", "-9223372036854775808"),
        ("S", "-9223372036854775808"),
    ),
    ("M=$(( -9223372036854775807 - 1 ))\nX=$(( M % -1 ))", "X", ("S", "0"), ("S", "0")),
    ("M=$(( -9223372036854775807 - 1 ))\nX=$(( M >> 63 ))", "X", ("S", "-1"), ("S", "-1")),
    ("X=$(( -7 % 3 ))", "X", ("S", "-1"), ("S", "-1")),
    ("X=$(( 7 % -3 ))", "X", ("S", "1"), ("S", "1")),
    ("X=$(( -7 / 2 ))", "X", ("S", "-3"), ("S", "-3")),
    # an error in $(( )) ends the line it is on; the script goes on (an error in (( )) only fails that command)
    ("X=$(( 1 / 0 )); Y=1\nZ=2", "Y", ("U",), ("U",)),
    ("X=$(( 1 / 0 )); Y=1\nZ=2", "Z", ("S", "2"), ("S", "2")),
    ("(( 1 / 0 )); Y=$?", "Y", ("S", "1"), ("S", "1")),
    ("X=$(( 08 )); Y=1", "Y", ("U",), ("U",)),
    # a subshell, a pipeline stage and local do not leak their assignments
    ("MB=4; ( MB=2 )", "MB", ("S", "4"), ("S", "4")),
    ("MB=4\nMB=2 | true", "MB", ("S", "4"), ("S", "4")),
    ("MB=4\n{ MB=2; } | true", "MB", ("S", "4"), ("S", "4")),
    ("MB=4\nf() { local MB=2; }\nf", "MB", ("S", "4"), ("S", "4")),
    ("MB=4\nf() { declare MB=2; }\nf", "MB", ("S", "4"), ("S", "4")),
    ("f() { export MB=2; }\nf", "MB", ("S", "2"), ("S", "2")),
    ("MB=4\nf() { local MB; X=${MB-unset}; }\nf", "X", ("S", "unset"), ("S", "unset")),
    ("MB=4\nf() { MB=5; }\nMB=9 f", "MB", ("S", "4"), ("S", "4")),
    # return ends a function, and its number is $?
    ("f() { X=1; return 3; X=2; }\nf; Y=$?", "X", ("S", "1"), ("S", "1")),
    ("f() { X=1; return 3; X=2; }\nf; Y=$?", "Y", ("S", "3"), ("S", "3")),
    ("return; X=1", "X", ("S", "1"), ("S", "1")),
    # ;& runs the next body, ;;& tests the items after it
    ("case a in a) X=1 ;& b) X=2 ;; c) X=3 ;; esac", "X", ("S", "2"), ("S", "2")),
    ("case a in a) X=1 ;;& a*) Y=2 ;; *) Y=3 ;; esac", "Y", ("S", "2"), ("S", "2")),
    # a group's status is its last command's
    ("true && { X=2; false; } || X=3", "X", ("S", "3"), ("S", "3")),
    ("false || { X=2; true; } && X=4", "X", ("S", "4"), ("S", "4")),
    # readonly keeps its value; an assignment to it ends the line, a builtin's only fails
    ("readonly R=1\nR=2; A=1", "R", ("S", "1"), ("S", "1")),
    ("readonly R=1\nR=2; A=1", "A", ("U",), ("U",)),
    ("readonly R=1\nexport R=2; A=1", "A", ("S", "1"), ("S", "1")),
    ("readonly R=1\nunset R", "R", ("S", "1"), ("S", "1")),
    ("readonly R=1\n(( R = 5 )); A=$?", "A", ("S", "1"), ("S", "1")),
    # loops with literal bounds run pass by pass
    ("S=0\nfor i in 1 2 3; do S=$((S + i)); done", "S", ("S", "6"), ("S", "6")),
    ("N=1\nfor (( i = 0; i < 4; i++ )); do N=$((N * 2)); done", "N", ("S", "16"), ("S", "16")),
    ("i=0\nwhile [ $i -lt 3 ]; do i=$((i + 1)); done", "i", ("S", "3"), ("S", "3")),
    ("i=0\nuntil (( i >= 5 )); do (( i += 2 )); done", "i", ("S", "6"), ("S", "6")),
    ("for i in 1 2 3; do for j in a b; do X=$i$j; break 2; done; done", "X", ("S", "1a"), ("S", "1a")),
    ("for i in 1 2 3; do [ $i = 2 ] && continue; X+=$i; done", "X", ("S", "13"), ("S", "13")),
    # beyond the loop's share of the step budget: named (unknown), not guessed; the loops after it still run
    ("i=0\nwhile (( i < 100000 )); do (( i++ )); done", "i", ("S", "100000"), None),
    ("i=0\nwhile (( i < 100000 )); do (( i++ )); done\nfor j in 1 2 3; do k=$j; done", "k", ("S", "3"), ("S", "3")),
    # a readonly loop variable ends the loop with status 1; a refused assignment still expands its value
    ("readonly A=1\nfor A in 2 3; do :; done || X=$?", "X", ("S", "1"), ("S", "1")),
    ("readonly B=1\nA=0\nreadonly B=$(( A++ ))", "A", ("S", "1"), ("S", "1")),
    # each stage of a pipeline starts with the $? before it
    ("false\n{ true; } | { X=$?; (( X == 1 )); }\nY=$?", "Y", ("S", "0"), ("S", "0")),
    # a loop over what only the run knows (here nothing: the arguments) is read once, what it assigns unknown
    ("X=1\nfor a; do X=$a; done", "X", ("S", "1"), None),
    # an array takes a scalar assignment as its first element; a gap after its last element is named
    ("A=(1 2)\nA=5", "A", ("A", "5", "2"), ("A", "5", "2")),
    ("A=(1 2)\nA[5]=x\nA[3]=y", "A", ("A", "1", "2", "y", "x"), None),
    # the blanks between expansions in "…" are the string's (tree-sitter-bash gives them to the `$`)
    ('A="x y"\nB="p q"\nX="$A $B"', "X", ("S", "x y p q"), ("S", "x y p q")),
    ('A=(a b)\nB=(c d)\nX="${A[@]} \\\n  ${B[@]}"', "X", ("S", "a b   c d"), ("S", "a b   c d")),
    ('A=1\nX="$(( A + 1 )) $A  ${A}\t$A"', "X", ("S", "2 1  1\t1"), ("S", "2 1  1\t1")),
]


@pytest.mark.parametrize(("script", "name", "bash", "reader"), CASES)
def test_the_reader_says_what_bash_does(script: str, name: str, bash: Value, reader: Value | None) -> None:
    """Each hand-written case: bash's value as written down, and the reader's (bash's, or named unknown)."""
    assert run_bash(script, [name]).values[name] == bash
    assert ours(reading(script), name) == reader


# (script, the words it is started with, variable, bash's value; the reader's is the same)
ARGUMENT_CASES: list[tuple[str, tuple[str, ...], str, Value]] = [
    ("N=$1; G=$2; X=$[ 256 / N / G ]", ("2", "8"), "X", ("S", "16")),  # $[ ] is $(( )): integer, floored
    ("X=$[ $1 * 7 / 2 ]", ("3",), "X", ("S", "10")),
    ("X=$#; Y=${3:-none}", ("a", "b"), "Y", ("S", "none")),
    ("shift; X=$1; N=$#", ("a", "b", "c"), "X", ("S", "b")),
    ("shift 5; X=$?; Y=$1", ("a", "b"), "Y", ("S", "a")),  # more than there are: status 1, nothing shifted
    ('X="$*"; set -- p "q r"; Y=$2', ("a", "b"), "Y", ("S", "q r")),
    ("f() { X=$2; Y=$#; }; f u v w; Z=$1", ("a",), "Z", ("S", "a")),  # a function's words are its own
    ("for a; do X+=$a; done", ("1", "2", "3"), "X", ("S", "123")),
    (
        "while [[ $# -gt 0 ]]; do case $1 in --nodes) N=$2; shift 2;; *) shift;; esac; done",
        ("--x", "--nodes", "4"),
        "N",
        ("S", "4"),
    ),
]


@pytest.mark.parametrize(("script", "arguments", "name", "bash"), ARGUMENT_CASES)
def test_a_script_started_with_words_reads_them_as_bash(
    script: str, arguments: tuple[str, ...], name: str, bash: Value
) -> None:
    """``bash script.sh 2 8``: ``$1`` …, ``$#``, ``$@``, ``shift``, ``set --``, a function's words and ``$[ … ]``
    give bash's values; started with words only the run knows, the reader names what depends on them."""
    assert run_bash(script, [name], arguments=arguments).values[name] == bash
    assert ours(reading(script, arguments=arguments), name) == bash
    alone = reading(script)  # started by nobody among the sources: unknown, or a branch the start decides
    assert ours(alone, name) in (None, bash) or alone.script.undecided


@pytest.mark.parametrize(
    "expression",
    [
        "-9223372036854775808 / -1",  # the constant 9223372036854775808 is beyond 64 bits before it is negated
        "9223372036854775807 + 1",
        "2 ** 63",
    ],
)
def test_a_value_beyond_64_bits_is_refused_never_wrapped(expression: str) -> None:
    """Where bash wraps around its 64 bits, the reader refuses the script (a bound it names) instead of guessing."""
    with pytest.raises(CheckError) as raised:
        reading(f"X=$(( {expression} ))")
    assert raised.value.ctx["detail"] == "shell_long_number"


# (script, the ``run`` commands bash runs: their words; the reader's are the same)
RUNS: list[tuple[str, list[tuple[str, ...]]]] = [
    # a comment line ends a continued command: the flags below it never reach the program, and bash runs the next
    # lines as a command of their own (``--micro-batch-size: command not found``, status 127)
    (
        "run pretrain_gpt.py \\\n    --global-batch-size 256 \\\n    # --rampup 16 \\\n    --micro-batch-size 4\n",
        [("run", "pretrain_gpt.py", "--global-batch-size", "256")],
    ),
    # the same in front of the program: the launcher runs without it, the line below starts nothing
    (
        "run \\\n  # --nproc_per_node 8 \\\n  --nproc_per_node 4 train.py --bs 4\nrun $?\n",
        [("run",), ("run", "127")],
    ),
    # a redirection's target is one word; the words after it are the command's (tree-sitter-bash gives them to
    # the redirection): ``<your_port> --bs 4`` reads from ``your_port`` and writes to a file named ``--bs``
    (
        ": > your_port\nrun train.py --port <your_port> --bs 4 --gas 2\n",
        [("run", "train.py", "--port", "4", "--gas", "2")],
    ),
    ("run a.py --x 1 > log --y 2 2>&1 --z 3\n", [("run", "a.py", "--x", "1", "--y", "2", "--z", "3")]),
    ('B="p q"\nrun a.py &> log --f $B "x y"\n', [("run", "a.py", "--f", "p", "q", "x y")]),
    # flags in a variable reach the launcher as separate words where it is unquoted (word splitting), one word quoted
    (
        'ARGS="--nproc_per_node=4 --nnodes 2"\nrun -m torch.distributed.launch $ARGS main.py\n'
        'run -m torch.distributed.launch "$ARGS" main.py\n',
        [
            ("run", "-m", "torch.distributed.launch", "--nproc_per_node=4", "--nnodes", "2", "main.py"),
            ("run", "-m", "torch.distributed.launch", "--nproc_per_node=4 --nnodes 2", "main.py"),
        ],
    ),
]


@pytest.mark.parametrize(("script", "runs"), RUNS)
def test_the_commands_are_the_ones_bash_runs(script: str, runs: list[tuple[str, ...]]) -> None:
    """The ``run`` commands bash runs, as written down, are the reader's, word for word."""
    assert run_bash(script, []).runs == runs
    assert decided_runs(reading(script)) == runs


def test_a_missing_file_to_read_from_fails_the_command_but_the_reader_takes_it_to_exist() -> None:
    """``<your_port>`` without a file ``your_port``: bash reports it and never starts the command (status 1). Whether
    a file exists only the run knows; the reader takes it to exist, as it takes a program it cannot see to succeed,
    and records the words bash passes once it does."""
    script = "run train.py --port <your_port> --bs 4\nX=$?\n"
    ran = run_bash(script, ["X"])
    assert (ran.runs, ran.values["X"]) == ([], ("S", "1"))
    read = reading(script)
    assert [command.words for command in read.script.commands] == [("run", "train.py", "--port", "4")]
    assert ours(read, "X") is None  # its status only the run knows


def test_a_backquoted_comment_inside_a_continued_command_is_an_empty_word() -> None:
    """MedicalGPT's backquoted ``# QLoRA配置`` comment between flags: bash expands it to nothing and goes on with
    the line, so the flags after it arrive (tree-sitter-bash would let the comment swallow the closing backquote)."""
    script = "run grpo.py \\\n    --lora_r 16 \\\n    `# 显存优化配置` \\\n    --per_device_train_batch_size 4\n"
    expected = ("run", "grpo.py", "--lora_r", "16", "--per_device_train_batch_size", "4")
    assert run_bash(script, []).runs == [expected]
    assert [c.words for c in reading(script).script.commands] == [expected]


@pytest.mark.timeout(300)
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_what_the_reader_decides_is_what_bash_does(script: str) -> None:
    """Generated scripts: every variable the reader knows has bash's value; the ``run`` commands it decides are
    bash's; what it cannot decide (a bound, an undecided condition, an unknown variable) it names."""
    event(compare(script, ALL))
