"""The Python reader's argparse against argparse itself: generated parsers, generated command lines, real argparse.

Each generated script builds an ``argparse.ArgumentParser`` (long and short options, ``dest=``, ``default=`` of
every type, ``type=int/float/str/bool``, ``store_true``/``store_false``/``store_const``, ``required=``, ``nargs``,
a positional) and calls ``parse_known_args()``; the same command line goes to ``read_python`` (as the launch line's
words) and to the script run by Python 3.11's own argparse. Whatever field the reader says it knows holds argparse's
value; where argparse refuses the line (it exits), the reader knows not every field. The hand-written rows are
argparse's rules one by one (CPython 3.11 ``Lib/argparse.py``), each with argparse's answer. Nothing in ``core``
runs a script: only this test does, on scripts it wrote itself.
"""

from __future__ import annotations

import contextlib
import io
import math
import sys
from typing import Any
from unittest import mock

import pytest
from examples_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from effbatch.core.configs.base import CheckError, Instance, Unknown
from effbatch.core.configs.read.python import read_python
from effbatch.core.configs.read.python.objects import deep_known

HEAD = "import argparse\np = argparse.ArgumentParser()\n"
TAIL = "args, extras = p.parse_known_args()\n"


def argparse_answer(script: str, argv: list[str]) -> tuple[dict[str, Any], list[str]] | None:
    """The namespace and the extras Python's argparse gives ``argv`` (None: it refuses the line and exits)."""
    namespace: dict[str, Any] = {}
    with mock.patch.object(sys, "argv", ["train.py", *argv]), contextlib.redirect_stderr(io.StringIO()):
        try:
            exec(compile(script, "train.py", "exec"), namespace)  # our own generated parser, nothing else
        except SystemExit:
            return None
    return vars(namespace["args"]), namespace["extras"]


def reader_answer(script: str, argv: list[str] | None) -> tuple[dict[str, object], object]:
    """The namespace's fields and the extras the reader finds, read with ``argv`` as the launch line's words."""
    names = read_python(script, argv=argv).names
    namespace = names["args"].value
    assert isinstance(namespace, Instance)
    return {name: given.value for name, given in namespace.fields.items()}, names["extras"].value


def same(ours: object, theirs: object) -> bool:
    """Equal values of the same type all the way down (1, 1.0 and True differ; NaN equals NaN)."""
    if type(ours) is not type(theirs):
        return False
    if isinstance(ours, float) and isinstance(theirs, float) and math.isnan(ours) and math.isnan(theirs):
        return True
    if isinstance(ours, list) and isinstance(theirs, list):
        return len(ours) == len(theirs) and all(same(a, b) for a, b in zip(ours, theirs, strict=True))
    return ours == theirs


def agrees(script: str, argv: list[str]) -> None:
    """The reader's known fields are argparse's; where argparse exits, some field is unknown to the reader."""
    fields, extras = reader_answer(script, argv)
    answer = argparse_answer(script, argv)
    if answer is None:
        assert any(not deep_known(value) for value in fields.values()), f"argparse exits\n{script}{argv}"
        return
    namespace, their_extras = answer
    assert set(fields) == set(namespace), f"{sorted(fields)} vs {sorted(namespace)}\n{script}{argv}"
    for name, value in fields.items():
        if deep_known(value):
            assert same(value, namespace[name]), f"{name}: {value!r} vs argparse {namespace[name]!r}\n{script}{argv}"
    if deep_known(extras):
        assert extras == their_extras, f"extras {extras!r} vs {their_extras!r}\n{script}{argv}"


# (the add_argument calls, the command line, argparse's namespace: each row one of argparse's rules)
CASES = [
    # dest: the first long option, dashes to underscores; a short-only option its letter; dest= wins
    ("p.add_argument('-s', '--seq-len', '--sl', type=int, default=4)\n", [], {"seq_len": 4}),
    ("p.add_argument('-b', type=int)\n", ["-b", "3"], {"b": 3}),
    ("p.add_argument('--bs', dest='batch', type=int)\n", ["--bs=8"], {"batch": 8}),
    # type= converts a string default, never another one
    ("p.add_argument('--lr', type=float, default='1e-3')\n", [], {"lr": 0.001}),
    ("p.add_argument('--lr', type=float, default=1)\n", [], {"lr": 1}),
    ("p.add_argument('--n', type=str, default=5)\n", [], {"n": 5}),
    # no type: the word stays text, whatever the default's type
    ("p.add_argument('--bs', default=8)\n", ["--bs", "16"], {"bs": "16"}),
    # type=bool is Python's bool of the word: any non-empty word is True
    ("p.add_argument('--fp16', type=bool, default=False)\n", ["--fp16", "False"], {"fp16": True}),
    # switches; a single-dash option with its value attached; an unambiguous prefix
    (
        "p.add_argument('--no-ddp', action='store_false')\np.add_argument('-k', type=int)\n",
        ["-k4"],
        {"no_ddp": True, "k": 4},
    ),
    ("p.add_argument('--sequence-length', type=int, default=2048)\n", ["--seq", "512"], {"sequence_length": 512}),
    # set_defaults changes an option's default (a string then converted) and adds a dest no option has
    ("p.add_argument('--bs', type=int, default=1)\np.set_defaults(bs='2', mode='x')\n", [], {"bs": 2, "mode": "x"}),
    # nargs: '+' a list, '?' without a word its const
    (
        "p.add_argument('--dims', type=int, nargs='+')\np.add_argument('--o', nargs='?', const='c')\n",
        ["--dims", "1", "2", "--o"],
        {"dims": [1, 2], "o": "c"},
    ),
    # a positional takes the first free word; an option argparse does not know is an extra, its word a positional
    (
        "p.add_argument('run')\np.add_argument('--bs', type=int, default=1)\n",
        ["--x", "r1", "--bs", "2", "y"],
        {"run": "r1", "bs": 2},
    ),
    # choices= holds what the line gives (argparse exits otherwise), never the default
    ("p.add_argument('--bs', type=int, choices=[4, 8], default=2)\n", ["--bs", "8"], {"bs": 8}),
    ("p.add_argument('--bs', type=int, choices=[4, 8], default=2)\n", [], {"bs": 2}),
    # argparse.SUPPRESS: no attribute unless given
    ("p.add_argument('--bs', type=int, default=argparse.SUPPRESS)\n", [], {}),
]


@pytest.mark.parametrize(
    ("options", "argv", "expected"), CASES, ids=[f"{c[0].split(chr(10))[0]} {c[1]}" for c in CASES]
)
def test_argparse_rules_agree_with_argparse(options: str, argv: list[str], expected: dict[str, Any]) -> None:
    """Each row: argparse gives the row's namespace, and the reader gives the same."""
    script = HEAD + options + TAIL
    answer = argparse_answer(script, argv)
    assert answer is not None
    assert answer[0] == expected
    agrees(script, argv)


def test_what_only_the_command_line_says_is_named_not_guessed() -> None:
    """A required option or a positional without a launch line: unknown, naming the option; the rest defaults."""
    script = HEAD + "p.add_argument('run')\np.add_argument('--bs', type=int, required=True)\n"
    script += "p.add_argument('--lr', type=float, default=0.1)\n" + TAIL
    fields, extras = reader_answer(script, None)
    assert fields["run"] == Unknown("run", ("run",))
    assert fields["bs"] == Unknown("--bs", ("--bs",))
    assert (fields["lr"], extras) == (0.1, [])
    assert argparse_answer(script, ["r"]) is None  # argparse exits without --bs
    agrees(script, ["r"])


@pytest.mark.parametrize("argv", [["--bs", "2k", "--bs", "4"], ["--bs", "16"]])
def test_a_word_the_type_or_the_choices_refuse_is_unknown_as_argparse_exits(argv: list[str]) -> None:
    """``--bs 2k`` for ``type=int`` (before a good ``--bs 4``), ``--bs 16`` beyond ``choices``: argparse exits; the
    reader names the option."""
    script = HEAD + "p.add_argument('--bs', type=int, default=8, choices=[4, 8])\n" + TAIL
    assert argparse_answer(script, argv) is None
    assert reader_answer(script, argv)[0]["bs"] == Unknown("--bs", ("--bs",))


def test_the_words_a_script_hands_its_parser_win_over_the_launch_line() -> None:
    """``parse_args(["--bs", "4"])`` (a notebook's parser): those words, not the launch line's."""
    script = HEAD + "p.add_argument('--bs', type=int, default=8)\nargs = p.parse_args(['--bs', '4'])\n"
    namespace = read_python(script, argv=["--bs", "16"]).names["args"].value
    assert isinstance(namespace, Instance)
    assert namespace.fields["bs"].value == 4


# --- generated parsers -------------------------------------------------------------------------------------------

LONG = ("--batch-size", "--batch", "--bs", "--seq-len", "--seq", "--lr", "--fp16", "--no-ddp", None)
SHORT = ("-b", "-s", "-l", "-k", None)
DEFAULTS = ("", ", default=None", ", default=8", ", default=0.5", ", default='12'", ", default='abc'", ", default=True")
TYPES = ("", ", type=int", ", type=float", ", type=str", ", type=bool")
ACTIONS = (", action='store_true'", ", action='store_false'", ", action='store_const', const=7")
NARGS = ("", "", "", ", nargs='?'", ", nargs='*'", ", nargs='+'", ", nargs=2")


@st.composite
def option(draw: st.DrawFn, index: int) -> tuple[tuple[str, ...], str]:
    """One ``add_argument``: its option strings and its call."""
    long, short = draw(st.sampled_from(LONG)), draw(st.sampled_from(SHORT))
    flags = tuple(f for f in (short, long) if f is not None) or (f"--opt{index}",)
    if draw(st.booleans()):
        flags = tuple(reversed(flags))
    rest = draw(st.sampled_from(("", f", dest='d{index}'"))) + draw(st.sampled_from(DEFAULTS))
    if draw(st.integers(0, 3)) == 0:
        rest += draw(st.sampled_from(ACTIONS))
    else:
        rest += draw(st.sampled_from(TYPES)) + draw(st.sampled_from(NARGS))
        rest += ", required=True" if draw(st.integers(0, 5)) == 0 else ""
        rest += ", choices=[4, 0.5, 'abc', True]" if draw(st.integers(0, 4)) == 0 else ""
    return flags, f"p.add_argument({', '.join(repr(f) for f in flags)}{rest})"


@st.composite
def parsers(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A parser of up to four options with distinct option strings (and maybe a positional), and a command line
    from its option strings, their prefixes, values of every kind and words it does not know."""
    options = [draw(option(i)) for i in range(draw(st.integers(1, 4)))]
    seen: set[str] = set()
    calls: list[str] = []
    for flags, call in options:
        if not seen & set(flags):
            seen |= set(flags)
            calls.append(call)
    if draw(st.booleans()):
        calls.insert(draw(st.integers(0, len(calls))), "p.add_argument('run', type=str)")
    strings = sorted(seen)
    pool = [*strings, *(s[:4] for s in strings if s.startswith("--")), "4", "-3", "0.5", "abc", "True", "", "r1"]
    pool += [
        "--unknown",
        "-q",
        *(f"{s}=2" for s in strings if s.startswith("--")),
        *(f"{s}9" for s in strings if len(s) == 2),
    ]
    argv = draw(st.lists(st.sampled_from(pool), max_size=6))
    return HEAD + "\n".join(calls) + "\n" + TAIL, argv


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(parsers())
def test_generated_parsers_agree_with_argparse(case: tuple[str, list[str]]) -> None:
    """Every field the reader says it knows holds argparse's value for the same command line."""
    script, argv = case
    agrees(script, argv)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [(None, 4096), (["--sequence-length=1024", "trainer.max_duration=1"], 1024), (["--seq", "2048"], 2048)],
)
def test_a_namespace_handed_to_a_function_keeps_its_values(argv: list[str] | None, expected: int) -> None:
    """``opts = parser.parse_known_args()[0]`` at module level, read by a function it is handed to (OLMo-core's
    scripts): the default, or the launch line's flag."""
    script = HEAD + "p.add_argument('--sequence-length', type=int, default=4096)\nopts = p.parse_known_args()[0]\n"
    script += "def build(o):\n    return o.sequence_length\nlength = build(opts)\n"
    assert read_python(script, argv=argv).names["length"].value == expected


def test_a_parser_and_a_command_line_too_large_to_split_are_refused_by_a_bound() -> None:
    """Thousands of options against thousands of words: the split's work is counted, and the bound refuses it."""
    script = HEAD + "for i in range(3000):\n    p.add_argument(f'--o{i}', type=int)\n" + TAIL
    with pytest.raises(CheckError) as raised:
        read_python(script, argv=[f"--o{i % 3000}" for i in range(3000)])
    assert raised.value.ctx["detail"] == "python_work"
