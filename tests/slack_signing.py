"""Sign a request body exactly as Slack does, with slack_sdk's own signer.

https://api.slack.com/authentication/verifying-requests-from-slack:
``v0=`` + hex HMAC-SHA256 of ``v0:{timestamp}:{body}`` keyed with the signing secret.
"""

from __future__ import annotations

import time

from slack_sdk.signature import SignatureVerifier

#: The signing secret of every HTTP bot the tests start.
SIGNING_SECRET = "test-signing-secret"


def signed_headers(secret: str, body: str | bytes, timestamp: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    signature = SignatureVerifier(secret).generate_signature(timestamp=ts, body=body)
    return {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": signature or "",
    }
