"""Channel profiles in Slack: ``/effbatch cluster …`` and the profile's defaults in later answers.

Every lookup is one short query; when the database fails, the answer comes without the profile (and a
log line), never not at all, and says so when the database did not answer in time.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from effbatch.bot.document import Answer, Note, Visibility
from effbatch.bot.rendering import profiles as rendering
from effbatch.bot.storage.errors import DatabaseUnavailableError
from effbatch.bot.storage.profiles import ChannelProfile, ProfileStore, now
from effbatch.bot.texts import storage as storage_texts
from effbatch.core.profile import (
    DeleteProfile,
    ProfileError,
    SetProfile,
    ShowProfile,
    WithProfile,
    may_take_a_profile,
    parse_profile_command,
    with_profile,
)

log = logging.getLogger("effbatch")

_USER_ID = re.compile(r"[UW][A-Z0-9]{2,20}")
#: A command's text with the channel's profile applied, and that profile.
Defaulted = tuple[WithProfile, ChannelProfile]
#: Who set a profile when Slack sent no usable user id (never a mention of something typed).
UNKNOWN_USER = "USLACKBOT"
#: Stands for the channel's profile when the database did not answer in time: the answer says it went without.
UNREAD = ChannelProfile((), UNKNOWN_USER, datetime.min.replace(tzinfo=UTC))


def profile_answer(store: ProfileStore | None, command: Mapping[str, Any], visibility: Visibility) -> Answer:
    """The answer to ``/effbatch cluster …``: show, store or delete the channel's profile."""
    team, channel = str(command.get("team_id") or ""), str(command.get("channel_id") or "")
    if store is None or not team or not channel:
        return rendering.unavailable()
    try:
        parsed = parse_profile_command(str(command.get("text", "")))
    except ProfileError as error:
        return rendering.refused(error)
    match parsed:
        case ShowProfile():
            return rendering.shown(store.get(team, channel), Visibility.EPHEMERAL)
        case DeleteProfile():
            return rendering.deleted(store.delete(team, channel), visibility)
        case SetProfile(settings=settings):
            user = str(command.get("user_id") or "")
            profile = ChannelProfile(settings, user if _USER_ID.fullmatch(user) else UNKNOWN_USER, now())
            store.put(team, channel, profile, str(command.get("enterprise_id") or "") or None)
            return rendering.stored(profile, visibility)


def channel_defaults(
    store: ProfileStore | None, command: Mapping[str, Any]
) -> tuple[WithProfile, ChannelProfile] | None:
    """The command's text with its channel's profile applied, and the profile; None when nothing applies."""
    team, channel = command.get("team_id"), command.get("channel_id")
    if store is None or not team or not channel or not may_take_a_profile(str(command.get("text", ""))):
        return None  # no lookup where no profile could change the answer (a database round trip a command)
    try:
        profile = store.get(str(team), str(channel))
    except SQLAlchemyError as error:
        log.warning("channel profile unavailable", extra={"team": team, "channel": channel, "detail": str(error)})
        return (
            (WithProfile(str(command.get("text", ""))), UNREAD) if isinstance(error, DatabaseUnavailableError) else None
        )
    if profile is None:
        return None
    applied = with_profile(str(command.get("text", "")), profile.as_dict())
    return (applied, profile) if applied.applied else None


def answered_with_profile(answer: Answer, applied: WithProfile, profile: ChannelProfile) -> Answer:
    """The answer, opened by the note naming what came from the profile, who set it and when – or, when the database
    did not answer in time, the note that the channel's profile was left out."""
    if profile is UNREAD:
        return rendering.with_note(answer, Note(storage_texts.PROFILE_LEFT_OUT))
    return rendering.with_note(answer, rendering.profile_note(profile, applied.applied))
