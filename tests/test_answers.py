"""The Block Kit answers as Slack receives them: contents, German formats, escaping, limits."""

from __future__ import annotations

import re

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.formatting import number, rounded, seconds
from effbatch.bot.texts.problems import NOT_UNDERSTOOD, POSITIVE_WHOLE
from effbatch.core.parser import KEY_ALIASES

from slack_checks import all_text, assert_valid_message

#: The heading for a value understood but not allowed (0, -8, 8,5, over a bound).
NOT_ALLOWED = "Dieser Wert geht nicht"


def answer(text: str, visibility: Visibility = Visibility.IN_CHANNEL) -> tuple[str, dict]:
    answered = answer_command(text, visibility)
    payload = message(answered.document)
    assert_valid_message(payload)
    return answered.kind, payload


def test_worked_example() -> None:
    """8 64 4 4096: header with B, inputs, both breakdowns, rounded tokens, limits, in the channel."""
    kind, payload = answer("8 64 4 4096")
    assert kind == "calculation"
    assert payload["response_type"] == "in_channel"
    header, fields, batch, tokens, context, actions = payload["blocks"]
    assert header["text"]["text"] == "Effektive Batch-Größe: 2.048 Sequenzen"
    assert [f["text"] for f in fields["fields"]] == [
        "*Micro-Batch je Gerät (b)*\n8",
        "*Datenparallele Replikate (d)*\n64",
        "*Akkumulationsschritte (a)*\n4",
        "*Sequenzlänge (L)*\n4.096",
    ]
    # The reference's own lines: "B = b · d · a = 8 × 64 × 4 = 2.048 Sequenzen", "… Tokens (≈ 8,4 Mio.)".
    assert "`B = b · d · a = 8 × 64 × 4 = 2.048 Sequenzen`" in batch["text"]["text"]
    assert "`T = B · L = 2.048 × 4.096 = 8.388.608 Tokens` (≈ 8,4\u00a0Mio.)" in tokens["text"]["text"]
    # Only the small print that applies: T assumes packed sequences; no GPUs given, so nothing about d.
    assert "feste (gepackte) Sequenzlängen" in context["elements"][0]["text"]
    assert "d = GPUs / (TP · PP · CP · SP)" not in context["elements"][0]["text"]
    buttons = {button["text"]["text"]: button["value"] for button in actions["elements"]}
    assert buttons == {
        "Akkumulation ×2": "b=8 d=64 a=8 L=4096",
        "Akkumulation ÷2": "b=8 d=64 a=2 L=4096",
        "Replikate ×2": "b=8 d=128 a=4 L=4096",
        "Replikate ÷2": "b=8 d=32 a=4 L=4096",
        "Micro-Batch ×2": "b=16 d=64 a=4 L=4096",
        "Micro-Batch ÷2": "b=4 d=64 a=4 L=4096",
        "Anpassen…": "b=8 d=64 a=4 L=4096",
    }


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        ("8 64 4 4096", "Effektive Batch-Größe: 2.048 Sequenzen, ≈ 8,4\u00a0Mio. Tokens je Optimierer-Schritt"),
        ("12 8 5 1024", "Effektive Batch-Größe: 480 Sequenzen, 491.520 Tokens je Optimierer-Schritt"),  # nanoGPT
        ("8 64 4", "Effektive Batch-Größe: 2.048 Sequenzen je Optimierer-Schritt"),
    ],
)
def test_notification_text_is_one_short_line(text: str, summary: str) -> None:
    """Notifications and screen readers get B and T from the top-level text, in one short line."""
    _, payload = answer(text)
    assert payload["text"] == summary


def test_doubling_accumulation() -> None:
    """a = 8 instead of 4 lifts B from 2.048 to 4.096 (the issue's second example)."""
    _, payload = answer("8 64 8 4096")
    assert payload["blocks"][0]["text"]["text"] == "Effektive Batch-Größe: 4.096 Sequenzen"


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


def test_short_help_shows_usage_and_examples() -> None:
    """`hilfe` is short: usage, examples that work, where the key table is; only to the caller."""
    kind, payload = answer("hilfe")
    assert kind == "help"
    assert payload["response_type"] == "ephemeral"
    text = all_text(payload)
    for fragment in (
        "`/effbatch b d a [L]`",
        "privat",
        "`vs`",
        "`/effbatch hilfe schlüssel`",
        "`/effbatch prüfe [gpus=64]`",
        "`/effbatch cluster gpus=64 tp=8` – das Channel-Profil",
    ):
        assert fragment in text
    assert "`mbs`" not in text  # the key table is the other help
    assert len(text) < 3000  # with the three sentences on RL batches, still one screen


def test_help_examples_show_what_they_claim() -> None:
    """Every `/effbatch …` → claim in the help is what effbatch answers to that command."""
    _, payload = answer("hilfe")
    claims = re.findall(r"`/effbatch ([^`]+)` → ([^`\n]+)", all_text(payload))
    assert len(claims) >= 5
    for command, claim in claims:
        shown = all_text(answer(command)[1])
        for symbol, value in re.findall(r"([a-zBT]) = ([0-9.]+)", claim):
            # The claimed value ends the answer's formula for that symbol: `a = B / (b · d) = … = 128`.
            formula = rf"`{symbol} = [^`]*= {re.escape(value)}( Sequenzen| Tokens)?`"
            assert re.search(formula, shown), (command, symbol, value)


def test_key_help_lists_every_key_and_format() -> None:
    """`hilfe schlüssel` lists every alias, number formats, bounds, and what sp= means; only to the caller."""
    kind, payload = answer("hilfe schlüssel")
    assert kind == "help"
    assert payload["response_type"] == "ephemeral"
    text = all_text(payload)
    for alias in KEY_ALIASES:
        assert f"`{alias}`" in text
    for fragment in ("`4.096`", "`4_096`", "`Ki`", "`128k` = 131.072", "`Mio`", "`Mrd`", "`Bio`"):
        assert fragment in text
    assert "• Ziel-Batch-Größe: `B`, `gbs`" in text  # the case-sensitive keys are listed first
    assert "• Ziel-Tokens je Schritt: `T`, `tokens`" in text
    assert "keine deutsche Billion" in text  # B after a number is 10⁹
    assert "DeepSpeed-Ulysses" in text
    assert "`--sequence-parallel`" in text  # Megatron's rides on TP and divides nothing
    assert "Experten-Parallelität (EP) ändert die dichte Datenparallelität nicht" in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 64", "Es fehlt noch a (Akkumulationsschritte)"),
        ("8", "Es fehlen noch d (Datenparallele Replikate) und a (Akkumulationsschritte)"),
        ("8,5 64 4", "Micro-Batch je Gerät (b): „8,5“ ist keine ganze Zahl"),
        ("-8 64 4", "Micro-Batch je Gerät (b): „-8“ ist nicht positiv"),
        ("8 0 4", "Datenparallele Replikate (d): „0“ ist nicht positiv"),
        ("8 64 4 1.5e0", "Sequenzlänge (L): „1.5e0“ ist keine ganze Zahl"),  # exponent notation read, not whole
        ("8 2,000 4", "Datenparallele Replikate (d): „2,000“ lese ich nicht eindeutig"),  # once read as d = 2
        ("acht 64 4", "Micro-Batch je Gerät (b): „acht“ ist keine Zahl"),
        ("8 64 4 4.09", "Sequenzlänge (L): „4.09“ ist keine ganze Zahl: Der Punkt trennt nur Dreiergruppen"),
        ("8 64 4m", "Akkumulationsschritte (a): „4m“ hat die unbekannte Endung „m“"),
        ("8 64 4 4096 1", "„1“ ist ein Wert zu viel"),
        ("8 64 4 a=2", "Akkumulationsschritte (a): Doppelt angegeben: als 3. Zahl („4“) und als „a=2“"),
        ("8 64 4 seqq=4k", "Unbekannter Schlüssel „seqq“ in „seqq=4k“. Meintest du `seq=`"),
        ("8 64 70000", "Akkumulationsschritte (a): „70000“ liegt über der Obergrenze von 65.536"),
        ("8 64 4 " + "1" * 1900, "Sequenzlänge (L): „" + "1" * 39 + "…“ hat zu viele Stellen"),  # under the 2.000 cap
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
    header, problems = payload["blocks"][:2]
    assert header["text"]["text"] == "Das habe ich nicht verstanden"
    text = problems["text"]["text"]
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


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        # german-2.md row 29: every time in an answer to three significant digits, zeros kept as 1,0 · 10¹⁸ keeps them.
        (13.64, "13,6\u00a0s"),
        (19.18, "19,2\u00a0s"),
        (121.04, "121\u00a0s"),
        (6.9, "6,90\u00a0s"),
        (0.996, "0,996\u00a0s"),
        (0.0526, "0,0526\u00a0s"),  # a small part never reads as „0 s“
        (0.0, "0\u00a0s"),
        (1234.6, "1.235\u00a0s"),
    ],
)
def test_seconds_have_three_significant_digits(value: float, shown: str) -> None:
    """One rule for every step time and part in memory, scaling and plan answers."""
    assert seconds(value) == shown


def test_largest_setup_fits_slack_limits() -> None:
    """Every bound at its maximum still gives a valid message (B and T are huge numbers)."""
    _, payload = answer("64Ki 1Mi 64Ki 16Mi")
    assert "Effektive Batch-Größe: 4.503.599.627.370.496 Sequenzen" in all_text(payload)


@pytest.mark.parametrize(
    ("text", "kind", "fragments"),
    [
        (  # BLOOM-176B: d from the GPUs, a solved for, both broken down
            "gpus=384 tp=4 pp=12 b=2 B=2048 L=2048",
            "solve",
            [
                "Effektive Batch-Größe: 2.048 Sequenzen",
                "*Gesucht: Akkumulationsschritte (a)*\n`a = B / (b · d) = 2.048 / (2 · 8) = 128`",
                "d = GPUs / (TP · PP · CP · SP).",  # GPUs given: the note on what d counts applies
                "`d = GPUs / (TP · PP · CP · SP) = 384 / (4 · 12 · 1 · 1) = 8`",
                "*Datenparallele Replikate (d)*\n8 _aus den GPUs_",
                "*Akkumulationsschritte (a)*\n128 _berechnet_",
                "`T = B · L = 2.048 × 2.048 = 4.194.304 Tokens`",
            ],
        ),
        (  # the breakdown of d
            "gpus=512 tp=8 pp=2 b=2 a=16",
            "calculation",
            ["`d = GPUs / (TP · PP · CP · SP) = 512 / (8 · 2 · 1 · 1) = 32`", "*TP · PP · CP · SP*\n8 · 2 · 1 · 1"],
        ),
        (  # GPUs derived from d when only TP is given
            "b=2 a=16 tp=8 B=2048",
            "solve",
            ["`GPUs = d · TP · PP · CP · SP = 64 · 8 · 1 · 1 · 1 = 512`", "`d = B / (b · a) = 2.048 / (2 · 16) = 64`"],
        ),
        (  # a token target, solved through L
            "gpus=8 b=12 T=491520 L=1024",
            "solve",
            ["`a = T / (b · d · L) = 491.520 / (12 · 8 · 1.024) = 5`"],
        ),
        (  # not reachable: the division with its fraction and both neighbours, as options, not an error
            "b=3 d=8 B=2000 L=1024",
            "options",
            [
                "Nicht genau erreichbar: B = 2.000",
                "`a = B / (b · d) = 2.000 / (3 · 8) = 83,33…`",
                "a wäre 83,33… – keine ganze Zahl",
                "• `a = 83` → B = 1.992, T = 2.039.808",
                "• `a = 84` → B = 2.016, T = 2.064.384",
            ],
        ),
        (
            "8 64 4 4096 budget=2T",
            "calculation",
            ["`Schritte = ⌈Budget / T⌉ = ⌈2.000.000.000.000 / 8.388.608⌉ = 238.419`", "Budget ≈ 2\u00a0Bio. Tokens"],
        ),
        (
            "8 64 4 act=1,5GiB",
            "calculation",
            ["`b · act = 8 × 1,5\u00a0GiB = 12\u00a0GiB`", "Die Akkumulation erhöht ihn nicht"],
        ),
        (
            "8 64 4 4096 vs d=512 lr=3e-4",
            "comparison",
            [
                "Vergleich: B ×8 (2.048 → 16.384)",
                "`k = B₂ / B₁ = 16.384 / 2.048 = 8`",
                "Goyal et al. 2017",
                "`0,0003 × 8 = 0,0024`",
                "Malladi et al. 2022",
                "`0,0003 × 2,83 = 0,000849`",
                "Bei k ≥ 8 das Warmup anpassen",
            ],
        ),
        (  # halving: factors below one, no warmup warning, no lr given → the hint
            "8 64 4 vs d=32",
            "comparison",
            ["Vergleich: B ×0,5 (2.048 → 1.024)", "×0,707", "Mit `lr=3e-4` rechne ich"],
        ),
        ("gpus=64 b=2 B=2048 vs gpus=256", "comparison", ["Die effektive Batch-Größe bleibt gleich"]),
    ],
)
def test_planning_layouts(text: str, kind: str, fragments: list[str]) -> None:
    """Every new kind of answer has its own layout with each derived value broken down, within Slack's limits."""
    answered_kind, payload = answer(text)
    assert answered_kind == kind
    text_shown = all_text(payload)
    for fragment in fragments:
        assert fragment in text_shown


def test_no_warmup_warning_below_eight() -> None:
    """k = 4 scales the learning rate but does not warn about warmup."""
    _, payload = answer("8 64 4 vs d=256")
    assert "Warmup anpassen" not in all_text(payload)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 64 4 B=2000", "b · d · a = 8 × 64 × 4 = 2.048, vorgegeben ist aber B = 2.000"),
        ("8 64 4 4096 T=8M", "b · d · a · L = 8 × 64 × 4 × 4.096 = 8.388.608, vorgegeben ist aber T = 8.000.000"),
        ("gpus=100 tp=8 b=1 a=1", "100 GPUs lassen sich nicht auf TP · PP · CP · SP = 8 · 1 · 1 · 1 = 8 aufteilen"),
        ("gpus=100 tp=8 b=1 a=1", "(Rest 4). Passend wären z. B. 96 oder 104 GPUs."),
        ("gpus=64 tp=8 d=4 b=1 a=1", "Angegeben ist d = 4, aus den GPUs folgt aber d = 64 / (8 · 1 · 1 · 1) = 8"),
        ("b=2 B=2048", "es fehlen noch d (Datenparallele Replikate) und a (Akkumulationsschritte)"),
        ("b=2 d=8 T=4M", "Ziel-Tokens je Schritt (T): Dafür brauche ich die Sequenzlänge"),
        ("b=1 d=1 B=1M", "Für B = 1.000.000 wäre a = 1.000.000 nötig, mehr als die Obergrenze 65.536"),
        ("8 64 4 lr=3e-4", "`lr=` skaliere ich nur im Vergleich"),
        ("8 64 4 act=2", "„2“ braucht eine Einheit"),
        ("8 64 4 vs d=abc", "(nach `vs`) Datenparallele Replikate (d): „abc“ ist keine Zahl"),
        ("8 64 4 t=4M", "Meintest du `T=`"),
        ("tp=8 8 64 4", "„8“, „64“ und „4“ stehen ohne Namen hinter einem benannten Wert"),
    ],
)
def test_planning_errors_in_german(text: str, expected: str) -> None:
    """Planning errors say in plain German what disagrees, with both numbers, only to the caller."""
    kind, payload = answer(text)
    assert kind == "input_error"
    assert payload["response_type"] == "ephemeral"
    assert expected in all_text(payload)


@pytest.mark.parametrize(
    ("text", "heading", "expected"),
    [
        # a = 2.000 / (2 · 64) = 15,625: say what a would be, exactly, and offer the neighbours.
        ("gpus=512 tp=8 b=2 B=2000", "Nicht genau erreichbar", "a wäre 15,625 – keine ganze Zahl"),
        # 4.000.000 / (2 · 32 · 2.048) = 30,51…, but 4Mi = 4.194.304 divides: a = 32.
        ("b=2 d=32 T=4M L=2048", "Nicht genau erreichbar", "Mit `T=4Mi` (binär, 4.194.304) geht es genau auf: a = 32."),
        (
            "8 64 4 lr=abc vs d=128",
            NOT_UNDERSTOOD,
            "„abc“ ist keine Zahl. Erwartet: eine positive Dezimalzahl wie `3e-4`",
        ),
        ("8 64 4 lr=-1 vs d=128", NOT_ALLOWED, "„-1“ ist nicht positiv. Erwartet: eine positive Dezimalzahl"),
        ("8 64 4 act=0GiB", NOT_ALLOWED, "„0GiB“ ist nicht positiv. Erwartet: eine Größe mit Einheit wie `1,5GiB`"),
        ("8 64 4 act=1.5GiB", NOT_UNDERSTOOD, "Erwartet: eine Größe mit Einheit wie `1,5GiB`"),
        ("8 64 4 4096 budget=0", NOT_ALLOWED, "Erwartet: eine Token-Zahl wie `2T`, `300Mrd` oder `2Bio`"),
        ("8 64 4 L=1e-3", NOT_ALLOWED, "„1e-3“ ist keine ganze Zahl. Erwartet: eine ganze Zahl ab 1, z. B. `4096`"),
        ("8 64 4 L=1,000", NOT_ALLOWED, "Meintest du `1.000` oder `1000`? Erwartet: eine ganze Zahl ab 1"),
        ("8 64 4 4096 budget=1,000T", NOT_ALLOWED, "Meintest du `1.000T` oder `1000T`?"),
        ("params=7,000B budget=2T", NOT_ALLOWED, "Modellgröße (N): „7,000B“ lese ich nicht eindeutig"),
        ("8 64", "Da fehlt noch etwas", "Es fehlt noch a (Akkumulationsschritte)."),
        ("8", "Da fehlt noch etwas", "Es fehlen noch d (Datenparallele Replikate) und a (Akkumulationsschritte)."),
        ("gpus=100 tp=8 b=1 a=1", "Das passt nicht zusammen", "Passend wären z. B. 96 oder 104 GPUs."),
        ("8 64 4 B=2000", "Das passt nicht zusammen", "vorgegeben ist aber B = 2.000"),
        ("8 64 70000", NOT_ALLOWED, "über der Obergrenze von 65.536"),  # over a bound, no contradiction
        # native review row 8: both values were understood, they contradict each other
        ("8 64 4 d=64", "Das passt nicht zusammen", "Doppelt angegeben: als 2. Zahl („64“) und als „d=64“."),
        ("8 64 4 4096 vs d=abc", NOT_UNDERSTOOD, "(nach `vs`) Datenparallele Replikate (d): „abc“ ist keine Zahl"),
        (
            "8 64 4 vs 8 64 4 a=4",
            "Das passt nicht zusammen",
            "(nach `vs`) Akkumulationsschritte (a): Doppelt angegeben",
        ),
        (
            "b=3 d=8 B=2000 vs d=16",
            "Das passt nicht zusammen",
            "(vor `vs`) Diese Seite geht nicht in ganzen Zahlen auf.",
        ),
        (
            "4,096 64 4",
            NOT_ALLOWED,  # read as 4,096: understood, but not whole
            "Im Deutschen ist das Komma das Dezimalzeichen: Meintest du `4.096` oder `4096`?",
        ),
        ("b=2 d=8 B=4M", "Das passt nicht zusammen", "Meintest du `T=4.000.000` (Ziel-Tokens je Schritt)?"),
    ],
)
def test_messages_say_exactly_what_is_wrong(text: str, heading: str, expected: str) -> None:
    """Each argument its own expectation, agreement, a heading that fits, both tokens of a duplicate, the side."""
    _, payload = answer(text)
    assert payload["blocks"][0]["text"]["text"].startswith(heading)
    assert expected in all_text(payload)


def test_one_mistake_gives_one_bullet() -> None:
    """`8 64 a=` is one mistake: the empty value, not also a missing a."""
    _, payload = answer("8 64 a=")
    bullets = payload["blocks"][1]["text"]["text"].splitlines()
    assert bullets == [
        "• Akkumulationsschritte (a): In „a=“ fehlt der Wert nach `=`. Erwartet: " + POSITIVE_WHOLE + "."
    ]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("8 64 4 vs d=128", "`k = B₂ / B₁ = 4.096 / 2.048 = 2`"),
        ("8 64 4 vs d=32", "`k = B₂ / B₁ = 1.024 / 2.048 = 0,5`"),  # exact: no "…"
        ("b=3 d=8 B=2000", "= 83,33…`"),  # cut: marked
        ("gpus=512 tp=8 b=2 B=2000", "= 15,625`"),  # exact in three places
    ],
)
def test_only_cut_values_carry_an_ellipsis(text: str, fragment: str) -> None:
    """Exact quotients are shown as they are; only those cut after two decimals end in '…'."""
    assert fragment in all_text(answer(text)[1])


@pytest.mark.parametrize(
    ("text", "parallel_note", "packed_note"),
    [
        ("8 64 4", False, False),
        ("8 64 4 4096", False, True),
        ("gpus=512 tp=8 b=2 a=16", True, False),
        ("gpus=512 tp=8 b=2 a=16 L=4k", True, True),
    ],
)
def test_small_print_only_where_it_applies(text: str, parallel_note: bool, packed_note: bool) -> None:
    """What d counts only with GPUs or a degree; packed sequences only when T is computed."""
    shown = all_text(answer(text)[1])
    assert ("d zählt die datenparallelen Replikate" in shown) is parallel_note
    assert ("feste (gepackte) Sequenzlängen" in shown) is packed_note


def test_a_consistent_target_is_confirmed() -> None:
    """All three factors agreeing with B=: the answer says the target is met."""
    _, payload = answer("B=2048 b=8 d=64 a=4")
    assert "*Ziel erreicht: B = 2.048*" in all_text(payload)


def test_unreachable_answer_lists_the_cluster_and_the_derived_d() -> None:
    """gpus=256 tp=8 b=1 T=4M L=8k misses: the inputs still show GPUs, TP and d = 256 / 8 = 32."""
    _, payload = answer("gpus=256 tp=8 b=1 T=4M L=8k")
    fields = [f["text"] for f in payload["blocks"][1]["fields"]]
    assert "*Datenparallele Replikate (d)*\n32 _aus den GPUs_" in fields
    assert "*GPUs gesamt*\n256" in fields
    assert "*TP · PP · CP · SP*\n8 · 1 · 1 · 1" in fields


@pytest.mark.parametrize(
    ("text", "value"),
    [("8 64 4 4096 budget=2Bio", "2.000.000.000.000"), ("b=2 d=32 T=4Mio L=2048", "4.000.000"), ("8 2Mio 1", None)],
)
def test_german_number_words(text: str, value: str | None) -> None:
    """Mio, Mrd, Bio mean 10⁶, 10⁹, 10¹² (the German Billion), wherever counts and tokens are read."""
    kind, payload = answer(text)
    if value is None:
        assert kind == "input_error"  # 2Mio = 2·10⁶ replicas: read, and over the bound of 2²⁰
        assert "„2Mio“ liegt über der Obergrenze von 1.048.576" in all_text(payload)
    else:
        assert value in all_text(payload)


def test_an_unknown_help_topic_is_never_a_mention() -> None:
    """`hilfe <!channel>` (found by the fuzzer): the typed topic is quoted in the text, not put in the header."""
    _, payload = answer("hilfe <!channel>")
    text = all_text(payload)
    assert "<!channel>" not in text
    assert "Zu „&lt;!channel&gt;“ habe ich keine Hilfe." in text
