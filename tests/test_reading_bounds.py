"""Hostile pastes against the readers: each shape answered with its German reason, never a crash or a hang.

The shapes come from the issue's measurements on the old readers (seconds to minutes, gigabytes). Nothing
here is timed (``make bench`` measures); ``pytest.mark.timeout`` is a hang guard far below what the old
readers took (the Python config of unknown names: 256 s at 64 KiB; blank lines before a key: 26 s).
"""

from __future__ import annotations

import re

import pytest

from effbatch.bot.rendering.checks import problem_text
from effbatch.core.configs import CheckError, ProblemKind, Source, World, check_config, clean

GUARD = pytest.mark.timeout(10)


def _fill(line: str, size: int = 60_000) -> str:
    """``line`` numbered until ``size`` bytes."""
    parts, total, index = [], 0, 0
    while total < size:
        parts.append(line.format(index))
        total += len(parts[-1])
        index += 1
    return "".join(parts)


def _yaml_doubling(spelling: str) -> str:
    """A billion-laughs document: 24 levels, each two aliases of the level before (2²⁴ values expanded)."""
    if spelling == "flow":
        levels = ", ".join(f"l{i}: &l{i} {{p: *l{i - 1}, q: *l{i - 1}}}" for i in range(1, 25))
        return "root: {l0: &l0 [x, x], " + levels + "}\nmicro_batch_size: 1\n"
    levels = "".join(f"l{i}: &l{i} [*l{i - 1}, *l{i - 1}]\n" for i in range(1, 25))
    return "l0: &l0 [x, x]\n" + levels + "micro_batch_size: *l24\n"


#: Each shape: the text, the reason (kind and detail) it is refused with, and where its number comes from.
REFUSED = {
    # JSON nested 20.000 deep: json's scanner recursed into a RecursionError
    "json nested": ('{"a": ' + "[" * 20_000 + "]" * 20_000 + "}", ProblemKind.UNREADABLE, "nesting"),
    "json objects nested": ('{"a":' * 10_000 + "1" + "}" * 10_000, ProblemKind.UNREADABLE, "nesting"),
    # tomllib recurses per array level
    "toml nested": ("a = " + "[" * 20_000 + "]" * 20_000 + "\n[training]\nb = 1\n", ProblemKind.UNREADABLE, "nesting"),
    # ast: parentheses are the parser's own limit (200), a chain of + its recursion, unary minus its memory
    "python parentheses": ("batch_size = " + "(" * 300 + "1" + ")" * 300, ProblemKind.UNREADABLE, "nesting"),
    "python chain": ("batch_size = " + "1+" * 20_000 + "1\n", ProblemKind.UNREADABLE, "nesting"),
    "python unary": ("batch_size = " + "-" * 30_000 + "1\n", ProblemKind.UNREADABLE, "memory"),
    # YAML: billion laughs within the old alias cap (48 aliases), as blocks and as a flow mapping
    "yaml doubling": (_yaml_doubling("block"), ProblemKind.UNSAFE, "expanded"),
    "yaml doubling, flow mapping": (_yaml_doubling("flow"), ProblemKind.UNSAFE, "expanded"),
    "yaml 60 aliases in a flow mapping": (
        "a: &a 1\nb: {" + ", ".join(f"k{i}: *a" for i in range(60)) + "}\n",
        ProblemKind.UNSAFE,
        "aliases",
    ),
    "yaml nested blocks": (
        "".join(" " * i + f"k{i}:\n" for i in range(100)) + " " * 100 + "x: 1\n",
        ProblemKind.UNREADABLE,
        "nesting",
    ),
    "yaml nested sequences": ("a: " + "[" * 100 + "]" * 100 + "\n", ProblemKind.UNREADABLE, "nesting"),
    # numbers whose digits are no single run: hex, underscores, base 60 (PyYAML multiplies per part)
    "yaml hex": ("micro_batch_size: 0x" + "f" * 20_000 + "\n", ProblemKind.UNREADABLE, "long_number"),
    "yaml base 60": ("micro_batch_size: 1" + ":59" * 15_000 + "\n", ProblemKind.UNREADABLE, "long_number"),
    "yaml underscores": ("micro_batch_size: " + "1_" * 3_000 + "1\n", ProblemKind.UNREADABLE, "long_number"),
    "toml hex": ("[training]\nlocal_batch_size = 0x" + "f" * 20_000 + "\n", ProblemKind.UNREADABLE, "long_number"),
    "toml underscores": (
        "[training]\nlocal_batch_size = " + "1_" * 5_000 + "1\n",
        ProblemKind.UNREADABLE,
        "long_number",
    ),
    "python hex": ("batch_size = 0x" + "f" * 20_000 + "\n", ProblemKind.UNREADABLE, "long_number"),
}


@GUARD
@pytest.mark.parametrize("case", REFUSED)
def test_a_hostile_shape_is_refused_with_its_reason(case: str) -> None:
    """The reader refuses at once, and the reason reads as a German sentence naming the limit."""
    text, kind, detail = REFUSED[case]
    with pytest.raises(CheckError) as caught:
        check_config([Source("eingefügt", text)], World(8, "gpus=8"))
    assert (caught.value.kind, caught.value.ctx.get("detail")) == (kind, detail)
    german = problem_text(caught.value, slack=True)
    assert german.startswith("Die Datei „eingefügt“ "), german  # a named source as the sentence's subject
    assert not re.search(r"\{[a-z_]+\}", german), german  # every placeholder filled


#: Shapes that used to take seconds to minutes and are ordinary configs: each is answered (checked or refused).
ANSWERED = {
    # ast.get_source_segment per assignment split the whole text each time: 256 s for 64 KiB
    "python of unknown names": _fill("n{0} = u{0}\n") + "batch_size = 8\ngradient_accumulation_steps = 8\n",
    # ^\s* over MULTILINE ran over every following blank line at every line start: 26 s
    "blank lines before a key": "\n" * 60_000 + "micro_batch_size: 2\ngradient_accumulation_steps: 4\n",
    "blank lines in python": "\n" * 60_000 + "batch_size = 8\ngradient_accumulation_steps = 8\n",
    "spaces before each key": _fill(" " * 200 + "\n") + "micro_batch_size: 2\ngradient_accumulation_steps: 4\n",
    # keys.count per key: 10.000 keys, 10⁸ comparisons
    "json of 6.000 keys": "{" + ",".join(f'"k{i}": {i}' for i in range(6_000)) + ', "train_batch_size": 8}',
    # a 99-digit number doubled line by line: 5.000 lines, then a division that overflowed a float
    "python doubling": "a = " + "9" * 99 + "\n" + "a = a + a\n" * 5_000 + "batch_size = a / 1\n",
}


@GUARD
@pytest.mark.parametrize("case", ANSWERED)
def test_a_shape_that_was_slow_is_answered(case: str) -> None:
    """Checked, or refused with a reason that is no crash (the world size is given, so checks can finish)."""
    try:
        check = check_config([Source("eingefügt", ANSWERED[case])], World(8, "gpus=8"))
    except CheckError as error:
        german = problem_text(error, slack=True)
    else:
        german = check.framework
    assert german


@GUARD
@pytest.mark.parametrize(
    "text",
    [
        "<http:" * 10_000,  # a link's start without its end, 10.000 times
        "<http://x|" * 6_000,  # a label without its end
        "\n" * 60_000 + "```",  # a fence after 60.000 blank lines
        "```\n" * 15_000,
    ],
)
def test_pasted_text_is_cleaned_in_linear_time(text: str) -> None:
    """Slack's link brackets and code fences are removed without rescanning the rest of the text."""
    assert isinstance(clean(text), str)


def test_libyaml_reads_under_the_counting_composer() -> None:
    """Where PyYAML has libyaml, its C parser feeds the counting composer (the pure-Python reader is ~6× slower)."""
    import yaml

    from effbatch.core.configs.read import yaml_loader

    assert not yaml.__with_libyaml__ or yaml_loader._LOADER.__name__ == "_FastBoundedLoader"


@GUARD
@pytest.mark.parametrize("case", [name for name in REFUSED if name.startswith("yaml")])
def test_the_pure_python_reader_refuses_the_same(case: str) -> None:
    """Without libyaml the same composer counts: the same refusal for every YAML shape."""
    from effbatch.core.configs.read import yaml_loader

    text, kind, detail = REFUSED[case]
    loader = yaml_loader._BoundedLoader(text)
    try:
        with pytest.raises(CheckError) as caught:
            loader.get_single_data()
    finally:
        loader.dispose()
    assert (caught.value.kind, caught.value.ctx.get("detail")) == (kind, detail)


@pytest.mark.parametrize(("detail", "limit"), [("nesting", "64 Ebenen"), ("long_number", "über 100 Ziffern")])
def test_a_reason_without_its_limit_still_names_it(detail: str, limit: str) -> None:
    """Another reader (the shell's) may name the reason alone: the sentence takes the readers' limit."""
    german = problem_text(CheckError(ProblemKind.UNREADABLE, name="train.sh", line=None, detail=detail))
    assert limit in german
