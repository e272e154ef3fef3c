"""Properties over generated input: nothing but InputError escapes, and valid setups round-trip."""

from __future__ import annotations

import decimal
import re
import shlex
import unicodedata

from babel.numbers import format_decimal
from examples_budget import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.formatting import number
from effbatch.core import (
    Argument,
    BatchSetup,
    CompareCommand,
    HelpRequest,
    InputError,
    PlanCommand,
    PlanRequest,
    ProblemKind,
    compute,
    parse_command,
)
from effbatch.core.configs.base import split_words
from effbatch.core.parser import KEY_ALIASES

from slack_checks import assert_valid_message

# Words that reach deep into the grammar: keys, flags, numbers with separators and suffixes.
grammar_words = st.one_of(
    st.sampled_from([*KEY_ALIASES, "B", "T", "privat", "hilfe", "×", "=", ",", "k", "Ki", "M", "<!channel>"]),
    st.from_regex(r"[0-9]{1,8}([._,][0-9]{1,4})*(k|K|M|Ki|Mi|m|e3)?", fullmatch=True),
    st.builds(lambda k, v: f"{k}={v}", st.sampled_from([*KEY_ALIASES, "B", "x"]), st.text(max_size=8)),
    st.text(max_size=12),
)
command_texts = st.one_of(st.text(max_size=200), st.lists(grammar_words, max_size=8).map(" ".join))


@settings(max_examples=examples(400), deadline=None)
@given(command_texts)
def test_parser_raises_only_input_error(text: str) -> None:
    """Any text either parses or raises the project's own InputError, whose problems quote only what was typed."""
    try:
        command = parse_command(text)
    except InputError as error:
        typed = re.sub(r"\s", "", unicodedata.normalize("NFC", text))
        for problem in error.problems:
            assert isinstance(problem.kind, ProblemKind)
            assert problem.text is None or re.sub(r"\s", "", problem.text) in typed
        return
    assert isinstance(command, PlanCommand | CompareCommand | HelpRequest)


@settings(max_examples=examples(300), deadline=None)
@given(command_texts)
def test_every_answer_is_a_valid_slack_message(text: str) -> None:
    """Whatever is typed, the answer is Block Kit that slack_sdk and Slack's limits accept."""
    assert_valid_message(message(answer_command(text, Visibility.IN_CHANNEL).document))


setups = st.builds(
    BatchSetup,
    micro_batch=st.integers(1, Argument.MICRO_BATCH.upper_bound),
    data_parallel=st.integers(1, Argument.DATA_PARALLEL.upper_bound),
    accumulation=st.integers(1, Argument.ACCUMULATION.upper_bound),
    seq_len=st.none() | st.integers(1, Argument.SEQ_LEN.upper_bound),
)


@settings(max_examples=300)
@given(setups, st.booleans())
def test_german_formatted_values_round_trip(setup: BatchSetup, named: bool) -> None:
    """Values written the way the answer shows them (4.096) parse back to the same setup."""
    values = [setup.micro_batch, setup.data_parallel, setup.accumulation, setup.seq_len]
    shown = [number(v) for v in values if v is not None]
    text = " ".join(f"{k}={v}" for k, v in zip("bdaL", shown, strict=False)) if named else " ".join(shown)
    assert parse_command(text) == PlanCommand(request=PlanRequest(**setup.model_dump()))


def test_one_of_each_is_one() -> None:
    """One sequence on one device, once: B = 1, and T is the sequence length."""
    result = compute(BatchSetup(micro_batch=1, data_parallel=1, accumulation=1, seq_len=4096))
    assert (result.global_batch, result.tokens_per_step) == (1, 4096)


@settings(max_examples=300)
@given(setups, st.sampled_from(["micro_batch", "data_parallel", "accumulation", "seq_len"]))
def test_doubling_any_factor_doubles_the_result(setup: BatchSetup, factor: str) -> None:
    """B doubles with b, d or a and not with L; T doubles with each of the four (with B = 1 at 1·1·1: the product)."""
    value = getattr(setup, factor)
    assume(value is not None and 2 * value <= Argument(factor).upper_bound)
    before, after = compute(setup), compute(setup.model_copy(update={factor: 2 * value}))
    assert after.global_batch == before.global_batch * (1 if factor == "seq_len" else 2)
    if before.tokens_per_step is not None:
        assert after.tokens_per_step == 2 * before.tokens_per_step


def _shlex_words(text: str, punctuation: bool) -> list[str]:
    """The standard library's POSIX shell lexer: the oracle for effbatch's faster word splitting."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|" if punctuation else "")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote: both split at white space
        return text.split()


@settings(max_examples=3000, deadline=None, database=None)
@given(st.text(alphabet=" \t\nab-=$\"'\\;&|()", max_size=40), st.booleans())
def test_launch_lines_split_into_words_as_shlex_does(text: str, punctuation: bool) -> None:
    """Quotes, escapes and ; && | in launch scripts give the words Python's shlex gives."""
    assert split_words(text, punctuation) == _shlex_words(text, punctuation)


@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_whole_numbers_read_as_babel_writes_them(value: int) -> None:
    """``number`` writes a whole number without Babel exactly as Babel's de_DE pattern does (2.048, -1.000.000)."""
    with decimal.localcontext(prec=64):
        assert number(value) == format_decimal(value, locale="de_DE")
