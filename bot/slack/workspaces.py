"""Installing effbatch to any workspace: Bolt's OAuth flow over the database, and forgetting a workspace.

``OAuthSettings`` and ``OAuthFlow`` are Bolt's own: ``/slack/install`` issues a state (kept in the database
and in a cookie) and links to Slack's consent page; ``/slack/oauth_redirect`` consumes the state, calls
``oauth.v2.access`` and saves the installation. Each request is then authorized with its workspace's own
token (Bolt's ``InstallationStoreAuthorize``, which also rotates expiring tokens with the client id and
secret). ``app_uninstalled`` deletes the workspace's installation and its channel profiles;
``tokens_revoked`` deletes the revoked tokens (Bolt's ``TokenRevocationListeners``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from slack_bolt import App, BoltContext
from slack_bolt.authorization.authorize import InstallationStoreAuthorize
from slack_bolt.oauth.callback_options import CallbackOptions, FailureArgs, SuccessArgs
from slack_bolt.oauth.oauth_flow import OAuthFlow
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_bolt.request import BoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk import WebClient

from effbatch.bot.operations.settings import Settings
from effbatch.bot.rendering import install_pages
from effbatch.bot.storage.errors import DatabaseUnavailableError
from effbatch.bot.storage.setup import Storage
from effbatch.bot.texts import workspaces as texts

if TYPE_CHECKING:
    from effbatch.bot.storage.slack_stores import InstallationStore  # slack_sdk's SQLAlchemy stores: OAuth mode only

log = logging.getLogger("effbatch")

#: What effbatch asks a workspace for (the manifests' oauth_config.scopes.bot).
BOT_SCOPES = ("commands", "chat:write", "links:read", "links:write", "files:write")
INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"


def oauth_settings(settings: Settings, storage: Storage, client: WebClient) -> OAuthSettings:
    """Bolt's OAuth settings: the app's credentials, effbatch's scopes, the database's stores, and token rotation
    through ``client`` (Slack's Web API as configured), one process at a time per workspace."""
    assert settings.slack_client_id is not None  # require_for(Mode.HTTP) checked both
    assert settings.slack_client_secret is not None
    assert storage.installations is not None  # OAuth mode opens the installation store
    oauth = OAuthSettings(
        client_id=settings.slack_client_id,
        client_secret=settings.slack_client_secret.get_secret_value(),
        scopes=list(BOT_SCOPES),
        user_scopes=[],
        redirect_uri=settings.slack_redirect_uri,
        install_path=INSTALL_PATH,
        redirect_uri_path=REDIRECT_PATH,
        installation_store=storage.installations,
        state_store=storage.states,
        callback_options=CallbackOptions(success=_installed, failure=_failed),
        logger=log,
    )
    from effbatch.bot.storage.rotation import (
        SharedTokenRotator,  # slack_sdk's SQLAlchemy stores: imported in OAuth mode only
    )

    assert isinstance(oauth.authorize, InstallationStoreAuthorize)  # what OAuthSettings builds
    oauth.authorize.token_rotator = SharedTokenRotator(
        client_id=settings.slack_client_id,
        client_secret=settings.slack_client_secret.get_secret_value(),
        api_url=client.base_url,
        store=storage.installations,
        engine=storage.engine,
        lost_message=texts.ACCESS_LOST.format(install=install_page(settings)),
    )
    return oauth


def install_page(settings: Settings) -> str:
    """The install page's address where known (SLACK_REDIRECT_URI), else a description of it."""
    if settings.slack_redirect_uri:
        return urlsplit(settings.slack_redirect_uri)._replace(path=INSTALL_PATH, query="").geturl()
    return texts.INSTALL_PAGE


class GermanOAuthFlow(OAuthFlow):
    """Bolt's OAuth flow with the install page in German (the admin's first contact with effbatch)."""

    def build_install_page_html(self, url: str, request: BoltRequest) -> str:
        return install_pages.install_page(url)


def oauth_flow(settings: Settings, storage: Storage, client: WebClient) -> OAuthFlow:
    """Bolt's OAuth flow over ``oauth_settings``, its pages in German."""
    return GermanOAuthFlow(settings=oauth_settings(settings, storage, client))


def _installed(args: SuccessArgs) -> BoltResponse:
    installation = args.installation
    page = install_pages.installed_page(installation.team_id, installation.app_id)
    return _page(args.settings, 200, page)


def _failed(args: FailureArgs) -> BoltResponse:
    page = install_pages.failed_page(args.settings.install_path, args.reason)
    return _page(args.settings, args.suggested_status_code, page)


def _page(settings: OAuthSettings, status: int, page: str) -> BoltResponse:
    """A page of the installation; the state's cookie deleted, as Bolt's own pages do."""
    cookie = settings.state_utils.build_set_cookie_for_deletion()
    return BoltResponse(
        status=status, body=page, headers={"Content-Type": "text/html; charset=utf-8", "Set-Cookie": cookie}
    )


def not_installed_message(settings: Settings) -> str:
    """What a workspace without an installation is told, with the install page's address where known."""
    return texts.NOT_INSTALLED.format(install=install_page(settings))


def installed_check(storage: Storage) -> Callable[[Mapping[str, Any]], bool]:
    """``fields → bool``: whether the request's workspace has installed effbatch (HTTP mode's fast path asks).

    Answered from memory for a workspace seen lately (``cached_check``). When the database does not answer, the
    workspace counts as installed: Slack sends a command only from a workspace that has the app, and the answer
    travels in the acknowledgement, without the workspace's token."""
    store = storage.installations
    assert store is not None  # only in OAuth mode

    def installed(fields: Mapping[str, Any]) -> bool:
        try:
            return store.installed(fields.get("enterprise_id") or None, fields.get("team_id") or None)
        except DatabaseUnavailableError:
            log.warning("installation unknown: database unavailable", extra={"team": fields.get("team_id")})
            return True

    return installed


def cached_check(storage: Storage) -> Callable[[Mapping[str, Any]], bool]:
    """``fields → bool``: whether ``installed_check`` answers the request from memory, without the database (the
    event loop may then answer it itself, without a thread)."""
    store = storage.installations
    assert store is not None  # only in OAuth mode
    return lambda fields: store.cached(fields.get("enterprise_id") or None, fields.get("team_id") or None)


def wire_uninstall(app: App, storage: Storage) -> None:
    """Forget a workspace that uninstalled effbatch – or a whole Enterprise Grid organization, whose org-wide
    install's events name no team (``authorizations[0].team_id`` is null) – with its channel profiles; drop tokens
    Slack revoked."""

    def on_uninstalled(context: BoltContext) -> None:
        if storage.installations is not None:
            storage.installations.delete_all(enterprise_id=context.enterprise_id, team_id=context.team_id)
        if context.team_id:
            removed = storage.profiles.delete_team(context.team_id)
        else:
            removed = storage.profiles.delete_enterprise(context.enterprise_id) if context.enterprise_id else 0
        detail = f"{removed} channel profiles deleted"
        log.info("uninstalled", extra={"team": context.team_id or context.enterprise_id, "detail": detail})

    def on_revoked(event: dict[str, Any], context: BoltContext) -> None:
        if storage.installations is not None:
            revoke(storage.installations, event, context)
        log.info("tokens revoked", extra={"team": context.team_id or context.enterprise_id})

    app.event("app_uninstalled")(on_uninstalled)
    app.event("tokens_revoked")(on_revoked)


def revoke(store: InstallationStore, event: Mapping[str, Any], context: BoltContext) -> None:
    """Slack revoked tokens: a user's token goes with that user's installation (as Bolt's listener does); a bot token
    also from the installations, which carry it too (Bolt's listener deleted only the bot row, and its authorize
    went on finding the token in the installation)."""
    tokens = event.get("tokens") or {}
    for user in tokens.get("oauth") or []:
        store.delete_installation(enterprise_id=context.enterprise_id, team_id=context.team_id, user_id=user)
    if tokens.get("bot"):
        store.delete_all(enterprise_id=context.enterprise_id, team_id=context.team_id)
