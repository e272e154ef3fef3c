"""The recipes' reading (``read.python.sites``, what OLMo-core and Megatron-Bridge read) against Python itself.

OLMo-core's launch scripts and Megatron-Bridge's recipes write their batches as arithmetic over module constants,
a function's parameters and names their framework hands the function (``16 * common.max_sequence_length``). Each
row and each generated expression is evaluated by Python's own ``eval`` and by the reader as those frameworks ask
it: where the reader gives a whole number it is Python's, and where Python's value is one, the reader finds it.
Nothing in ``core`` runs a script: only this test does, on expressions it wrote itself.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from examples_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from effbatch.core.configs.read.python import sites
from effbatch.core.configs.read.python.sites import whole_number

#: The module a recipe's expression stands in; ``common`` is what OLMo-core's ``build_config`` hands the function.
PRELUDE = "SEQUENCE_LENGTH = 4096\nGPUS = 8\nTOKENS = 4e6\nSIZES = [512, 1024]\n"
COMMON = {"common.max_sequence_length": 2048, "common.global_batch_size": 1024 * 2048}
NAMES: dict[str, Any] = {
    "SEQUENCE_LENGTH": 4096,
    "GPUS": 8,
    "TOKENS": 4e6,
    "SIZES": [512, 1024],
    "common": SimpleNamespace(max_sequence_length=2048, global_batch_size=1024 * 2048),
    "min": min,
    "max": max,
    "int": int,
    "abs": abs,
}


def read_keyword(expression: str) -> int | None:
    """``expression`` as a keyword of a call in a recipe function, read as the frameworks read it."""
    text = f"{PRELUDE}\n\ndef recipe(common):\n    Config(value={expression})\n"
    script = sites.read(text, "recipe.py")
    (call,) = script.called("Config")
    return sites.resolve(call.keywords["value"], {**script.constants, **COMMON}).number


def python_value(expression: str) -> int | None:
    """What Python makes of ``expression`` over the same names, as a whole number (None: none, or Python raises)."""
    try:
        return whole_number(eval(expression, {"__builtins__": {}}, dict(NAMES)))  # our own expression
    except (ArithmeticError, TypeError, ValueError, IndexError):
        return None


# (expression as OLMo-core's and Megatron-Bridge's recipes write it, Python's whole number)
CASES = [
    ("1024 * SEQUENCE_LENGTH", 4_194_304),  # OLMo2-13B.py: global_batch_size=1024 * SEQUENCE_LENGTH
    ("16 * common.max_sequence_length", 32_768),  # OLMo2-13B.py: rank_microbatch_size
    ("common.global_batch_size // GPUS", 262_144),
    ("TOKENS // SEQUENCE_LENGTH", 976),  # 4e6 is a float: Python's floor division gives 976.0
    ("int(TOKENS)", 4_000_000),
    ("SEQUENCE_LENGTH / 2", 2048),  # a true division that comes out whole
    ("SEQUENCE_LENGTH / 3", None),  # one that does not: no whole number
    ("2**20", 1_048_576),
    ("2**-1", None),
    ("max(1, GPUS // 64)", 1),
    ("min(SIZES) * SEQUENCE_LENGTH", 2_097_152),
    ("SIZES[1] * SEQUENCE_LENGTH", 4_194_304),  # a schedule's list, indexed
    ("-(-SEQUENCE_LENGTH // 3)", 1366),  # ceiling division
    ("SEQUENCE_LENGTH % 1000", 96),
    ("GPUS // 0", None),  # Python raises ZeroDivisionError: no number
    ("0 or SEQUENCE_LENGTH", 4096),
    ("GPUS > 4 and 32 or 16", 32),
    ("32 if GPUS > 4 else 16", 32),
    ("True", None),  # a bool is no batch size
    ("'4096'", None),
]


@pytest.mark.parametrize(("expression", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_recipes_expressions_are_pythons(expression: str, expected: int | None) -> None:
    """Each row: Python's whole number (the row says it), and the reader's is the same."""
    assert python_value(expression) == expected
    assert read_keyword(expression) == expected


def test_what_only_the_run_knows_stays_unknown() -> None:
    """``opts.sequence_length or 4096`` over an argparse namespace the recipe does not have: no guess."""
    assert read_keyword("opts.sequence_length or 4096") is None
    assert read_keyword("os.environ['WORLD_SIZE']") is None


def test_the_world_size_is_the_one_the_launch_gives() -> None:
    """``get_world_size() // 64``, imported from OLMo-core: the world the check is given, or unknown without one."""
    text = "from olmo_core.distributed.utils import get_world_size\nConfig(num_replicas=get_world_size() // 64)\n"
    (call,) = sites.read(text).called("Config")
    value = call.keywords["num_replicas"]
    assert (value.number, value.written) == (None, "get_world_size() // 64")
    assert sites.resolve(value, {}, world=512).number == 8


_atoms = st.one_of(
    st.integers(-9, 4096).map(str),
    st.sampled_from(["SEQUENCE_LENGTH", "GPUS", "TOKENS", "common.max_sequence_length", "SIZES[0]", "0.5", "True"]),
)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.tuples(children, st.sampled_from(["+", "-", "*", "//", "%", "/"]), children)
    return st.one_of(
        binary.map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(children, st.integers(0, 3)).map(lambda t: f"({t[0]} ** {t[1]})"),
        children.map(lambda c: f"(-{c})"),
        st.tuples(children, st.sampled_from(["and", "or"]), children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["min", "max"]), children, children).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        children.map(lambda c: f"int({c})"),
    )


expressions = st.recursive(_atoms, _combine, max_leaves=6)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(expressions)
def test_generated_expressions_agree_with_python(expression: str) -> None:
    """Generated arithmetic over a recipe's names: the reader's whole number is Python's, and it finds every one
    Python computes within the reader's bounds."""
    ours, theirs = read_keyword(expression), python_value(expression)
    if ours is not None:
        assert ours == theirs, expression
    elif theirs is not None:
        assert abs(theirs) > 10**30 or "**" in expression, expression  # beyond the bounds, or a power it refuses


def test_constants_defaults_and_assignments_are_read_alike() -> None:
    """A module constant, a parameter default and an attribute a recipe assigns: the same expressions, in order."""
    text = (
        "SEQ = 2**12\nGBS = int(4e6) // SEQ\nSEQ = SEQ * 2\nLATER = unknown_call()\n"
        "def recipe(micro=max(1, GBS // 512)):\n    cfg.train.global_batch_size = GBS * 2\n"
    )
    script = sites.read(text)
    assert script.constants == {"SEQ": 8192, "GBS": 976}  # as Python leaves them; LATER only the run knows
    assert script.parameters == {"recipe": {"micro": 1}}
    assert script.assigned["recipe"]["cfg.train.global_batch_size"].number == 1952
