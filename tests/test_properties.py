"""Properties over generated input: nothing but InputError escapes, and valid setups round-trip."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.answers import answer_command
from bot.blocks import Visibility
from bot.formatting import number
from core import BatchSetup, CompareCommand, HelpRequest, InputError, PlanCommand, PlanRequest, compute, parse_command
from core.model import MAX_ACCUMULATION, MAX_DATA_PARALLEL, MAX_MICRO_BATCH, MAX_SEQ_LEN
from core.parser import KEY_ALIASES

from slack_checks import assert_valid_message

# Words that reach deep into the grammar: keys, flags, numbers with separators and suffixes.
grammar_words = st.one_of(
    st.sampled_from([*KEY_ALIASES, "B", "T", "privat", "hilfe", "×", "=", ",", "k", "Ki", "M", "<!channel>"]),
    st.from_regex(r"[0-9]{1,8}([._,][0-9]{1,4})*(k|K|M|Ki|Mi|m|e3)?", fullmatch=True),
    st.builds(lambda k, v: f"{k}={v}", st.sampled_from([*KEY_ALIASES, "B", "x"]), st.text(max_size=8)),
    st.text(max_size=12),
)
command_texts = st.one_of(st.text(max_size=200), st.lists(grammar_words, max_size=8).map(" ".join))


@settings(max_examples=400, deadline=None)
@given(command_texts)
def test_parser_raises_only_input_error(text: str) -> None:
    """Any text either parses or raises the project's own InputError with at least one problem."""
    try:
        outcome: object = parse_command(text)
    except InputError as error:
        outcome = error.problems
    assert isinstance(outcome, PlanCommand | CompareCommand | HelpRequest) or len(outcome) >= 1  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(command_texts)
def test_every_answer_is_a_valid_slack_message(text: str) -> None:
    """Whatever is typed, the answer is Block Kit that slack_sdk and Slack's limits accept."""
    _, message = answer_command(text, Visibility.IN_CHANNEL)
    assert_valid_message(message.to_slack())


setups = st.builds(
    BatchSetup,
    micro_batch=st.integers(1, MAX_MICRO_BATCH),
    data_parallel=st.integers(1, MAX_DATA_PARALLEL),
    accumulation=st.integers(1, MAX_ACCUMULATION),
    seq_len=st.none() | st.integers(1, MAX_SEQ_LEN),
)


@settings(max_examples=300)
@given(setups, st.booleans())
def test_german_formatted_values_round_trip(setup: BatchSetup, named: bool) -> None:
    """Values written the way the answer shows them (4.096) parse back to the same setup."""
    values = [setup.micro_batch, setup.data_parallel, setup.accumulation, setup.seq_len]
    shown = [number(v) for v in values if v is not None]
    text = " ".join(f"{k}={v}" for k, v in zip("bdaL", shown, strict=False)) if named else " ".join(shown)
    assert parse_command(text) == PlanCommand(request=PlanRequest(**setup.model_dump()))


@settings(max_examples=300)
@given(setups)
def test_global_batch_is_the_product(setup: BatchSetup) -> None:
    """B = b · d · a and T = B · L hold for every valid setup."""
    result = compute(setup)
    assert result.global_batch == setup.micro_batch * setup.data_parallel * setup.accumulation
    if setup.seq_len is None:
        assert result.tokens_per_step is None
    else:
        assert result.tokens_per_step == result.global_batch * setup.seq_len
