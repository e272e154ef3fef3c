"""The bash reader: tree-sitter-bash and an evaluator over its tree (nothing is ever executed).

Where the rows come from: the expected values were checked against GNU bash 5.2.15, running each row's
script with stub programs on PATH that print their words and environment (``declare -p`` for the
variables). Where effbatch differs on purpose, the row says so: what the script does not set stays
as written (bash would take the environment), commands are taken to succeed (``cd /w &&``), a loop
over what only the run knows is read once with its variable unknown, and a branch that ``exit``s is no run
that trains. ``test_shell_bash.py`` holds the reader to bash itself.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from effbatch.bot.serving.cli import main
from effbatch.core.configs import CheckError, ProblemKind, Source, check_config
from effbatch.core.configs.shell import (
    MAX_ALTERNATIVE_STEPS,
    MAX_ALTERNATIVES,
    MAX_ARRAY,
    MAX_CHARS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_PARSE_SECONDS,
    MAX_STEPS,
    MAX_UNDECIDED,
    MAX_VALUE_CHARS,
    Undecided,
    alternatives,
    grammar_errors,
    read_script,
)

DATA = Path(__file__).parent / "data"

# (script, variables it sets (a subset), arrays it sets (a subset)).
VALUE_CASES = [
    # assignments with export/local/declare/readonly, +=, several in one declaration (local outside a function:
    # bash refuses it and goes on, C stays unset)
    ("export A=1 B\nlocal C=2\ndeclare -x D=3\nreadonly E=4\nA+=0\n", {"A": "10", "C": None, "D": "3", "E": "4"}, {}),
    # defaults: :- for unset or empty, - for unset only, := assigns
    ("X=${X:-8}\nY=\nY=${Y:-9}\nZ=\nZ=${Z-7}\n: ${W:=5}\n", {"X": "8", "Y": "9", "Z": "", "W": "5"}, {}),
    ("A=1\nB=${A:+yes}\nC=${NOT_SET:+no}\nD=${#B}\n", {"B": "yes", "C": "", "D": "3"}, {}),
    # arithmetic as bash computes it: C division and remainder, **, bases, ?:, <<, variables with and without $
    (
        "A=$(( 7 / -2 ))\nB=$(( -7 % 3 ))\nC=$(( 2**10 ))\nD=$(( 0x10 + 010 + 2#101 ))\nE=$(( 3 > 2 ? 4 : 5 ))\n"
        "M=2\nF=$(( M * 8 * $M ))\nG=$(( (M + 1) << 2 ))\n",
        {"A": "-3", "B": "-1", "C": "1024", "D": "29", "E": "4", "F": "32", "G": "12"},
        {},
    ),
    # arrays: (…), +=(…), A[i]=, "${A[@]}" joined in a scalar, ${#A[@]}, ${A[i]}
    (
        'A=(x "y z")\nA+=(w)\nA[1]=q\nB="${A[@]}"\nC=${#A[@]}\nD=${A[2]}\nE=(${B})\n',
        {"B": "x q w", "C": "3", "D": "w"},
        {"A": ["x", "q", "w"], "E": ["x", "q", "w"]},
    ),
    # quoting: '…' as written, "…" with \" \$ \\, $'…' escapes, a backslash-escaped blank
    (
        "A='a $b'\nB=\"c \\\"d\\\" \\$e\"\nC=$'f\\tg'\nD=h\\ i\n",
        {"A": "a $b", "B": 'c "d" $e', "C": "f\tg", "D": "h i"},
        {},
    ),
    # a string over several lines with continuations (Megatron-LM's examples/post_training/modelopt/conf/*.sh)
    ('OPTS=" \\\n  --a 1 \\\n  --b 2"\n', {"OPTS": "   --a 1   --b 2"}, {}),
    # what the script does not set stays as written
    (
        "A=$1\nB=${HOME}/x\nC=$(date)\nD=$(( A + 1 ))\n",
        {"A": "$1", "B": "${HOME}/x", "C": "$(date)", "D": "$(( A + 1 ))"},
        {},
    ),
    # (( )) and let assign; read and getopts set what only the run knows (bash would read stdin)
    (
        "X=1\n(( X++ ))\n(( X += 2 ))\nY=$(( ++X ))\nlet Z=X*2\nN=8\nread -r N\n",
        {"X": "5", "Y": "5", "Z": "10", "N": "$N"},
        {},
    ),
    # an argument loop (Megatron-LM examples/inference/*.sh): how many passes run only the run knows, so what
    # any branch of its body assigns is unknown after it, and the test on it decides nothing
    (
        'CKPT=""\nN=8\nwhile [[ $# -gt 0 ]]; do\n  case "$1" in\n    --ckpt) CKPT="$2"; shift 2;;\n'
        '    --n) N="$2"; shift 2;;\n    *) exit 1;;\n  esac\ndone\n'
        'if [[ -z "$CKPT" ]]; then exit 1; fi\nG=1\n',
        {"G": "1", "N": "$N", "CKPT": "$CKPT"},
        {},
    ),
    # the same loop where nothing after it requires an argument (ReCall's train.sh, General-Reasoner's): a start
    # without arguments does not run it, the script's defaults stay (bash started as `bash train.sh` assigns these)
    (
        'N=8\nwhile [[ $# -gt 0 ]]; do\n  case "$1" in\n    --n) N="$2"; shift 2;;\n    *) exit 1;;\n  esac\n'
        "done\nB=$((N * 2))\n",
        {"N": "8", "B": "16"},
        {},
    ),
    # a script that exits unless the environment sets a variable (Skywork-OR1's MODEL_PATH=${MODEL_PATH:-}, then
    # [ -z … ] && exit 1) was started with it set: the script goes on, that variable unknown; a default that
    # nothing requires stays the default
    (
        'M=${M:-}\nif [ -z "$M" ]; then\n  echo "M is not set"; exit 1\nfi\n[ -z "$C" ] && exit 1\n'
        'W=${W:-1}\n[ -z "$X" ] && X=4\nB=8\n',
        {"M": "$M", "W": "1", "X": "4", "B": "8"},
        {},
    ),
    # unset; a loop over literal words runs pass by pass, one over the arguments is read once, its variable unknown
    (
        "A=1\nunset A\nfor i in 1 2; do B=$i; done\nfor j; do C=$j; done\n",
        {"i": "2", "B": "2", "j": "$j", "C": "$C"},
        {},
    ),
]


@pytest.mark.parametrize(("script", "variables", "arrays"), VALUE_CASES)
def test_values_are_what_bash_would_assign(
    script: str, variables: dict[str, str], arrays: dict[str, list[str]]
) -> None:
    """Assignments, expansions, arithmetic, arrays and quoting give bash's values."""
    read = read_script(script)
    assert {name: read.variables.get(name) for name in variables} == variables
    assert {name: read.arrays.get(name) for name in arrays} == arrays
    assert "A" not in read.variables or "unset" not in script


Env = dict[str, str]

# (script, the commands it runs: (words, env prefixes)).
COMMAND_CASES = [
    # ; && || and a continuation: commands are taken to succeed, so `|| echo` does not run
    (
        "cd /w && torchrun \\\n  a.py; echo x || echo y\n",
        [(("cd", "/w"), {}), (("torchrun", "a.py"), {}), (("echo", "x"), {})],
    ),
    # unquoted values split, quoted arrays element by element, an empty array adds no word
    (
        'MORE="--b 2"\nARGS=(--a "1 1")\nNONE=()\ntorchrun x.py "${ARGS[@]}" $MORE "${NONE[@]}" ""\n',
        [(("torchrun", "x.py", "--a", "1 1", "--b", "2", ""), {})],
    ),
    # prefixes: for the command only, also through env; a later command does not see them
    (
        "WORLD_SIZE=16 python train.py\nenv NNODES=2 NPROC_PER_NODE=8 llamafactory-cli train x.yaml\npython b.py\n",
        [
            (("python", "train.py"), {"WORLD_SIZE": "16"}),
            (("llamafactory-cli", "train", "x.yaml"), {"NNODES": "2", "NPROC_PER_NODE": "8"}),
            (("python", "b.py"), {}),
        ],
    ),
    # a command built in a string and run by bash -c (behind srun) or eval; the prefix reaches it
    (
        'CMD="torchrun --nproc-per-node 4 a.py"\nFORCE_TORCHRUN=1 srun bash -c "$CMD --x"\neval "$CMD" --y\n',
        [
            (("torchrun", "--nproc-per-node", "4", "a.py", "--x"), {"FORCE_TORCHRUN": "1"}),
            (("torchrun", "--nproc-per-node", "4", "a.py", "--y"), {}),
        ],
    ),
    # tree-sitter-bash splits $DIR/$NAME.out in two; there is no blank between them, so bash reads one word
    (
        'DIR=/o\nNAME=run\ntorchrun a.py --out $DIR/$NAME.out --x "$DIR"/"$NAME"\n',
        [(("torchrun", "a.py", "--out", "/o/run.out", "--x", "/o/run"), {})],
    ),
    # wrappers, redirections, pipes and the background: the command is still the launcher's
    (
        "nohup torchrun a.py > log 2>&1 &\ntorchrun b.py 2>&1 | tee log\ncat <<EOF > x.yaml\nA: 1\nEOF\n",
        [(("nohup", "torchrun", "a.py"), {}), (("torchrun", "b.py"), {}), (("tee", "log"), {}), (("cat",), {})],
    ),
    # a launcher in a variable, a function called with a prefix, exit ends the script
    (
        "LAUNCH='torchrun --nproc-per-node 2'\ntrain() { $LAUNCH a.py \"$@\"; }\n"
        "NNODES=2 train\nexit 0\npython no.py\n",
        # the function is called without words: its "$@" is empty (its own, not the script's)
        [(("torchrun", "--nproc-per-node", "2", "a.py"), {"NNODES": "2"})],
    ),
    # a job launcher's command string, read as the bash on each host reads it (shell/remote.py): the local shell
    # expanded $BS inside the quotes; \$GA is the remote's own, unset there; the local variables are not the remote's
    (
        'BS=4\nGA=2\npython3 multihost_runner.py --TPU_PREFIX=t --COMMAND="cd x && python3 -m MaxText.train '
        'b.yml per_device_batch_size=$BS ga=\\$GA"\n',
        [
            (
                (
                    "python3",
                    "multihost_runner.py",
                    "--TPU_PREFIX=t",
                    "--COMMAND=cd x && python3 -m MaxText.train b.yml per_device_batch_size=4 ga=$GA",
                ),
                {},
            ),
            (("cd", "x"), {}),
            (("python3", "-m", "MaxText.train", "b.yml", "per_device_batch_size=4", "ga=$GA"), {}),
        ],
    ),
    (
        "python3 multihost_job.py --COMMAND 'bash setup.sh && python3 train.py' --BUCKET_NAME=b\n",
        [
            (("python3", "multihost_job.py", "--COMMAND", "bash setup.sh && python3 train.py", "--BUCKET_NAME=b"), {}),
            (("bash", "setup.sh"), {}),
            (("python3", "train.py"), {}),
        ],
    ),
    (
        "xpk workload create --workload w --command='python3 -m MaxText.train b.yml steps=5'\n",
        [
            (("xpk", "workload", "create", "--workload", "w", "--command=python3 -m MaxText.train b.yml steps=5"), {}),
            (("python3", "-m", "MaxText.train", "b.yml", "steps=5"), {}),
        ],
    ),
    # no job launcher: another program's --COMMAND (or xpk's other subcommands) is text, not read
    (
        "python3 other.py --COMMAND='python3 train.py'\nxpk workload list --command='python3 train.py'\n",
        [
            (("python3", "other.py", "--COMMAND=python3 train.py"), {}),
            (("xpk", "workload", "list", "--command=python3 train.py"), {}),
        ],
    ),
]


@pytest.mark.parametrize(("script", "commands"), COMMAND_CASES)
def test_commands_are_the_words_bash_would_run(script: str, commands: list[tuple[tuple[str, ...], Env]]) -> None:
    """Word splitting, arrays, prefixes, bash -c, eval, functions and exit as bash runs them."""
    assert [(c.words, c.env) for c in read_script(script).commands] == commands


# (script, the value of G, the conditions left undecided): branches decided where the values are known.
BRANCH_CASES = [
    ('M=big\nif [ "$M" = big ]; then G=1; else G=2; fi\n', "1", []),
    ('M=big\nif [ "$M" != big ]; then G=1; elif [[ $M == b* ]]; then G=2; else G=3; fi\n', "2", []),
    ('N=4\nif [ $N -gt 8 ]; then G=1; elif [ $N -le 4 ] && [ -n "$N" ]; then G=2; fi\n', "2", []),
    ("N=4\nif [[ $N -eq 4 && -z $E ]]; then G=1; else G=2; fi\nE=x\n", "1", ["[[ $N -eq 4 && -z $E ]]"]),
    ("N=4\nE=\nif [[ $N -ne 4 || -z $E ]]; then G=1; else G=2; fi\n", "1", []),
    ("N=4\nif (( N * 2 >= 8 )); then G=1; fi\n", "1", []),
    ("N=3\n[ $N -lt 2 ] && G=1 || G=2\n", "2", []),
    ('M=tiny\ncase "$M" in big|huge) G=1;; t*) G=2;; *) G=3;; esac\n', "2", []),
    ("M=other\ncase $M in big) G=1;; esac\n", None, []),
    # unknown: $1, a variable the script never sets, a command's exit status
    ('if [ "$1" = big ]; then G=1; else G=2; fi\n', "1", ['[ "$1" = big ]']),
    ('[ -z "$NNODES" ] && G=1\n', "1", ['[ -z "$NNODES" ]']),
    ("if command -v nvidia-smi; then G=1; fi\n", "1", ["command -v nvidia-smi"]),
    ("case $MODE in a) G=1;; b) G=2;; esac\n", "1", ["$MODE"]),
    # a branch that exits is no run that trains: the other one is taken, and nothing is undecided
    ('if [ -z "$1" ]; then echo usage; exit 1; fi\nG=5\n', "5", []),
    ("[ $# -lt 1 ] && { echo usage; exit 1; }\nG=6\n", "6", []),
]


@pytest.mark.parametrize(("script", "value", "undecided"), BRANCH_CASES)
def test_branches_are_decided_from_the_scripts_own_values(script: str, value: str | None, undecided: list[str]) -> None:
    """if/elif/else, [ ], [[ ]], (( )), && ||, case: decided where decidable; the others named, never hidden."""
    read = read_script(script)
    assert read.variables.get("G") == value
    assert [u.condition for u in read.undecided] == undecided


def test_functions_calling_each_other_are_read_once() -> None:
    """f calls g calls f: the second call is not followed again (bash would recurse until it fails)."""
    assert [c.words for c in read_script("f() { g; torchrun a.py; }\ng() { f; }\nf\n").commands] == [
        ("f",),
        ("torchrun", "a.py"),
    ]


def test_an_undecided_condition_names_its_variables_and_line() -> None:
    """What decides is data: the condition as written, the variables the script does not set, the line."""
    read = read_script('MODE=${MODE:-x}\nN=2\n\nif [ "$1" = "big" ] && [ $N -gt 1 ]; then G=1; fi\n')
    assert read.undecided == (Undecided('[ "$1" = "big" ] && [ $N -gt 1 ]', ("1",), 4),)


def test_alternatives_enumerate_each_feasible_choice() -> None:
    """Two undecided conditions: four readings, each labelled by its choices; the first is read_script's."""
    script = (
        'if [ "$MODE" = big ]; then GBS=1024; else GBS=256; fi\n'
        "case $2 in fast) A=1;; *) A=8;; esac\n"
        "torchrun --nproc-per-node 8 x.py --global-batch-size $GBS\n"
    )
    found = alternatives(script)
    assert [(a.label, a.script.variables["GBS"], a.script.variables["A"]) for a in found] == [
        ('[ "$MODE" = big ] (line 1); $2 matches fast (line 2)', "1024", "1"),
        ('not [ "$MODE" = big ] (line 1); $2 matches fast (line 2)', "256", "1"),
        ('[ "$MODE" = big ] (line 1); $2 matches * (line 2)', "1024", "8"),
        ('not [ "$MODE" = big ] (line 1); $2 matches * (line 2)', "256", "8"),
    ]
    assert found[0].script == read_script(script)
    assert all(label.isascii() for label in (a.label for a in found))


def test_alternatives_share_one_step_budget() -> None:
    """Eight readings of a long script stop at the budget of all readings together, not eight times one."""
    script = "".join(f'[ "${i}" = a ] && X{i}=1\n' for i in (1, 2, 3)) + "A=1\n" * 5000
    assert len(read_script(script).undecided) == 3
    with pytest.raises(CheckError) as raised:
        alternatives(script)
    assert raised.value.ctx["detail"] == "shell_work"
    assert raised.value.ctx["max"] == MAX_ALTERNATIVE_STEPS


def test_alternatives_are_bounded_and_one_when_all_is_decided() -> None:
    """Twenty undecided conditions give at most eight readings; a decided script exactly one, as written."""
    many = "".join(f'if [ "${i}" = a ]; then X{i}=1; fi\n' for i in range(1, 21))
    assert len(alternatives(many)) == MAX_ALTERNATIVES
    assert [a.label for a in alternatives("A=1\nif [ $A = 1 ]; then B=2; fi\n")] == ["as written"]


# Launch prefixes on the launch line decide the world size (llamafactory-cli reads NNODES and NPROC_PER_NODE;
# FORCE_TORCHRUN=1 makes it start torchrun): (script, world size, where).
PREFIX_CASES = [
    ("WORLD_SIZE=16 python pretrain_gpt.py --micro-batch-size 1 --global-batch-size 64", 16, "run.sh:1"),
    ("WORLD_SIZE=4\nWORLD_SIZE=16 python pretrain_gpt.py --micro-batch-size 1 --global-batch-size 64", 16, "run.sh:2"),
    (
        "NNODES=2 NPROC_PER_NODE=8 FORCE_TORCHRUN=1 llamafactory-cli train --per_device_train_batch_size 2 x.yaml",
        16,
        "run.sh",
    ),
    # the launcher's own options are what torchrun uses; a prefix it does not read changes nothing
    ("NNODES=4 torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 1", 16, "torchrun, run.sh:1"),
]


@pytest.mark.parametrize(("script", "world", "where"), PREFIX_CASES)
def test_prefixes_on_the_launch_line_set_the_world_size(script: str, world: int, where: str) -> None:
    """``VAR=value cmd`` wins over the script's variables and is said to be where the world size came from."""
    check = check_config([Source("run.sh", script)], None)
    assert check.world is not None
    assert (check.world.size, where in check.world.where) == (world, True)


def launch_scripts() -> list[Path]:
    """Our own launch scripts (the users' corpus holds real files, some with what tree-sitter-bash cannot parse)."""
    corpus = DATA / "corpus"
    return sorted(p for p in DATA.rglob("*") if p.suffix in (".sh", ".bash") and corpus not in p.parents)


@pytest.mark.parametrize("path", launch_scripts(), ids=lambda path: path.name)
def test_every_launch_script_in_the_test_data_parses(path: Path) -> None:
    """tree-sitter-bash reads each without a syntax error, and the evaluator reads it within its bounds."""
    text = path.read_text()
    assert grammar_errors(text) == ()
    assert isinstance(read_script(text).commands, list)


def test_syntax_errors_are_named_by_line() -> None:
    """What the grammar cannot read is reported by line (the rest is still read)."""
    assert grammar_errors('A=1\nif [ "$A" = 1 ]; then\n  torchrun a.py\n') != ()
    assert read_script('A=1\nif [ "$A" = 1 ]; then\n  torchrun a.py\n').variables == {"A": "1"}


def shown(number: int) -> str:
    """A number as the German message writes it (10.000)."""
    return f"{number:,}".replace(",", ".")


# Hostile shapes: (script, the limit's detail, a phrase of the German message). Each would take
# gigabytes or minutes if evaluated naively (the doubled variable 4 GB, the doubled array 1 GB and 60 s).
HOSTILE = [
    ("A=x\n" + "A=$A$A\n" * 40, "shell_long_value", f"länger als {shown(MAX_VALUE_CHARS)} Zeichen"),
    (
        "A=(x)\n" + "A=(${A[@]} ${A[@]})\n" * 40,
        "shell_long_array",
        f"mehr als {shown(MAX_ARRAY)} Einträge",
    ),
    ("A=" + "9" * 29 + "\n" + "A=$((A*A*A))\n" * 40, "shell_long_number", f"mehr als {MAX_DIGITS} Ziffern"),
    ("echo $(( 9**9**9**9 ))\n", "shell_long_number", f"mehr als {MAX_DIGITS} Ziffern"),
    ("echo $(( 99999999999 ** 99999 ))\n", "shell_long_number", f"mehr als {MAX_DIGITS} Ziffern"),
    ("A=" + "x" * 30000 + "\n" + "B=$A$A\n" * 100, "shell_chars", f"mehr als {shown(MAX_CHARS)} Zeichen"),
    # each a few steps, 9.000 of them in every eval: amplification, bounded by the step budget
    (
        'C="' + "a=1;" * 9000 + '"\n' + 'eval "$C"\n' * 20,
        "shell_work",
        f"mehr als {shown(MAX_STEPS)} Schritte",
    ),
    ("f() { A=1; B=2; C=3; }\n" + "f\n" * 6000, "shell_work", f"mehr als {shown(MAX_STEPS)} Schritte"),
    # 3.000 globs to compile, each its own pattern
    (
        "X=zz\ncase $X in " + " ".join(f"p{i}*) Y=1;;" for i in range(3000)) + " esac\n",
        "shell_work",
        f"mehr als {shown(MAX_STEPS)} Schritte",
    ),
    ("if true; then " * 5000 + "fi; " * 5000, "shell_nesting", f"tiefer als {MAX_DEPTH} Ebenen"),
    ("echo $((" + "(" * 20000 + "1" + ")" * 20000 + "))", "shell_nesting", f"tiefer als {MAX_DEPTH} Ebenen"),
    ('A=\'bash -c "$A"\'\nbash -c "$A"\n', "shell_nesting", f"tiefer als {MAX_DEPTH} Ebenen"),
    # the grammar's own error recovery is quadratic here (16 KiB took over a second): parsing stops
    ("A=(" * 16000 + "x" + ")" * 16000, "shell_parse", f"mehr als {shown(round(MAX_PARSE_SECONDS * 1000))} ms"),
    ("true" + " && true" * 8000, "shell_nesting", f"tiefer als {MAX_DEPTH} Ebenen"),  # a list nests to the left
    ("".join(f"f{i}() {{ f{i + 1}; }}\n" for i in range(150)) + "f0\n", "shell_nesting", f"tiefer als {MAX_DEPTH}"),
    ('if [ "$1" = a ]; then X=1; fi\n' * 100, "shell_branches", f"Mehr als {MAX_UNDECIDED} Bedingungen"),
]


@pytest.mark.timeout(20)
@pytest.mark.parametrize(("script", "detail", "phrase"), HOSTILE, ids=[row[1] for row in HOSTILE])
def test_hostile_scripts_are_refused_by_a_bound(script: str, detail: str, phrase: str) -> None:
    """Each growth stops at its limit with a specific reason, never a long wait or a crash."""
    with pytest.raises(CheckError) as raised:
        read_script(script)
    assert (raised.value.kind, raised.value.ctx["detail"]) == (ProblemKind.UNREADABLE, detail)


@pytest.mark.timeout(20)
@pytest.mark.parametrize(("script", "detail", "phrase"), HOSTILE, ids=[row[1] for row in HOSTILE])
def test_the_user_reads_why_a_hostile_script_is_refused(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    script: str,
    detail: str,
    phrase: str,
) -> None:
    """effbatch check answers in German: what was too much, where, and what to paste instead."""
    monkeypatch.chdir(tmp_path)
    Path("train.sh").write_text(script)
    assert main(["check", "train.sh"]) == 2
    err = capsys.readouterr().err
    assert "„train.sh“ lässt sich nicht lesen" in err
    assert phrase in err
    assert "shell_" not in err


# Deep but harmless shapes the grammar reads in tens of milliseconds: nothing to evaluate, nothing refused.
HARMLESS = [
    "echo " + "$(echo " * 8000 + ")" * 8000,  # command substitutions are never run: kept as written
    "echo " + "$( " * 20000,
    "{ " * 30000,
    "{ " * 15000 + "}" * 15000,
]


@pytest.mark.timeout(20)
@pytest.mark.parametrize("script", HARMLESS, ids=["substitutions", "open substitutions", "open braces", "braces"])
def test_deep_shapes_that_need_no_evaluation_are_read(script: str) -> None:
    """64 KiB of nesting the evaluator never descends into: read, at most one command."""
    assert len(read_script(script).commands) <= 1


#: Pieces of bash to compose: keywords, operators, expansions, quotes, and the hostile shapes' parts.
KEYWORDS = "if then elif else fi case esac in ;; ; && || | ( ) { } [ ] [[ ]] (( )) $(( $( ${ } ` for do done while"
WORDS = "exit eval export local declare let read bash -c env srun torchrun x.py = += -z -n -eq -gt == != ! * ** / % <<"
WORDS += " 0 1 2 9999999999 A B $A $1 $@ ${A[@]} ${A:-3} ${#A}"
FRAGMENTS = [
    *KEYWORDS.split(" "),
    *WORDS.split(" "),
    *['"', "'", "\\", "\n"],
    "A=$A$A\n",
    "A=(${A[@]} ${A[@]})\n",
    "A=$((A*A*A))\n",
    "if true; then ",
    "f() { f; }\n",
    "--micro-batch-size ",
]


@pytest.mark.timeout(120)
@settings(max_examples=600, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=60).map(" ".join), st.integers(1, 40))
def test_any_composed_script_is_read_or_refused_by_a_bound(script: str, repeat: int) -> None:
    """Whatever the grammar makes of it, reading raises nothing but CheckError (fragments repeated up to 40 times)."""
    for text in (script, script * repeat):
        with contextlib.suppress(CheckError):
            read_script(text)
        with contextlib.suppress(CheckError):
            assert 1 <= len(alternatives(text)) <= MAX_ALTERNATIVES
