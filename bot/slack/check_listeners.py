"""The listeners of config checks: ``/effbatch prüfe …``, the message shortcut, the world-size form, sharing.

What a check needs across requests (the pasted config, where to answer, the thread) travels
packed in the form's ``private_metadata`` or the share button's value, sealed (``bot.slack.state``),
so any replica handles any step and none takes a state it did not make; a config too large for that
is answered with a hint to use ``/effbatch prüfe gpus=…``.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from effbatch.bot.document import Visibility
from effbatch.bot.rendering import views
from effbatch.bot.rendering.checks import SHARE_ACTION, CheckReply, check_reply, pasted_sources
from effbatch.bot.rendering.formatting import readable
from effbatch.bot.slack.listeners import Dependencies, answered, on_error, open_form, team_of
from effbatch.bot.slack.profile_listeners import answered_with_profile, channel_defaults
from effbatch.bot.slack.state import Purpose, Seal
from effbatch.bot.slack.web_api import SLACK_FAILURES, describe, failed
from effbatch.bot.texts import answers as answer_texts
from effbatch.bot.texts import checks as texts
from effbatch.core import Argument
from effbatch.core.check_command import CheckRequest, check_request
from effbatch.core.configs import World

#: The largest world size a form or state may carry (the form's own bound).
MAX_WORLD = Argument.GPUS.upper_bound

CHECK_SHORTCUT = "effbatch_check"
#: Slack's limits: a view's private_metadata holds 3.000 characters, a button's value 2.000.
MAX_METADATA = 3000
MAX_BUTTON_VALUE = 2000
#: Bytes a packed state may unpack to: a message of 40.000 characters (Slack's limit) in UTF-8, and the rest.
MAX_STATE = 4 * 40_000 + 4096
#: What a state holds, and the types each may have (``pack``'s callers write nothing else).
_STATE_TYPES: dict[str, tuple[type, ...]] = {
    "text": (str,),
    "url": (str, type(None)),
    "private": (bool,),
    "channel": (str, type(None)),
    "thread": (str, type(None)),
    "world": (int, type(None)),
    "world_where": (str, type(None)),
    "gpu": (str, type(None)),
}


def acked_at_once(payload: Mapping[str, Any]) -> bool:
    """An interaction whose listener always acknowledges with nothing and then runs a config check: the shortcut,
    sharing. The transports acknowledge it as it arrives, so that its check (up to its deadline, or a wait for a
    check thread behind others) never holds the acknowledgement past Slack's 3 s."""
    kind = payload.get("type")
    if kind == "message_action":
        return payload.get("callback_id") == CHECK_SHORTCUT
    actions = payload.get("actions")
    if kind != "block_actions" or not isinstance(actions, list) or not actions:
        return False
    return all(isinstance(action, dict) and action.get("action_id") == SHARE_ACTION for action in actions)


def runs_a_check(payload: Mapping[str, Any]) -> bool:
    """An interaction that runs a config check: those of ``acked_at_once``, and the world-size form submitted."""
    view = payload.get("view")
    submitted = isinstance(view, dict) and view.get("callback_id") == views.WORLD_FORM_CALLBACK
    return acked_at_once(payload) or (payload.get("type") == "view_submission" and submitted)


def pack(state: dict[str, Any], limit: int, seal: Seal, purpose: Purpose) -> str | None:
    """``state`` compressed and sealed for ``purpose``, as text of at most ``limit`` characters; None if too long."""
    raw = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    packed = seal.sealed(purpose, "z1:" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode())
    return packed if len(packed) <= limit else None


def unpack(text: str, seal: Seal, purpose: Purpose) -> dict[str, Any] | None:
    """The state ``pack`` made for ``purpose``, or None for anything else: not sealed by this bot (forged, or
    made for another purpose), damaged, or inflating past ``MAX_STATE``."""
    if len(text) > MAX_METADATA:
        return None
    opened = seal.opened(purpose, text)
    if opened is None or not opened.startswith("z1:"):
        return None
    try:
        inflate = zlib.decompressobj()
        raw = inflate.decompress(base64.urlsafe_b64decode(opened[3:]), MAX_STATE)
        if inflate.unconsumed_tail or not inflate.eof:  # more than MAX_STATE, or cut off
            return None
        data = json.loads(raw)
    except (ValueError, RecursionError, zlib.error):  # not JSON, 5.000-digit numbers, 20.000-deep nesting
        return None
    return data if _well_typed(data) else None


def _well_typed(data: object) -> bool:
    """A dict with a text, whose every key is one ``pack`` writes, of its type; a world size a real one."""
    if not isinstance(data, dict) or not isinstance(data.get("text"), str) or not set(data) <= set(_STATE_TYPES):
        return False
    if not all(type(value) in _STATE_TYPES[key] for key, value in data.items()):  # bool is no int here
        return False
    world = data.get("world")
    return world is None or 1 <= world <= MAX_WORLD


def on_check_command(deps: Dependencies, ack: Ack, command: dict[str, Any], client: WebClient) -> None:
    """``/effbatch prüfe …``: the answer in the acknowledgement, or the world-size form when only that is missing."""
    defaulted = channel_defaults(deps.profiles, command)  # the channel profile's GPUs, where none are named
    request = check_request(readable(defaulted[0].text if defaulted else command.get("text", "")))
    reply = check_reply(request, deps.visibility, runner=deps.checks)
    state = {"text": request.text, "url": command.get("response_url"), "private": request.private, "gpu": request.gpu}
    if _asked_for_world(deps, client, command.get("trigger_id", ""), reply, state):
        ack()
    else:
        answer = answered_with_profile(reply.answer, *defaulted) if defaulted else reply.answer
        ack(deps.layout(answer.document))
    answered(f"check_{reply.answer.kind}", command.get("team_id"), command.get("channel_id"))


def on_check_shortcut(deps: Dependencies, ack: Ack, shortcut: dict[str, Any], client: WebClient) -> None:
    """The message shortcut: the message checked, privately to whoever clicked, with a button to share it."""
    ack()
    message = shortcut.get("message") or {}
    channel = (shortcut.get("channel") or {}).get("id")
    state = {
        "text": readable(str(message.get("text", ""))),  # a lone surrogate would break the packed state
        "url": shortcut.get("response_url"),
        "private": True,
        "channel": channel,
        "thread": message.get("thread_ts") or message.get("ts"),
    }
    with told_on_failure(deps, str(state["url"] or "")):
        reply = _reply(deps, state, None)
        if not _asked_for_world(deps, client, shortcut.get("trigger_id", ""), reply, state):
            delivered(deps, str(state["url"] or ""), deps.layout(reply.answer.document))
        answered(f"check_shortcut_{reply.answer.kind}", team_of(shortcut), channel)


def on_check_world(deps: Dependencies, ack: Ack, view: dict[str, Any], body: dict[str, Any]) -> None:
    """The world-size form submitted: the check, answered where it was asked."""
    try:
        nodes, per_node = views.read_world_form(view)
    except views.FormError as error:
        ack(response_action="errors", errors=error.errors)
        return
    state = unpack(str(view.get("private_metadata", "")), deps.seal, Purpose.WORLD_FORM)
    if state is None:
        ack(response_action="update", view=views.damaged_view(texts.CHECK_STATE_DAMAGED))
        answered("check_form_damaged", team_of(body), None)
        return
    ack()
    url = str(state.get("url") or "")
    with told_on_failure(deps, url):
        reply = _reply(deps, state, World(nodes * per_node, f"{nodes} × {per_node} GPUs"), deps.visibility)
        delivered(deps, url, deps.layout(reply.answer.document))
        answered(f"check_form_{reply.answer.kind}", team_of(body), state.get("channel"))


def on_check_share(
    deps: Dependencies, ack: Ack, action: dict[str, Any], body: dict[str, Any], client: WebClient
) -> None:
    """ "Im Thread teilen": the same check posted in the thread of the checked message, for everyone."""
    ack()
    state = unpack(str(action.get("value", "")), deps.seal, Purpose.SHARE)
    response_url = str(body.get("response_url", ""))
    if state is None or not state.get("channel") or not state.get("thread"):
        deps.deliver(response_url, _ephemeral(texts.CHECK_STATE_DAMAGED))
        answered("check_share_damaged", team_of(body), None)
        return
    with told_on_failure(deps, response_url):
        world = World(state["world"], state["world_where"]) if state.get("world") else None
        request = CheckRequest(state["text"], world, gpu=state.get("gpu"))
        reply = check_reply(request, Visibility.IN_CHANNEL, runner=deps.checks)
        payload = deps.layout(reply.answer.document)
        try:
            client.chat_postMessage(
                channel=state["channel"], thread_ts=state["thread"], text=payload["text"], blocks=payload.get("blocks")
            )
        except SLACK_FAILURES as error:
            detail = describe(error)
            failed("chat.postMessage", detail)
            text = texts.NOT_IN_CHANNEL if "not_in_channel" in detail else texts.SHARE_FAILED.format(detail=detail)
            deps.deliver(response_url, _ephemeral(text))
            return
        deps.deliver(response_url, _ephemeral(texts.SHARED))
        answered("check_shared", team_of(body), state["channel"])


@contextmanager
def told_on_failure(deps: Dependencies, url: str) -> Iterator[None]:
    """After the acknowledgement, the one path to the user is ``url``: whatever fails meanwhile is logged with its
    traceback (as ``on_error`` does) and told there in German, never left in silence."""
    try:
        yield
    except Exception as error:
        on_error(error, None)
        deps.deliver(url, _ephemeral(answer_texts.INTERNAL_ERROR))


def delivered(deps: Dependencies, url: str, payload: dict[str, Any]) -> None:
    """``payload`` posted to ``url``; if Slack does not take it (too long, blocks it refuses), a short German text
    in its place, which it takes."""
    if not deps.deliver(url, payload):
        deps.deliver(url, _ephemeral(texts.ANSWER_NOT_TAKEN))


def _ephemeral(text: str) -> dict[str, Any]:
    """A private text beside the message it answers (a share button's message stays as it is)."""
    return {"response_type": "ephemeral", "replace_original": False, "text": text}


def _reply(
    deps: Dependencies, state: dict[str, Any], world: World | None, visibility: Visibility = Visibility.EPHEMERAL
) -> CheckReply:
    """The check of ``state``'s text; from a shortcut privately and with a share button where it fits."""
    request = CheckRequest(str(state.get("text", "")), world, bool(state.get("private")), state.get("gpu"))
    shortcut = bool(state.get("channel") and state.get("thread"))

    def share(text: str) -> str | None:
        where = {"world": world.size, "world_where": world.where} if world else {}
        return pack({**state, "text": text, **where}, MAX_BUTTON_VALUE, deps.seal, Purpose.SHARE)

    return check_reply(request, visibility, share if shortcut else None, deps.checks)


def _asked_for_world(
    deps: Dependencies, client: WebClient, trigger_id: str, reply: CheckReply, state: dict[str, Any]
) -> bool:
    """Open the world-size form when only the world size is missing and the config fits into it."""
    if reply.needs_world is None or not trigger_id or not pasted_sources(str(state["text"])):
        return False
    packed = pack(state, MAX_METADATA, deps.seal, Purpose.WORLD_FORM)
    if packed is None:
        return False
    framework = texts.FRAMEWORKS[reply.needs_world].title
    return open_form(client, trigger_id, views.world_form(framework, packed, reply.world_guess)) is None
