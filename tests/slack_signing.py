"""Sign a request body exactly as Slack does.

https://api.slack.com/authentication/verifying-requests-from-slack:
``v0=`` + hex HMAC-SHA256 of ``v0:{timestamp}:{body}`` keyed with the signing secret.
"""

from __future__ import annotations

import hashlib
import hmac
import time


def signed_headers(secret: str, body: str, timestamp: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(secret.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": f"v0={digest}",
    }
