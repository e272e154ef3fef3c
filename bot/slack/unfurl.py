"""A link is a config: a GitHub link to a training config pasted in a channel is fetched, checked and unfurled.

Slack sends ``link_shared`` for the manifest's ``unfurl_domains``; the event is acknowledged at once and the
work done after (Bolt's lazy listener): fetching (``bot.github_files``: public files only, 1 MiB and 3 s at
most) and the check (in a check process) may take seconds. The unfurl shows the check's short answer and a
button; the button shows the whole check to whoever clicked.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient
from slack_sdk.models.blocks import ActionsBlock, ButtonElement, ContextBlock, MarkdownTextObject, SectionBlock
from sqlalchemy.exc import SQLAlchemyError

from effbatch.bot.check_runner import CheckAborted
from effbatch.bot.document import Answer, AnswerKind, Document, Section, Visibility
from effbatch.bot.github_files import FetchError, GitHubFile, fetch, github_file, is_text
from effbatch.bot.rendering.block_kit import escape
from effbatch.bot.rendering.checks import aborted_answer, check_answer, problem_answer
from effbatch.bot.slack.listeners import Dependencies, answered, on_error
from effbatch.bot.slack.web_api import SLACK_FAILURES, describe, failed
from effbatch.bot.texts import links as texts
from effbatch.core.check_command import PROFILE_WORLD
from effbatch.core.configs import MAX_FILE_BYTES, CheckError, Source, World, clean
from effbatch.core.profile import world_size

log = logging.getLogger("effbatch")

FULL_CHECK_ACTION = "effbatch_unfurl_full"
#: Links unfurled per message (Slack sends up to 5; each costs a fetch and a check).
MAX_LINKS = 3


def linked_check(
    deps: Dependencies, base: str, file: GitHubFile, world: World | None, visibility: Visibility
) -> Answer:
    """The check of the linked file, or why it could not be read or checked."""
    try:
        text = fetch(file, base)
    except FetchError as error:
        message = texts.FAILURES[error.failure].format(name=file.name)
        return Answer(
            AnswerKind.NOT_FETCHED, Document(texts.FAILURE_TITLE, message, visibility, (Section(lines=(message,)),))
        )
    try:
        check = deps.checks([Source(file.name, clean(text))], world, max_bytes=MAX_FILE_BYTES)
    except CheckAborted as stopped:
        return aborted_answer(stopped)
    except CheckError as error:
        return problem_answer(error, slack=True)
    return check_answer(check, visibility)


def unfurl_blocks(answer: Answer, url: str, file: GitHubFile) -> list[dict[str, Any]]:
    """The short answer (title and summary), where it comes from, and the button for the whole check; a file that
    could not be read gets neither the claim that it was checked nor a button to a check that never ran."""
    document, read = answer.document, answer.kind is not AnswerKind.NOT_FETCHED
    source = (texts.UNFURL_CONTEXT if read else texts.UNFURL_NOT_READ_CONTEXT).format(
        name=file.name, repo=f"{file.owner}/{file.repo}"
    )
    blocks: list[SectionBlock | ContextBlock | ActionsBlock] = [
        SectionBlock(text=MarkdownTextObject(text=f"*{escape(document.title)}*\n{escape(document.summary)}")),
        ContextBlock(elements=[MarkdownTextObject(text=escape(source))]),
    ]
    if read:
        blocks.append(
            ActionsBlock(elements=[ButtonElement(text=texts.FULL_CHECK, action_id=FULL_CHECK_ACTION, value=url)])
        )
    return [block.to_dict() for block in blocks]


def channel_world(deps: Dependencies, team: str | None, channel: str | None) -> World | None:
    """The channel profile's GPUs as the world size, for configs that do not say it."""
    if deps.profiles is None or not team or not channel:
        return None
    try:
        profile = deps.profiles.get(team, channel)
    except SQLAlchemyError:
        return None
    size = world_size(profile.as_dict()) if profile else None
    return World(size, PROFILE_WORLD) if size else None


def acknowledge(ack: Ack) -> None:
    ack()


def on_link_shared(
    deps: Dependencies, base: str, event: dict[str, Any], body: dict[str, Any], client: WebClient
) -> None:
    """``link_shared``, after the acknowledgement: each GitHub file among the links checked and unfurled."""
    channel = event.get("channel")
    world = channel_world(deps, body.get("team_id"), channel)
    unfurls: dict[str, Any] = {}
    for link in (event.get("links") or [])[:MAX_LINKS]:
        url = str(link.get("url", ""))
        if (file := _linked_file(url)) is not None:
            answer = _own_answer(deps, base, file, world)
            unfurls[url] = {"blocks": unfurl_blocks(answer, url, file)}
            answered(f"unfurl_{answer.kind}", body.get("team_id"), channel)
    if not unfurls:
        return
    where = {"channel": channel, "ts": event.get("message_ts")}
    if event.get("unfurl_id"):  # a link in a message still being written
        where = {"unfurl_id": event["unfurl_id"], "source": event.get("source", "composer")}
    try:
        client.chat_unfurl(unfurls=unfurls, **where)
    except SLACK_FAILURES as error:
        failed("chat.unfurl", describe(error))


def _linked_file(url: str) -> GitHubFile | None:
    """The GitHub file a link names; a link that is no valid text (a lone surrogate, which no answer to Slack can
    carry) is skipped with a log line, the other links of the message still unfurled."""
    if not is_text(url):
        log.warning("link not unfurled", extra={"detail": "not_text"})
        return None
    return github_file(url)


def _own_answer(deps: Dependencies, base: str, file: GitHubFile, world: World | None) -> Answer:
    """One link's check on its own: whatever fails unexpectedly is logged with its traceback (as ``on_error``
    does) and answered for this link alone – the message's other links keep their unfurls."""
    try:
        return linked_check(deps, base, file, world, Visibility.IN_CHANNEL)
    except Exception as error:
        on_error(error, None)
        message = texts.FAILED.format(name=file.name)
        return Answer(
            AnswerKind.INPUT_ERROR,
            Document(texts.FAILURE_TITLE, message, Visibility.IN_CHANNEL, (Section(lines=(message,)),)),
        )


def on_full_check(deps: Dependencies, base: str, ack: Ack, action: dict[str, Any], body: dict[str, Any]) -> None:
    """The unfurl's button: the whole check, only to whoever clicked."""
    ack()
    url = str(action.get("value", ""))
    file = github_file(url)
    if file is None:
        return
    channel = (body.get("channel") or {}).get("id")
    world = channel_world(deps, (body.get("team") or {}).get("id"), channel)
    answer = linked_check(deps, base, file, world, Visibility.EPHEMERAL)
    payload = deps.layout(answer.document) | {"response_type": "ephemeral", "replace_original": False}
    deps.deliver(str(body.get("response_url", "")), payload)
    answered(f"unfurl_full_{answer.kind}", (body.get("team") or {}).get("id"), channel)
