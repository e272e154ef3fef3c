"""The Python reader against Python itself: whatever it says a name holds, Python's own ``exec`` agrees.

Generated literal-only scripts (assignments of every shape, arithmetic, comparisons, ``and``/``or``, conditional
expressions, ``if``/``elif``/``else``, ``for`` over ranges and lists, ``while`` with a counter) run through
``read_python`` and through ``exec``; the hand-written rows are the classes a review found, each with Python's
answer. Nothing in ``core`` runs a script: only this test does, on scripts it wrote itself.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest
from examples_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from effbatch.core.configs.base import Origin, Unknown, Via, via_of
from effbatch.core.configs.read.python import read_python
from effbatch.core.configs.read.python.objects import deep_known

# (script, the names Python leaves, as Python computes them)
CASES = [
    ("batch_size = 12\nbatch_size *= 2\n", {"batch_size": 24}),  # the reader once kept 12
    ("x = 10\nx += 5\nx -= 3\nx //= 5\nx **= 3\nx %= 5\n", {"x": 3}),
    ("x = 7\nx /= 2\n", {"x": 3.5}),
    ("n: int = 4\nm: int\n", {"n": 4}),
    ("a, b = 1, 2\na, b = b, a\n", {"a": 2, "b": 1}),
    ("a = b = c = 5\n", {"a": 5, "b": 5, "c": 5}),
    ("first, *rest = [1, 2, 3]\n", {"first": 1, "rest": [2, 3]}),
    ("gpus = 8\nif gpus > 4:\n    bs = 32\nelif gpus > 2:\n    bs = 16\nelse:\n    bs = 8\n", {"bs": 32}),
    ("gpus = 2\nbs = 64 if gpus > 4 else 16\n", {"bs": 16}),
    ("a = 0 or 5\nb = 3 and 0\nc = not a\n", {"a": 5, "b": 0, "c": False}),
    ("t = 0\nfor i in range(4):\n    t += i\n", {"t": 6, "i": 3}),
    ("t = 0\nfor v in [3, 4]:\n    t += v\nelse:\n    done = True\n", {"t": 7, "done": True}),
    ("k = 1\nwhile k < 100:\n    k *= 3\n", {"k": 243}),
    ("k = 0\nfor i in range(10):\n    if i == 3:\n        break\n    k += 1\n", {"k": 3}),
    ("xs = [1]\nys = xs\nxs += [2]\n", {"xs": [1, 2], "ys": [1, 2]}),  # in place, as Python's list does it
    ("d = {'b': 2}\nd['a'] = 1\nv = d.get('c', 3)\n", {"d": {"b": 2, "a": 1}, "v": 3}),
    ("s = f'{4}x{2}'\n", {"s": "4x2"}),
    ("total = 512\nmicro = 4\nworld = 8\nga = total // micro // world\n", {"ga": 16}),  # LoRA scripts' floor
    ("def f(x, y=2):\n    return x * y\nz = f(3)\n", {"z": 6}),
    ("z = min(4, 2) + max(1, 9) + abs(-3) + len([1, 2]) + int('7')\n", {"z": 23}),
    # a builtin's TypeError is raised as Python raises it: the handler that names it (or Exception) catches it
    ("try:\n    x = range('a')\nexcept TypeError:\n    x = 1\n", {"x": 1}),
    ("try:\n    x = list(range('a'))\nexcept (ValueError, TypeError):\n    x = 2\n", {"x": 2}),
    ("try:\n    x = sorted([1, 'a'])\nexcept ValueError:\n    x = 3\nexcept Exception:\n    x = 4\n", {"x": 4}),
    (
        "try:\n    try:\n        x = range('a')\n    except KeyError:\n        x = 5\nexcept TypeError:\n    x = 6\n",
        {"x": 6},
    ),
    # a function never called is never run: what would fail in it fails nothing
    ("def f():\n    return list(range('a'))\nbs = 8\n", {"bs": 8}),
    ("def f(n=None):\n    return range(n)\nbs = 9\n", {"bs": 9}),
]


@pytest.mark.parametrize(("script", "expected"), CASES, ids=[c[0].split("\n")[0] for c in CASES])
def test_cases_agree_with_python(script: str, expected: dict[str, Any]) -> None:
    """Each row: the reader's values are Python's (and Python agrees with the row)."""
    namespace: dict[str, Any] = {}
    exec(compile(script, "case.py", "exec"), namespace)  # our own literal-only script
    assert {name: namespace[name] for name in expected} == expected
    read = {name: given.value for name, given in read_python(script).names.items()}
    assert {name: read.get(name) for name in expected} == expected


def test_a_file_python_only_warns_about_is_read() -> None:
    """An invalid escape (``'\\.'``: a DeprecationWarning in Python 3.11, a SyntaxWarning since 3.12) does not stop
    Python from running the file, so it does not stop the reader – also where warnings are errors, as in this suite
    (``filterwarnings = ["error"]``). self-llm's MiniCPM-o train.py has one (line 136)."""
    script = "import re\nDOTS = re.compile('\\.+')\nbatch_size = 12\ngradient_accumulation_steps = 4\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        namespace: dict[str, Any] = {}
        exec(compile(script, "case.py", "exec"), namespace)  # our own script
    read = read_python(script).names
    assert (read["batch_size"].value, read["gradient_accumulation_steps"].value) == (12, 4)
    assert (namespace["batch_size"], namespace["gradient_accumulation_steps"]) == (12, 4)
    with pytest.raises(SyntaxError):
        compile(script, "case.py", "exec")  # the suite's warnings-as-errors, as the reader would have met it


def test_what_only_the_run_knows_is_named_not_guessed() -> None:
    """``os.environ`` without a launcher, an argument nobody gave: unknown, naming what they need."""
    script = "import os\nworld = int(os.environ.get('WORLD_SIZE', 1))\nga = 64 // world\nbs = args.bs\n"
    names = read_python(script).names
    assert isinstance(names["world"].value, Unknown)
    assert names["world"].value.needs == ("$WORLD_SIZE",)
    assert isinstance(names["ga"].value, Unknown)
    assert names["bs"].value == Unknown("args.bs", ("args.bs",))
    launched = read_python(script, environ={"WORLD_SIZE": "4"}).names
    assert (launched["world"].value, launched["ga"].value) == (4, 16)
    alone = read_python(script, environ={}).names  # ``python train.py``: one process, no WORLD_SIZE
    assert (alone["world"].value, alone["ga"].value) == (1, 64)


def test_an_undecided_condition_leaves_what_it_changes_unknown() -> None:
    """``if`` on something unknown: what both sides leave equal stays, the rest is unknown, the condition named."""
    script = "import sys\nkeep = 1\nif len(sys.argv) > 2:\n    bs = 8\n    keep = 1\nelse:\n    bs = 16\n"
    read = read_python(script)
    assert read.names["keep"].value == 1
    assert isinstance(read.names["bs"].value, Unknown)
    assert [c.text for c in read.undecided] == ["len(sys.argv) > 2"]


def test_argparse_defaults_and_the_launch_line() -> None:
    """``args.x``: the default where the launch line does not pass it, the flag's value where it does."""
    script = (
        "import argparse\np = argparse.ArgumentParser()\n"
        "p.add_argument('--batch_size', type=int, default=8)\np.add_argument('--fp16', action='store_true')\n"
        "args = p.parse_args()\nbs = args.batch_size\n"
    )
    assert read_python(script).names["bs"].value == 8
    assert read_python(script, argv=["--batch_size", "32", "--fp16"]).names["bs"].value == 32
    assert read_python(script, argv=["--batch=4"]).names["bs"].value == 4  # argparse's unambiguous prefix


def test_calls_are_recorded_with_their_keywords_and_where_they_came_from() -> None:
    """``TrainingArguments(per_device_train_batch_size=args.bs)`` inside ``main()``: the value and its origin."""
    script = (
        "import argparse\nfrom transformers import TrainingArguments\n"
        "p = argparse.ArgumentParser()\np.add_argument('--bs', type=int, default=4)\n"
        "def main():\n    args = p.parse_args()\n    t = TrainingArguments(per_device_train_batch_size=args.bs)\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    (call,) = read_python(script).called("TrainingArguments")
    given = call.keywords["per_device_train_batch_size"]
    assert (call.callee, call.function, call.reached) == ("transformers.TrainingArguments", "main", True)
    assert (given.value, given.line, given.written) == (4, 7, "args.bs")
    assert given.via is not None
    assert (given.via.line, given.via.written, given.via.origin) == (4, "--bs", Origin.DEFAULT)
    launched = read_python(script, argv=["--bs", "16"], launch="run.sh:2")
    (call,) = launched.called("TrainingArguments")
    assert via_of(call.keywords["per_device_train_batch_size"], launched, "train.py") == Via(
        Origin.LAUNCH, "--bs", "run.sh:2", (4, "train.py:4")
    )


# --- generated scripts -------------------------------------------------------------------------------------------

NAMES = ("a", "b", "c", "d")
PRELUDE = "a = 3\nb = 5\nc = 2\nd = 7\n"
BUILTINS = {"range": range, "min": min, "max": max, "abs": abs, "len": len, "int": int}

_atoms = st.one_of(
    st.integers(-20, 20).map(str),
    st.sampled_from(["0.5", "2.0", "'x'", "True", "False", "None", "(1, 2)", "[3, 4]"]),
    st.sampled_from(NAMES),
)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.tuples(children, st.sampled_from(["+", "-", "*", "//", "%", "/", "<", "==", "!=", ">="]), children)
    return st.one_of(
        binary.map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["-", "not ", "+"]), children).map(lambda t: f"({t[0]}{t[1]})"),
        st.tuples(children, st.sampled_from(["and", "or"]), children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(children, children, children).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(st.sampled_from(["min", "max"]), children, children).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
    )


expressions = st.recursive(_atoms, _combine, max_leaves=6)


def _statement(depth: int) -> st.SearchStrategy[list[str]]:
    name = st.sampled_from(NAMES)
    simple = st.one_of(
        st.tuples(name, expressions).map(lambda t: [f"{t[0]} = {t[1]}"]),
        st.tuples(name, st.sampled_from(["+=", "-=", "*=", "//=", "%="]), expressions).map(
            lambda t: [f"{t[0]} {t[1]} {t[2]}"]
        ),
        st.tuples(name, name, expressions, expressions).map(lambda t: [f"{t[0]}, {t[1]} = {t[2]}, {t[3]}"]),
        st.tuples(name, name, expressions).map(lambda t: [f"{t[0]} = {t[1]} = {t[2]}"]),
        st.tuples(name, expressions).map(lambda t: [f"{t[0]}: int = {t[1]}"]),
    )
    if depth == 0:
        return simple
    body = st.lists(_statement(depth - 1), min_size=1, max_size=3).map(
        lambda parts: [line for part in parts for line in part]
    )
    indented = body.map(lambda lines: ["    " + line for line in lines])
    compound = st.one_of(
        st.tuples(expressions, indented, indented).map(lambda t: [f"if {t[0]}:", *t[1], "else:", *t[2]]),
        st.tuples(name, st.integers(0, 4), indented).map(lambda t: [f"for {t[0]} in range({t[1]}):", *t[2]]),
        st.tuples(st.integers(0, 4), indented).map(  # a counter of its own per depth: nested loops end
            lambda t: [f"w{depth} = 0", f"while w{depth} < {t[0]}:", f"    w{depth} += 1", *t[1]]
        ),
    )
    return st.one_of(simple, simple, compound)


scripts = st.lists(_statement(2), min_size=1, max_size=6).map(
    lambda parts: PRELUDE + "\n".join(line for part in parts for line in part) + "\n"
)


def _same(ours: object, theirs: object) -> bool:
    """Equal values of the same type all the way down (1, 1.0 and True differ; NaN equals NaN)."""
    if type(ours) is not type(theirs):
        return False
    if isinstance(ours, float) and isinstance(theirs, float) and math.isnan(ours) and math.isnan(theirs):
        return True
    if isinstance(ours, list | tuple) and isinstance(theirs, list | tuple):
        return len(ours) == len(theirs) and all(_same(a, b) for a, b in zip(ours, theirs, strict=True))
    return ours == theirs


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(scripts)
def test_generated_scripts_agree_with_python(script: str) -> None:
    """Every name the reader says it knows holds Python's value; the rest it calls unknown."""
    namespace: dict[str, Any] = {"__builtins__": BUILTINS}
    try:
        exec(compile(script, "generated.py", "exec"), namespace)  # literal-only, generated above
    except (ArithmeticError, TypeError, ValueError, MemoryError):
        read_python(script)  # Python stops with an error; the reader must still answer, not crash
        return
    for name, value in read_python(script).names.items():
        if deep_known(value.value):
            assert name in namespace, script
            assert _same(value.value, namespace[name]), (
                f"{name}: {value.value!r} vs Python {namespace[name]!r}\n{script}"
            )
