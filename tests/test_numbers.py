"""Whole numbers as typed: the formats the /effbatch issue lists, row by row."""

from __future__ import annotations

import pytest

from effbatch.core.errors import ProblemKind
from effbatch.core.numbers import (
    BYTE_SUFFIXES,
    COUNT_SUFFIXES,
    SEQ_LEN_SUFFIXES,
    TOKEN_SUFFIXES,
    NumberError,
    parse_positive_decimal,
    parse_whole_number,
)


@pytest.mark.parametrize(
    ("text", "suffixes", "expected"),
    [
        ("4096", COUNT_SUFFIXES, 4096),  # plain digits
        ("4.096", COUNT_SUFFIXES, 4096),  # German thousands separator
        ("1.048.576", COUNT_SUFFIXES, 1_048_576),  # several groups of three
        ("4_096", COUNT_SUFFIXES, 4096),  # Python-style grouping
        ("8k", COUNT_SUFFIXES, 8_000),  # k = ×1.000 for counts
        ("2K", COUNT_SUFFIXES, 2_000),  # capital K reads the same
        ("1M", COUNT_SUFFIXES, 1_000_000),  # M = ×1.000.000
        ("2Ki", COUNT_SUFFIXES, 2_048),  # Ki = ×1.024
        ("1Mi", COUNT_SUFFIXES, 1_048_576),  # Mi = ×1.048.576
        ("4k", SEQ_LEN_SUFFIXES, 4_096),  # for L, k = ×1.024: context lengths are powers of two
        ("128k", SEQ_LEN_SUFFIXES, 131_072),  # the example: 128k = 131.072
        ("1,5k", COUNT_SUFFIXES, 1_500),  # decimal comma, whole after the suffix
        ("0,5k", SEQ_LEN_SUFFIXES, 512),  # half a binary k
        ("8,0", COUNT_SUFFIXES, 8),  # a fraction of zero is still whole
        ("1", COUNT_SUFFIXES, 1),  # the smallest positive whole number
        # exponent notation, as papers and configs write counts
        ("7e9", TOKEN_SUFFIXES, 7 * 10**9),  # params=7e9
        ("2e12", TOKEN_SUFFIXES, 2 * 10**12),  # budget=2e12
        ("2E12", TOKEN_SUFFIXES, 2 * 10**12),
        ("1.5e9", TOKEN_SUFFIXES, 1_500_000_000),  # the point is the mantissa's decimal point, as in Python
        ("1,5e9", TOKEN_SUFFIXES, 1_500_000_000),  # or the German decimal comma
        ("1e3", COUNT_SUFFIXES, 1_000),  # any count, b and d too, as long as it is whole
        ("2.5E2", COUNT_SUFFIXES, 250),
        ("4e+3", SEQ_LEN_SUFFIXES, 4_000),  # an explicit plus sign; e is ×10, never ×1.024
        ("1e-0", COUNT_SUFFIXES, 1),
        ("2000e-3", COUNT_SUFFIXES, 2),  # a negative exponent is fine where the value is whole
    ],
)
def test_accepted_formats(text: str, suffixes: dict[str, int], expected: int) -> None:
    """Each accepted spelling denotes exactly the intended integer."""
    assert parse_whole_number(text, suffixes) == expected


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("8,5", ProblemKind.NOT_WHOLE),  # the example of a fraction
        ("-8", ProblemKind.NOT_POSITIVE),  # negative
        ("−8", ProblemKind.NOT_POSITIVE),  # typographic minus, as phones type it
        ("0", ProblemKind.NOT_POSITIVE),  # zero devices make no batch
        ("0k", ProblemKind.NOT_POSITIVE),  # zero with a suffix is still zero
        ("1.5e0", ProblemKind.NOT_WHOLE),  # exponent notation that is not whole (b, d, a, L are counts)
        ("1e-4", ProblemKind.NOT_WHOLE),
        ("1,25e1", ProblemKind.NOT_WHOLE),
        ("0e5", ProblemKind.NOT_POSITIVE),
        ("e9", ProblemKind.NOT_A_NUMBER),  # no mantissa
        ("1e", ProblemKind.UNKNOWN_SUFFIX),  # no exponent: e is no suffix either
        ("1e9k", ProblemKind.NOT_A_NUMBER),  # an exponent and a suffix: one of the two
        ("2,000", ProblemKind.THOUSANDS_COMMA),  # the d: 2 in German, 2.000 in English
        ("1,000", ProblemKind.THOUSANDS_COMMA),  # L=1,000 read as 1 before
        ("1,024", ProblemKind.THOUSANDS_COMMA),  # gpus=1,024: not whole in German, 1.024 in English
        ("1,000,000", ProblemKind.THOUSANDS_COMMA),  # English grouping of several thousands
        ("1,500k", ProblemKind.THOUSANDS_COMMA),  # 1.500 or 1,5 thousand: refused, never guessed
        ("acht", ProblemKind.NOT_A_NUMBER),  # a word
        ("", ProblemKind.NOT_A_NUMBER),
        ("4.09", ProblemKind.BAD_GROUPING),  # a dot only between groups of exactly three digits
        ("4096.", ProblemKind.BAD_GROUPING),
        ("8.5", ProblemKind.BAD_GROUPING),  # English decimal point
        ("12.34.567", ProblemKind.BAD_GROUPING),
        ("4__096", ProblemKind.NOT_A_NUMBER),  # underscores only between digits
        ("_4096", ProblemKind.NOT_A_NUMBER),
        ("4m", ProblemKind.UNKNOWN_SUFFIX),  # m is milli, not mega
        ("4Gi", ProblemKind.UNKNOWN_SUFFIX),  # not in the count table
        ("1,5", ProblemKind.NOT_WHOLE),
        ("1,0001k", ProblemKind.NOT_WHOLE),  # 1.000,1 is not whole
        ("٣", ProblemKind.NOT_A_NUMBER),  # Arabic-Indic three: only ASCII digits count
        ("１２", ProblemKind.NOT_A_NUMBER),  # full-width digits
        ("1" * 6000, ProblemKind.TOO_LONG),  # the 6.000-digit number, refused before conversion
        ("ä" * 40, ProblemKind.NOT_A_NUMBER),  # long, but no digits in it: not a number ("vs ääää…")
        ("acht" * 10, ProblemKind.NOT_A_NUMBER),
        ("0x10", ProblemKind.NOT_A_NUMBER),
    ],
)
def test_refused_texts(text: str, kind: ProblemKind) -> None:
    """Anything that is not a positive whole number is refused with the specific reason."""
    with pytest.raises(NumberError) as raised:
        parse_whole_number(text)
    assert raised.value.kind is kind


def test_unknown_suffix_names_allowed_ones() -> None:
    """The refusal of a suffix carries the suffix and the accepted ones for the message."""
    with pytest.raises(NumberError) as raised:
        parse_whole_number("4m")
    assert raised.value.ctx == {"suffix": "m", "allowed": ["k", "K", "M", "Ki", "Mi", "Mio", "Mrd", "Bio"]}


@pytest.mark.parametrize(
    ("text", "suffixes", "dotted", "plain"),
    [
        ("2,000", COUNT_SUFFIXES, "2.000", "2000"),  # `8 2,000 4 4096`, `vs d=2,000`, `prompts=2,000`
        ("1,000", SEQ_LEN_SUFFIXES, "1.000", "1000"),  # `L=1,000`
        ("1,000T", TOKEN_SUFFIXES, "1.000T", "1000T"),  # `budget=1,000T`
        ("7,000B", TOKEN_SUFFIXES, "7.000B", "7000B"),  # `params=7,000B`
        ("1,000GiB", BYTE_SUFFIXES, "1.000GiB", "1000GiB"),  # `act=1,000GiB`
        ("1,024", COUNT_SUFFIXES, "1.024", "1024"),  # `gpus=1,024`, as before
        ("1,048,576", COUNT_SUFFIXES, "1.048.576", "1048576"),
    ],
)
def test_a_comma_before_three_digits_is_refused_with_both_readings(
    text: str, suffixes: dict[str, int], dotted: str, plain: str
) -> None:
    """A comma before exactly three digits is a German decimal or an English thousands separator: never guessed."""
    with pytest.raises(NumberError) as raised:
        parse_whole_number(text, suffixes, unit_required=suffixes is BYTE_SUFFIXES)
    assert raised.value.kind is ProblemKind.THOUSANDS_COMMA
    assert raised.value.ctx == {"dotted": dotted, "plain": plain}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("1e99999", None),  # a huge exponent is read without computing 10⁹⁹⁹⁹⁹: it only has to exceed every bound
        ("1e-99999", ProblemKind.NOT_WHOLE),
    ],
)
def test_huge_exponents_stay_cheap(text: str, kind: ProblemKind | None) -> None:
    """A 5-digit exponent neither hangs nor slips under a bound: above all of them, or not whole."""
    if kind is None:
        assert parse_whole_number(text, TOKEN_SUFFIXES) > 2**76  # above the largest bound (T)
        return
    with pytest.raises(NumberError) as raised:
        parse_whole_number(text)
    assert raised.value.kind is kind


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3e-4", 3e-4),
        ("1.5e-4", 1.5e-4),  # the learning rate
        ("1,5e-4", 1.5e-4),
        ("0,0003", 3e-4),
        ("0.0003", 3e-4),
    ],
)
def test_learning_rates(text: str, expected: float) -> None:
    """A learning rate is a decimal, in exponent notation or with a decimal point or comma."""
    assert parse_positive_decimal(text, 10) == pytest.approx(expected)
