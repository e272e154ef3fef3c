"""The Block Kit answers as Slack receives them: contents, German formats, escaping, limits."""

from __future__ import annotations

import pytest

from bot.answers import answer_command
from bot.blocks import Visibility
from bot.formatting import number, rounded
from core.parser import KEY_ALIASES

from slack_checks import all_text, assert_valid_message


def answer(text: str, visibility: Visibility = Visibility.IN_CHANNEL) -> tuple[str, dict]:
    kind, message = answer_command(text, visibility)
    payload = message.to_slack()
    assert_valid_message(payload)
    return kind, payload


def test_worked_example() -> None:
    """8 64 4 4096: header with B, inputs, both breakdowns, rounded tokens, limits, in the channel."""
    kind, payload = answer("8 64 4 4096")
    assert kind == "calculation"
    assert payload["response_type"] == "in_channel"
    header, fields, batch, tokens, context = payload["blocks"]
    assert header["text"]["text"] == "Effektive Batchgröße: 2.048 Sequenzen"
    assert [f["text"] for f in fields["fields"]] == [
        "*Batch je Gerät (b)*\n8",
        "*Datenparallele Geräte (d)*\n64",
        "*Akkumulationsschritte (a)*\n4",
        "*Sequenzlänge (L)*\n4.096",
    ]
    assert "`B = b · d · a = 8 × 64 × 4 = 2.048`" in batch["text"]["text"]
    assert "`T = B · L = 2.048 × 4.096 = 8.388.608`" in tokens["text"]["text"]
    assert "≈ 8,4\u00a0Mio. Tokens" in tokens["text"]["text"]
    assert "d = GPUs / (TP · PP · CP · SP)" in context["elements"][0]["text"]
    assert "feste (gepackte) Sequenzlängen" in context["elements"][0]["text"]


def test_fallback_text_carries_the_result() -> None:
    """Notifications and screen readers get B and T from the top-level text."""
    _, payload = answer("8 64 4 4096")
    assert "2.048" in payload["text"]
    assert "8.388.608" in payload["text"]
    assert "8 × 64 × 4" in payload["text"]


def test_doubling_accumulation() -> None:
    """a = 8 instead of 4 lifts B from 2.048 to 4.096 (the issue's second example)."""
    _, payload = answer("8 64 8 4096")
    assert payload["blocks"][0]["text"]["text"] == "Effektive Batchgröße: 4.096 Sequenzen"


def test_without_sequence_length_gives_a_hint() -> None:
    """Without L the token lines are replaced by a hint how to add it."""
    _, payload = answer("8 64 4")
    text = all_text(payload)
    assert "T = B · L =" not in text
    assert "Sequenzlänge als viertem Wert oder `L=`" in text
    assert "Sequenzlänge (L)" not in text


def test_small_token_count_has_no_rounded_reading() -> None:
    """Below a million the digits are shown alone (491.520, nanoGPT's tokens per step)."""
    _, payload = answer("12 8 5 1024")
    text = all_text(payload)
    assert "491.520 Tokens" in text
    assert "≈" not in text


def test_private_answer_is_ephemeral() -> None:
    """`privat` answers only the caller."""
    _, payload = answer("8 64 4 4096 privat")
    assert payload["response_type"] == "ephemeral"


def test_configured_ephemeral_default() -> None:
    """EFFBATCH_RESPONSE_TYPE=ephemeral makes every answer private."""
    _, payload = answer("8 64 4 4096", Visibility.EPHEMERAL)
    assert payload["response_type"] == "ephemeral"


def test_help_lists_every_key_and_is_ephemeral() -> None:
    """The help shows usage, every alias, number formats and examples, only to the caller."""
    kind, payload = answer("hilfe")
    assert kind == "help"
    assert payload["response_type"] == "ephemeral"
    text = all_text(payload)
    for alias in KEY_ALIASES:
        assert f"`{alias}`" in text
    for fragment in ("`/effbatch b d a [L]`", "`4.096`", "`4_096`", "`Ki`", "`128k` = 131.072", "privat"):
        assert fragment in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 64", "Es fehlt Akkumulationsschritte (a)"),
        ("8", "Es fehlen Datenparallele Geräte (d) und Akkumulationsschritte (a)"),
        ("8,5 64 4", "Batch je Gerät (b): „8,5“ ist keine ganze Zahl"),
        ("-8 64 4", "Batch je Gerät (b): „-8“ ist nicht positiv"),
        ("8 0 4", "Datenparallele Geräte (d): „0“ ist nicht positiv"),
        ("8 64 4 1e3", "Sequenzlänge (L): „1e3“: Exponentenschreibweise"),
        ("acht 64 4", "Batch je Gerät (b): „acht“ ist keine Zahl"),
        ("8 64 4 4.09", "Sequenzlänge (L): „4.09“ ist keine ganze Zahl: Der Punkt trennt nur Dreiergruppen"),
        ("8 64 4m", "Akkumulationsschritte (a): „4m“ hat die unbekannte Endung „m“"),
        ("8 64 4 4096 1", "„1“ ist ein Wert zu viel"),
        ("8 64 4 a=2", "Akkumulationsschritte (a): doppelt angegeben, als „4“ und als „2“"),
        ("8 64 4 seqq=4k", "Unbekannter Schlüssel „seqq“ in „seqq=4k“. Meintest du `seq=`"),
        ("8 64 70000", "Akkumulationsschritte (a): „70000“ liegt über der Obergrenze von 65.536"),
        ("8 64 4 " + "1" * 6000, "Sequenzlänge (L): „" + "1" * 39 + "…“ hat zu viele Stellen"),
    ],
)
def test_errors_are_specific_german_and_ephemeral(text: str, expected: str) -> None:
    """Each bad input gets its own German sentence, with the example usage, only to the caller."""
    kind, payload = answer(text)
    assert kind == "input_error"
    assert payload["response_type"] == "ephemeral"
    assert expected in all_text(payload)
    assert "`/effbatch 8 64 4 4096`" in all_text(payload)


@pytest.mark.parametrize(
    ("hostile", "shown"),
    [
        ("<!channel>", "&lt;!channel&gt;"),  # as a Socket Mode or console client may pass it raw
        ("&lt;!channel&gt;", "&lt;!channel&gt;"),  # as Slack sends a typed <!channel>: escaped once, not twice
        ("<!here>", "&lt;!here&gt;"),
        ("<@U024BE7LH>", "&lt;@U024BE7LH&gt;"),
        ("<https://evil.example|klick>", "&lt;https://evil.example|klick&gt;"),
        ("<#C123>", "&lt;#C123&gt;"),
        ("a&b", "a&amp;b"),
    ],
)
def test_echoed_user_text_is_escaped(hostile: str, shown: str) -> None:
    """Nothing the user typed can become a mention, a link or a broadcast; it reads as typed."""
    _, payload = answer(f"{hostile} 64 4")
    text = all_text(payload)
    for control in ("<!", "<@", "<#", "<http"):
        assert control not in text
    assert f"„{shown}“" in text


def test_many_problems_are_capped() -> None:
    """A pasted paragraph yields at most ten problem lines and a count of the rest."""
    _, payload = answer(" ".join(f"k{i}=1" for i in range(30)))
    text = payload["blocks"][0]["text"]["text"]
    assert text.count("Unbekannter Schlüssel") == 10
    assert "… und 21 weitere Probleme." in text  # 30 unknown keys + the missing values


@pytest.mark.parametrize(
    ("value", "plain", "reading"),
    [
        (2048, "2.048", None),
        # CLDR puts a no-break space between number and unit, so "Mio." never wraps alone.
        (8_388_608, "8.388.608", "8,4\u00a0Mio."),
        (999_999, "999.999", None),
        (2_500_000_000, "2.500.000.000", "2,5\u00a0Mrd."),
        (3 * 10**12, "3.000.000.000.000", "3\u00a0Bio."),
    ],
)
def test_german_number_formats(value: int, plain: str, reading: str | None) -> None:
    """Babel's de_DE formats: thousands with dots, rounded readings with a decimal comma."""
    assert (number(value), rounded(value)) == (plain, reading)


def test_largest_setup_fits_slack_limits() -> None:
    """Every bound at its maximum still gives a valid message (B and T are huge numbers)."""
    _, payload = answer("64Ki 1Mi 64Ki 16Mi")
    assert "Effektive Batchgröße: 4.503.599.627.370.496 Sequenzen" in all_text(payload)
