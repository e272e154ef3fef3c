"""The grammar under a fuzzer: whatever arrives, a well-formed German Block Kit answer, escaped.

How fast an answer is belongs in ``make bench``; here only correctness counts.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from examples_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from effbatch.bot.document import AnswerKind, Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.checks import check_reply, problem_text
from effbatch.bot.texts import checks as check_texts
from effbatch.core.check_command import CheckRequest
from effbatch.core.configs import CheckError, Source, World, check_config
from effbatch.core.parser import KEY_ALIASES, RUNS_WORDS
from effbatch.core.runs import run_names

from slack_checks import all_text, assert_valid_message

#: 10.000 cases: the issue's floor, inside CI's time (about 20 s here).
CASES = 10_000
#: Every answer is one of these German frames.
GERMAN = (
    "Effektive Batch-Größe",
    "Das habe ich nicht verstanden",
    "Da fehlt noch etwas",
    "Das passt nicht zusammen",
    "Dieser Wert geht nicht",
    "Diese Werte gehen nicht",
    "kein solches Thema",
    "effbatch – Hilfe",
    "effbatch – Schlüssel",
    "Vergleich:",
    "Vergleich mit",  # a setup beside a published run
    "Veröffentlichte Läufe",  # läufe, filtered or not
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
#: Published runs and the word that lists them: `vs llama2-7b`, `läufe llama`, and near misses.
runs = st.sampled_from([*run_names(), *RUNS_WORDS, "llama", "llama9", "Llama-2-7B", "gpt3-1.3", "pythia"])
named = st.builds(lambda k, v: f"{k}={v}", keys, st.one_of(numbers, hostile, st.text(max_size=5)))
tokens = st.one_of(numbers, hostile, named, keys, runs, st.text(max_size=8))
commands = st.one_of(st.lists(tokens, max_size=12).map(" ".join), st.text(max_size=300))


@settings(max_examples=examples(CASES), deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
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

#: Configs of every format to mangle: the fixtures (JSON, YAML, TOML, Python, shell), each framework's folder included.
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


@settings(
    max_examples=examples(CONFIG_CASES), deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
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


# --- hostile shapes against the readers ---------------------------------------------------------

#: The shapes that once cost seconds, gigabytes or a crash, small enough to mangle many times; each a seed.
HOSTILE_SEEDS = [
    "n0 = u0\n" * 50 + "batch_size = 8\n",  # unknown names (source segments)
    "\n" * 500 + "micro_batch_size: 2\n",  # blank lines before a key (format detection)
    '{"a": ' + "[" * 80 + "]" * 80 + "}",  # nesting past the bound
    "[training]\nx = " + "[" * 80 + "]" * 80 + "\n",
    "batch_size = " + "1+" * 300 + "1\n",
    "batch_size = " + "-" * 300 + "1\n",
    "l0: &l0 [x, x]\n" + "".join(f"l{i}: &l{i} [*l{i - 1}, *l{i - 1}]\n" for i in range(1, 20)),  # alias doubling
    "root: {a: &a 1, " + ", ".join(f"k{i}: *a" for i in range(55)) + "}\n",  # aliases in a flow mapping
    "micro_batch_size: 0x" + "f" * 200 + "\n",
    "micro_batch_size: 1" + ":59" * 100 + "\n",
    "[training]\nlocal_batch_size = " + "1_" * 150 + "1\n",
    "a = " + "9" * 99 + "\n" + "a = a + a\n" * 50 + "batch_size = a / 1\n",
    "<http:" * 100 + "```\n" * 20,
]
HOSTILE_CASES = 1_000


@st.composite
def hostile_configs(draw: st.DrawFn) -> str:
    """A seed repeated, cut, or spliced with noise at any place."""
    text = draw(st.sampled_from(HOSTILE_SEEDS)) * draw(st.integers(1, 3))
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 20)))
    noise = draw(st.one_of(st.text(max_size=10), st.sampled_from(["*", "&", "{", "[", "]", "}", ":", "\n", "\x00"])))
    return text[:start] + noise + text[end:]


@settings(max_examples=HOSTILE_CASES, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(hostile_configs(), st.sampled_from(["eingefügt", "c.json", "c.yaml", "c.toml", "c.py"]))
def test_hostile_shapes_get_a_check_or_a_german_refusal(text: str, name: str) -> None:
    """Whatever the readers are given, only a CheckError leaves them, and its German text renders."""
    try:
        check_config([Source(name, text)], World(8, "gpus=8"))
    except CheckError as error:
        german = problem_text(error, slack=True)
        assert german
        assert not re.search(r"\{[a-z_]+\}", german), german  # every placeholder filled
