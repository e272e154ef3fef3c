"""What a request needed and could not have right now – the database, the workspace's access to Slack – as
exceptions that carry the German sentence its user is told (``message``); Bolt's error handler and HTTP mode's
plain path answer with it instead of the generic error."""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError


class UnavailableError(Exception):
    """Something a request needs is unavailable; ``message`` says so in German, and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DatabaseUnavailableError(UnavailableError, SQLAlchemyError):
    """The database did not answer in the time a request can afford (frozen, unreachable, locked); also an
    ``SQLAlchemyError``, so that whoever already answers without the database on one keeps doing so."""


class AccessLostError(UnavailableError):
    """A workspace's token expired and its refresh token was spent: only a reinstall brings effbatch back."""


class AccessPendingError(UnavailableError):
    """A workspace's token expired and its refresh has not come back yet: the next try may succeed."""
