"""Token rotation that never locks a workspace out and never holds up another workspace.

Slack hands out a new refresh token with every refreshed access token and revokes the one it was given
(``invalid_refresh_token`` when it comes again); an access token lives 12 hours, and Bolt asks for a new
one in its last two (``minutes_before_expiration``). So, per workspace:

- one refresh at a time, in the background, while requests go on with the current token, which is still
  valid: no request waits for Slack's answer, and no workspace for another's. The lock is the workspace's
  own – a thread lock in the process, an advisory lock or a lock file between processes – and whoever
  finds it taken does not wait but goes on with the current token (and, under the lock, a process first
  reads the installation again: another process may just have rotated it);
- the refresh is sent once: no retry handler, since a refresh token sent again after a timeout, a dropped
  connection or a 5xx may already be spent; its timeout (``REFRESH_TIMEOUT``) leaves Slack time for a slow
  answer. What Slack returns is saved before anything else, and tried again when the database refuses;
- only a token that has expired makes a request wait for the refresh, at most ``expired_wait`` seconds;
- a refresh token Slack calls spent (its answer got lost on the way) cannot be exchanged again, and Slack
  offers no other way back to a token: the current one is used as long as it works (``auth.test``), and
  the log says until when; after that only a reinstall helps – logged as an error with the workspace, and
  told to the user (``AccessLostError``, in German, asking an admin to reinstall).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.token_rotation import TokenRotator
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from effbatch.bot.storage.database import try_named_lock
from effbatch.bot.storage.errors import AccessLostError, AccessPendingError
from effbatch.bot.storage.slack_stores import InstallationStore
from effbatch.bot.texts import workspaces as texts

log = logging.getLogger("effbatch")

#: Whole seconds a refresh may take (slack_sdk takes an int): long enough for a slow answer, which is never resent.
REFRESH_TIMEOUT = 10
#: Seconds a request whose token has expired waits for its refresh.
EXPIRED_WAIT = 2.0
#: A token this close to its end counts as expired (the request would not finish with it).
EXPIRY_MARGIN = 60
#: Seconds after a refresh that got no answer, or an error, before the next is tried.
RETRY_AFTER = 30.0
#: Seconds the background refresh waits for another process's refresh of the same workspace.
LOCK_WAIT = REFRESH_TIMEOUT + 5.0
#: Attempts at saving what Slack returned, and seconds between them.
SAVE_ATTEMPTS = 5
SAVE_PAUSE = 1.0


@dataclass
class _Refresh:
    """One workspace's refresh under way: set ``done`` when it ended, with the new installation or the error."""

    done: threading.Event = field(default_factory=threading.Event)
    rotated: Installation | None = None
    error: AccessLostError | None = None


class SharedTokenRotator(TokenRotator):
    """slack_sdk's rotator, called by Bolt's ``InstallationStoreAuthorize`` for every request of an installation
    with a refresh token; refreshes in the background, once per workspace across processes and threads."""

    def __init__(
        self,
        *,
        client_id: str,
        client_secret: str,
        api_url: str,
        store: InstallationStore,
        engine: Engine,
        lost_message: str = texts.ACCESS_LOST,
        expired_wait: float = EXPIRED_WAIT,
        retry_after: float = RETRY_AFTER,
        refresh_timeout: int = REFRESH_TIMEOUT,
    ) -> None:
        client = WebClient(base_url=api_url, timeout=refresh_timeout, retry_handlers=[])  # [], not None: no retry
        super().__init__(client_id=client_id, client_secret=client_secret, client=client)
        self._store = store
        self._engine = engine
        self._lost_message = lost_message
        self._expired_wait = expired_wait
        self._retry_after = retry_after
        self._lock = threading.Lock()
        self._running: dict[str, _Refresh] = {}
        self._failed_at: dict[str, float] = {}
        self._spent: set[str] = set()  # refresh tokens Slack refused: never sent again

    def perform_token_rotation(
        self, *, installation: Installation, minutes_before_expiration: int = 120
    ) -> Installation | None:
        """None while the current token serves (a refresh started when due); the refreshed installation when the
        token had expired and its refresh came back in time; else ``AccessPendingError`` or ``AccessLostError``."""
        expires = installation.bot_token_expires_at
        if installation.bot_refresh_token is None or expires is None:
            return None
        now = time.time()
        if expires > now + minutes_before_expiration * 60:
            return None
        refresh = self._start(installation)
        if expires > now + EXPIRY_MARGIN:
            return None
        if refresh is not None and refresh.done.wait(self._expired_wait):
            if refresh.rotated is not None:
                return refresh.rotated
            if refresh.error is not None:
                raise refresh.error
        if installation.bot_refresh_token in self._spent:
            raise AccessLostError(self._lost_message)
        raise AccessPendingError(texts.ACCESS_PENDING)

    def idle(self, timeout: float) -> bool:
        """Wait until no refresh is under way in this process (at most ``timeout`` seconds); whether none is."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                running = list(self._running.values())
            if not running:
                return True
            if not running[0].done.wait(max(deadline - time.monotonic(), 0)):
                return False

    def _start(self, installation: Installation) -> _Refresh | None:
        """The workspace's refresh under way, or a new one; None when its refresh token is spent or the last
        attempt failed less than ``retry_after`` seconds ago."""
        workspace = _workspace(installation)
        with self._lock:
            running = self._running.get(workspace)
            if running is not None:
                return running
            if installation.bot_refresh_token in self._spent:
                return None
            if time.monotonic() - self._failed_at.get(workspace, -self._retry_after) < self._retry_after:
                return None
            refresh = self._running[workspace] = _Refresh()
        thread = threading.Thread(
            target=self._refresh_in_background, args=(workspace, installation, refresh), daemon=True
        )
        thread.start()
        return refresh

    def _refresh_in_background(self, workspace: str, installation: Installation, refresh: _Refresh) -> None:
        try:
            refresh.rotated = self._refresh_once(workspace, installation)
        except AccessLostError as error:
            refresh.error = error
        except Exception:  # a thread of its own: logged here, or nobody would see it
            log.exception("token rotation failed", extra={"team": installation.team_id})
        finally:
            with self._lock:
                del self._running[workspace]
                if refresh.rotated is None:
                    self._failed_at[workspace] = time.monotonic()
            refresh.done.set()

    def _refresh_once(self, workspace: str, installation: Installation) -> Installation | None:
        """Under the workspace's lock between processes: the installation read again, and refreshed only if no
        other process has done it meanwhile."""
        with try_named_lock(self._engine, f"rotate-{workspace}", LOCK_WAIT) as held:
            current = self._store.reload(installation)
            if current is None or current.bot_token != installation.bot_token:
                return current  # uninstalled, or rotated by another process: its tokens, no second refresh
            if not held:
                log.warning("token rotation waits for another process", extra={"team": installation.team_id})
                return None
            return self._exchange(current)

    def _exchange(self, current: Installation) -> Installation | None:
        """``oauth.v2.access`` with the refresh token, once; what Slack returns saved at once."""
        try:
            answer = self.client.oauth_v2_access(
                client_id=self.client_id,
                client_secret=self.client_secret,
                grant_type="refresh_token",
                refresh_token=current.bot_refresh_token,
            )
        except SlackApiError as error:
            if error.response.get("error") != "invalid_refresh_token":
                _log_failure(current, str(error.response.get("error", error.response.status_code)))
                return None
            return self._refused(current)
        except OSError as error:  # a timeout or a dropped connection: Slack may have spent the token, or not
            _log_failure(current, f"no answer ({type(error).__name__}); the next attempt tells whether it was spent")
            return None
        rotated = Installation(**current.to_dict_for_copying())
        rotated.bot_token = answer["access_token"]
        rotated.bot_refresh_token = answer.get("refresh_token")
        rotated.bot_token_expires_at = int(time.time()) + int(answer["expires_in"])
        self._save(rotated)
        return rotated

    def _refused(self, current: Installation) -> Installation | None:
        """Slack calls the refresh token spent: the current token is used while it works, then a reinstall."""
        assert current.bot_refresh_token is not None  # rotation needs one
        self._spent.add(current.bot_refresh_token)
        expires = current.bot_token_expires_at or 0
        until = datetime.fromtimestamp(expires, UTC).isoformat(timespec="minutes")
        if expires > time.time() and self._works(current.bot_token):
            detail = f"refresh token spent, its answer lost; the current token works until {until}, then reinstall"
            log.error("workspace access ends", extra={"team": current.team_id, "detail": detail})
            return None
        detail = f"refresh token spent, the token expired {until}: only a reinstall helps"
        log.error("workspace access lost", extra={"team": current.team_id, "detail": detail})
        raise AccessLostError(self._lost_message)

    def _works(self, token: str | None) -> bool:
        try:
            return bool(self.client.auth_test(token=token).get("ok"))
        except (SlackApiError, OSError):
            return False

    def _save(self, rotated: Installation) -> None:
        """Saved before anything else is done with it; a database that refuses is asked again a few times."""
        for attempt in range(SAVE_ATTEMPTS):
            try:
                self._store.save(rotated)
                return
            except SQLAlchemyError as error:
                detail = f"attempt {attempt + 1} of {SAVE_ATTEMPTS}: {type(error).__name__}"
                log.error("rotated token not saved", extra={"team": rotated.team_id, "detail": detail})
                time.sleep(SAVE_PAUSE)


def _workspace(installation: Installation) -> str:
    return f"{installation.enterprise_id or ''}-{installation.team_id or ''}"


def _log_failure(current: Installation, detail: str) -> None:
    log.warning("token rotation failed", extra={"team": current.team_id, "detail": detail})
