"""German number formats (through Babel) and safe echoing of user text into mrkdwn."""

from __future__ import annotations

from babel.numbers import format_compact_decimal, format_decimal

LOCALE = "de_DE"
#: From here on a rounded reading ("8,4 Mio.") says more than the digits.
ROUNDED_FROM = 1_000_000
#: User text quoted back in a message is cut to this many characters.
MAX_QUOTE = 40


def number(value: int) -> str:
    """2048 → '2.048'."""
    return format_decimal(value, locale=LOCALE)


def rounded(value: int) -> str | None:
    """8388608 → '8,4 Mio.'; None below a million, where the digits read fine."""
    if value < ROUNDED_FROM:
        return None
    return format_compact_decimal(value, format_type="short", locale=LOCALE, fraction_digits=1)


def escape(text: str) -> str:
    """Escape the three characters Slack treats as control sequences in mrkdwn."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    """Undo Slack's escaping of the text it sends (``&lt;`` for a typed ``<``)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def quote(text: str) -> str:
    """User text as typed, shortened and escaped once, in German quotes: „acht“."""
    typed = unescape(text)
    shortened = typed if len(typed) <= MAX_QUOTE else typed[: MAX_QUOTE - 1] + "…"
    return f"„{escape(shortened)}“"
