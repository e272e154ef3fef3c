"""Whole numbers as typed: the formats the /effbatch issue lists, row by row."""

from __future__ import annotations

import pytest

from core.errors import ProblemKind
from core.numbers import COUNT_SUFFIXES, SEQ_LEN_SUFFIXES, NumberError, parse_whole_number


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
        ("1e3", ProblemKind.SCIENTIFIC),  # exponent notation is refused with a hint
        ("2.5E2", ProblemKind.SCIENTIFIC),
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
