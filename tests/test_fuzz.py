"""The grammar under a fuzzer: whatever arrives, a well-formed German Block Kit answer, escaped.

How fast an answer is belongs in ``make bench``; here only correctness counts.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.document import AnswerKind, Visibility
from bot.rendering.answers import answer_command
from bot.rendering.block_kit import message
from bot.rendering.checks import check_reply
from bot.texts import checks as check_texts
from core.check_command import CheckRequest
from core.configs import CheckError, Source, World, check_config
from core.parser import KEY_ALIASES

from slack_checks import all_text, assert_valid_message

#: 10.000 cases: the issue's floor, inside CI's time (about 20 s here).
CASES = 10_000
#: Every answer is one of these German frames.
GERMAN = (
    "Effektive Batch-Größe",
    "Das habe ich nicht verstanden",
    "Da fehlt noch etwas",
    "Das passt nicht zusammen",
    "effbatch – Hilfe",
    "effbatch – Schlüssel",
    "Vergleich:",
    "erreichbar",
    check_texts.PROBLEM_TITLE,  # "prüfe …" without a config it can read
    "effektive Batch-Größe",  # a config check's title
    "so startet dieser Lauf nicht",
    "anders als angegeben",
    "Konfiguration geprüft",
)

digits = st.text(alphabet="0123456789", min_size=1, max_size=12)
numbers = st.one_of(
    digits,
    st.builds(lambda a, b: f"{a}.{b}", digits, st.from_regex(r"[0-9]{3}", fullmatch=True)),  # 4.096
    st.builds(lambda a, b: f"{a}_{b}", digits, digits),  # 4_096
    st.builds(lambda a, b: f"{a},{b}", digits, digits),  # 8,5
    st.builds(lambda n, s: f"{n}{s}", digits, st.sampled_from(["k", "K", "M", "Ki", "Mi", "m", "G", "T", "B", "e3"])),
    st.just("1" * 10_000),  # a 10.000-digit number
    st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=6),  # Unicode digits: ٣, ６, ३
    st.builds(lambda n: f"-{n}", digits),
)
hostile = st.sampled_from(
    [
        "<!channel>",
        "<!here>",
        "<!everyone>",
        "<@U024BE7LH>",
        "<#C123|allgemein>",
        "<https://evil.example|klick>",
        "&lt;!channel&gt;",
        "*fett*",
        "_kursiv_",
        "~weg~",
        "`code`",
        "```block```",
        "> zitat",
        "\u200f",  # right-to-left mark
        "\u202e8 46",  # right-to-left override
        "\u200b",  # zero-width space
        "\x00",
        "\x1b[31m",
        "\r\n",
        "vs",
        "gegen",
        "privat",
        "hilfe",
        "prüfe",
        "=",
        "==",
        "×",
    ]
)
keys = st.sampled_from([*KEY_ALIASES, "B", "T", "t", "x", "", "b b"])
named = st.builds(lambda k, v: f"{k}={v}", keys, st.one_of(numbers, hostile, st.text(max_size=5)))
tokens = st.one_of(numbers, hostile, named, keys, st.text(max_size=8))
commands = st.one_of(st.lists(tokens, max_size=12).map(" ".join), st.text(max_size=300))


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(commands)
def test_any_input_gets_a_valid_german_escaped_answer(text: str) -> None:
    """Never an exception; Block Kit that slack_sdk and Slack's limits accept; German; no control sequence."""
    answered = answer_command(text, Visibility.IN_CHANNEL)
    payload = message(answered.document)
    assert_valid_message(payload)
    shown = all_text(payload)
    assert any(frame in shown for frame in GERMAN), answered.kind
    assert "<" not in shown  # every < typed by a user arrives as &lt;
    assert ">" not in shown
    if answered.kind is AnswerKind.INPUT_ERROR:
        assert payload["response_type"] == "ephemeral"


# --- pasted configs -------------------------------------------------------------------------------

#: Configs of every format to mangle: the fixtures (JSON, YAML, TOML, Python, shell), those in a framework's folder too.
CONFIG_TEXTS = sorted(
    path.read_text() for path in (Path(__file__).parent / "data" / "configs").rglob("*") if path.is_file()
)
CONFIG_CASES = 3_000


@st.composite
def mangled(draw: st.DrawFn) -> str:
    """A fixture cut, spliced with noise, or with a value replaced; or text of any kind."""
    text = draw(st.sampled_from(CONFIG_TEXTS))
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 40)))
    noise = draw(
        st.one_of(
            st.text(max_size=20),
            hostile,
            numbers,
            st.sampled_from(["{", "[", "&", "*", "!!", "$(", "${", "\\", '"', "'", "\t", "-1", "auto", "0"]),
        )
    )
    return text[:start] + noise + text[end:]


configs = st.one_of(mangled(), st.text(max_size=400), st.builds(lambda t: f"```{t}```", st.text(max_size=200)))


@settings(max_examples=CONFIG_CASES, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(configs, st.one_of(st.none(), st.integers(1, 4096)))
def test_any_pasted_config_gets_a_check_or_a_german_refusal(text: str, gpus: int | None) -> None:
    """check_config raises nothing but CheckError; the Slack answer is valid Block Kit, escaped, German."""
    with contextlib.suppress(CheckError):
        check_config([Source("eingefügt", text)], World(gpus, "gpus") if gpus else None)
    reply = check_reply(CheckRequest(text, World(gpus, "gpus") if gpus else None), Visibility.IN_CHANNEL)
    payload = message(reply.answer.document)
    assert_valid_message(payload)
    shown = all_text(payload)
    assert "<" not in shown
    assert ">" not in shown
    assert reply.answer.kind in (AnswerKind.CHECK, AnswerKind.INPUT_ERROR)
