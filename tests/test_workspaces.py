"""Forgetting workspaces in OAuth mode, through Bolt's own dispatch over a real database (SQLite and PostgreSQL):
an Enterprise Grid organization's org-wide uninstall (its events name no team) takes every channel profile of its
workspaces, ``tokens_revoked`` takes the bot token from the installations too, and the installation cache of the
process forgets both at once."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from slack_bolt import App, BoltRequest, BoltResponse
from slack_sdk.oauth.installation_store import Installation

from effbatch.bot.operations.settings import Settings
from effbatch.bot.slack.app import BotParts, create_app
from effbatch.bot.slack.listeners import on_error
from effbatch.bot.storage.errors import AccessLostError, AccessPendingError, DatabaseUnavailableError
from effbatch.bot.storage.profiles import ChannelProfile, now
from effbatch.bot.storage.setup import Storage, open_storage
from effbatch.bot.texts import answers as answer_texts
from effbatch.bot.texts import storage as storage_texts
from effbatch.bot.texts import workspaces as texts

from fake_slack import CLIENT_ID, CLIENT_SECRET
from slack_signing import SIGNING_SECRET

PROFILE = ChannelProfile((("gpus", "64"),), "U1", now())


@pytest.fixture
def storage(database_url: str) -> Iterator[Storage]:
    storage = open_storage(database_url, migrate_now=True, client_id=CLIENT_ID)
    yield storage
    storage.engine.dispose()


@pytest.fixture
def app(storage: Storage) -> App:
    settings = Settings(
        slack_client_id=CLIENT_ID,
        slack_client_secret=CLIENT_SECRET,
        slack_signing_secret=SIGNING_SECRET,
        slack_api_url="http://127.0.0.1:9/api/",  # never called: these events need no token
    )
    return create_app(settings, BotParts(storage=storage))


def installed(storage: Storage, enterprise: str | None, team: str | None, wide: bool = False) -> None:
    assert storage.installations is not None
    storage.installations.save(
        Installation(
            app_id="A0TEST",
            enterprise_id=enterprise,
            team_id=None if wide else team,
            bot_token=f"xoxb-{enterprise or team}",
            bot_id="B0BOT",
            bot_user_id="U0BOT",
            user_id="U0INSTALLER",
            is_enterprise_install=wide,
        )
    )


def event(kind: dict[str, Any], enterprise: str | None, team: str | None) -> BoltRequest:
    """An Events API request as Slack sends it; ``authorizations`` says whose installation it is for."""
    authorization = {"enterprise_id": enterprise, "team_id": team, "is_enterprise_install": team is None}
    body = {
        "type": "event_callback",
        "api_app_id": "A0TEST",
        "enterprise_id": enterprise,
        "team_id": "T1",  # the team the event happened in; the installation is authorizations[0]'s
        "authorizations": [authorization],
        "event": kind | {"event_ts": f"{time.time():.6f}"},
    }
    return BoltRequest(body=json.dumps(body), headers={"content-type": ["application/json"]})


def test_an_org_wide_uninstall_takes_every_profile_of_its_organization(storage: Storage, app: App) -> None:
    """app_uninstalled for an org-wide install (no team): its installation and the channel profiles of all of the
    organization's workspaces are gone, those of another organization and of a plain workspace stay."""
    installations = storage.installations
    assert installations is not None
    installed(storage, "E1", None, wide=True)
    installed(storage, None, "T9")
    for team, enterprise in (("T1", "E1"), ("T2", "E1"), ("T8", "E2"), ("T9", None)):
        storage.profiles.put(team, "C1", PROFILE, enterprise)
    assert installations.installed("E1", "T1")  # now in this process's cache
    assert app.dispatch(event({"type": "app_uninstalled"}, "E1", None)).status == 200
    assert not installations.installed("E1", "T1")
    remaining = {team for team in ("T1", "T2", "T8", "T9") if storage.profiles.get(team, "C1") is not None}
    assert remaining == {"T8", "T9"}
    assert installations.installed(None, "T9")


@pytest.mark.parametrize(("enterprise", "team", "wide"), [(None, "T9", False), ("E1", None, True)])
def test_a_revoked_bot_token_leaves_no_installation_to_use_it(
    storage: Storage, app: App, enterprise: str | None, team: str | None, wide: bool
) -> None:
    """tokens_revoked with the bot's token: the token is gone from the bots and the installations (Bolt's authorize
    reads the installation first), and from the cache; the channel profiles stay (the app is still installed)."""
    installations = storage.installations
    assert installations is not None
    installed(storage, enterprise, team, wide)
    storage.profiles.put(team or "T1", "C1", PROFILE, enterprise)
    assert installations.installed(enterprise, team or "T1")
    revoked = {"type": "tokens_revoked", "tokens": {"oauth": [], "bot": ["U0BOT"]}}
    assert app.dispatch(event(revoked, enterprise, team)).status == 200
    assert installations.find_installation(enterprise_id=enterprise, team_id=team, is_enterprise_install=wide) is None
    assert installations.find_bot(enterprise_id=enterprise, team_id=team, is_enterprise_install=wide) is None
    assert not installations.installed(enterprise, team or "T1")
    assert storage.profiles.get(team or "T1", "C1") is not None


@pytest.mark.parametrize(
    ("error", "told"),
    [
        (AccessLostError(texts.ACCESS_LOST.format(install="…/slack/install")), texts.ACCESS_LOST[:60]),
        (AccessPendingError(texts.ACCESS_PENDING), texts.ACCESS_PENDING),
        (DatabaseUnavailableError(storage_texts.DATABASE_UNAVAILABLE), storage_texts.DATABASE_UNAVAILABLE),
        (RuntimeError("a bug"), answer_texts.INTERNAL_ERROR),
    ],
)
def test_what_a_request_could_not_have_is_told_as_such(error: Exception, told: str) -> None:
    """Bolt's error handler (and HTTP mode's plain path) tells a lost workspace access, a refresh under way or an
    unavailable database in their own German words, ephemeral; anything else stays the generic error."""
    response = on_error(error, BoltResponse(status=500, body=""))
    assert response is not None
    assert response.status == 200
    body = json.loads(response.body)
    assert body["response_type"] == "ephemeral"
    assert body["text"].startswith(told)
