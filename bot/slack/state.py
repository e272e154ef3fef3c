"""Interactive state sealed by the bot: what travels through Slack and comes back in a later request.

A form's ``private_metadata`` and a button's ``value`` come back as they were sent – from Slack's own
clients. But a request only needs Slack's signature, and Slack signs whatever an app or a crafted client
of a workspace member sends: a forged share value posted into another channel, a forged form sent the
answer to any URL (defence in depth behind the signature). So whatever the bot writes there is
sealed with an HMAC-SHA256 keyed by the signing secret (in Socket Mode, which has none, the app token),
separately for each purpose, and what it did not seal is refused as expired or damaged.

A sealed text is the text, a dot and the MAC in URL-safe base64 (44 characters more).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from enum import StrEnum

from effbatch.bot.operations.settings import Settings

#: What a sealed text ends with: a dot and 43 characters of URL-safe base64 (32 bytes, without padding).
SEPARATOR = "."
SEAL_LENGTH = len(SEPARATOR) + 43


class Purpose(StrEnum):
    """Where a sealed text travels: a text sealed for one is refused for every other."""

    FORM = "form"  # the calculator form's private_metadata
    WORLD_FORM = "world_form"  # the world-size form's private_metadata (a config check)
    SHARE = "share"  # the value of a check answer's "Im Thread teilen" button


class Seal:
    """Seals texts with an HMAC keyed by a secret, and opens only what it sealed (for the same purpose)."""

    def __init__(self, secret: str) -> None:
        # A key of its own, derived from the secret: the MAC says nothing about the secret's other uses.
        self._key = hmac.new(secret.encode(), b"effbatch interactive state v1", hashlib.sha256).digest()

    def sealed(self, purpose: Purpose, text: str) -> str:
        """``text`` with its seal."""
        return f"{text}{SEPARATOR}{self._mac(purpose, text)}"

    def opened(self, purpose: Purpose, sealed: str) -> str | None:
        """The text ``sealed`` for ``purpose`` by this seal's secret; None for anything else."""
        text, separator, mac = sealed.rpartition(SEPARATOR)
        if not separator or not hmac.compare_digest(mac, self._mac(purpose, text)):
            return None
        return text

    def _mac(self, purpose: Purpose, text: str) -> str:
        digest = hmac.new(self._key, f"{purpose}:{text}".encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def state_secret(settings: Settings) -> str:
    """What seals the state: the signing secret; in Socket Mode the app token (the same on every replica); else
    the bot token; with none of them (an app built for a test) a random key, valid while this process lives."""
    for secret in (settings.slack_signing_secret, settings.slack_app_token, settings.slack_bot_token):
        if secret is not None and secret.get_secret_value():
            return secret.get_secret_value()
    return secrets.token_hex(32)
