"""Token rotation that several processes can share: one refresh per workspace at a time.

Slack hands out a new refresh token with every refreshed access token and refuses the old one
(``invalid_refresh_token``). Two bot processes that notice the same expiring token at once would both
refresh with it, and the second would fail – its request answered as if the workspace had not installed
effbatch. Bolt's ``InstallationStoreAuthorize`` calls this rotator instead of slack_sdk's: under a lock
shared through the database it reads the installation again, and when another process has just rotated
it, it uses that process's tokens rather than refreshing a second time.
"""

from __future__ import annotations

from slack_sdk import WebClient
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.token_rotation import TokenRotator
from sqlalchemy import Engine

from effbatch.bot.storage.database import named_lock
from effbatch.bot.storage.slack_stores import InstallationStore


class SharedTokenRotator(TokenRotator):
    """slack_sdk's rotator, serialized per workspace across processes and threads."""

    def __init__(
        self, *, client_id: str, client_secret: str, client: WebClient, store: InstallationStore, engine: Engine
    ) -> None:
        super().__init__(client_id=client_id, client_secret=client_secret, client=client)
        self._store = store
        self._engine = engine

    def perform_token_rotation(
        self, *, installation: Installation, minutes_before_expiration: int = 120
    ) -> Installation | None:
        workspace = f"rotate-{installation.enterprise_id or ''}-{installation.team_id or ''}"
        with named_lock(self._engine, workspace):
            current = self._store.find_installation(
                enterprise_id=installation.enterprise_id,
                team_id=installation.team_id,
                is_enterprise_install=installation.is_enterprise_install,
            )
            if current is not None and current.bot_token != installation.bot_token:
                return current  # rotated by another process meanwhile: its tokens, no second refresh
            rotated: Installation | None = super().perform_token_rotation(
                installation=installation, minutes_before_expiration=minutes_before_expiration
            )
            if rotated is not None:
                self._store.save(rotated)  # inside the lock: the next process reads the new tokens
            return rotated
