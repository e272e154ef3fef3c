"""The scaling answer in Slack: posted to the channel, its chart uploaded into the answer's thread.

A slash command's acknowledgement has no message timestamp, so a thread needs a message the bot posts itself:
the acknowledgement says the answer is coming, a worker thread (never the event loop) posts the answer with
``chat.postMessage``, draws the chart (``bot.rendering.chart``, matplotlib loaded only there) and uploads it
with ``files_upload_v2`` into that message's thread. Where the upload is refused (no ``files:write``, not in
the channel, any error), the answer is updated to carry its text chart instead; where the bot cannot post
at all, the answer with its text chart goes to the command's response URL. Private answers and a full queue
never get here: they are answered with the text chart in the acknowledgement.

Bounded: at most ``WORKERS`` jobs run and ``PENDING`` wait; each Web API call has the client's timeout, and a
chart of a few dozen points draws in well under a second.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.problems import error_answer
from effbatch.bot.rendering.scaling import ScalingReply, scaling_reply
from effbatch.bot.slack.listeners import Deliver, Layout
from effbatch.bot.slack.web_api import SLACK_FAILURES, describe, failed
from effbatch.bot.texts import answers as answer_texts
from effbatch.core import InputError, parse_command
from effbatch.core.scaling_command import SCALING_WORDS, ScalingCommand

log = logging.getLogger("effbatch")

#: Charts drawn and uploaded at once, and jobs that may wait for a worker; beyond, the text chart at once.
WORKERS = 2
PENDING = 8
CHART_FILE = "skalierung.png"
#: What a refused upload or post can raise: Slack's failures, and slack_sdk's own for an upload URL's answer.
UPLOAD_FAILURES = (*SLACK_FAILURES, SlackClientError)


class ChartPoster:
    """Takes over a public scaling answer: posts it, then its chart in its thread, on threads of its own."""

    def __init__(self, client: WebClient, layout: Layout, deliver: Deliver, visibility: Visibility) -> None:
        self._client, self._layout, self._deliver, self._visibility = client, layout, deliver, visibility
        self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="effbatch-chart")
        self._slots = threading.BoundedSemaphore(WORKERS + PENDING)
        #: Set after each job (tests wait on it with a hang guard).
        self.done = threading.Event()

    def take(self, command: Mapping[str, Any]) -> bool:
        """Whether the answer to ``command`` is posted with its chart by a worker (then the acknowledgement only
        says it is coming): a public scaling question in a channel, with a worker free or a place in the queue."""
        channel, text = command.get("channel_id"), str(command.get("text", ""))
        if not any(word in text.casefold() for word in SCALING_WORDS):
            return False  # no scaling word anywhere: not parsed again for every plain command
        try:
            parsed = parse_command(text)
        except InputError:
            return False
        public = self._visibility is Visibility.IN_CHANNEL and isinstance(parsed, ScalingCommand) and not parsed.private
        if not public or not channel or not isinstance(parsed, ScalingCommand) or not self._slots.acquire(False):
            return False
        self._pool.submit(self._run, str(channel), str(command.get("response_url", "")), parsed)
        return True

    def _run(self, channel: str, response_url: str, parsed: ScalingCommand) -> None:
        try:
            self._post(channel, response_url, scaling_reply(parsed.request, Visibility.IN_CHANNEL))
        except InputError as error:  # a set-up the table cannot take (B not reachable …): said as any problem is
            self._deliver(response_url, self._layout(error_answer(error).document))
        except Exception as error:  # after the acknowledgement only the response URL reaches whoever asked
            log.error("scaling answer not posted", exc_info=error)
            self._deliver(response_url, {"response_type": "ephemeral", "text": answer_texts.INTERNAL_ERROR})
        finally:
            self._slots.release()
            self.done.set()

    def _post(self, channel: str, response_url: str, reply: ScalingReply) -> None:
        """The answer without its text chart and the chart in its thread; the text chart wherever that fails."""
        with_table = self._layout(reply.answer.document)
        posted = self._layout(reply.without_table)
        try:
            answer = self._client.chat_postMessage(channel=channel, text=posted["text"], blocks=posted.get("blocks"))
        except SLACK_FAILURES as error:
            failed("chat.postMessage", describe(error))
            self._deliver(response_url, with_table)
            return
        ts = str(answer.get("ts", ""))
        try:
            from effbatch.bot.rendering.chart import png  # matplotlib: only where a chart is drawn

            self._client.files_upload_v2(
                channel=channel,
                thread_ts=ts,
                file=png(reply.chart),
                filename=CHART_FILE,
                title=reply.chart.title,
                alt_txt=reply.chart.alt,
            )
        except UPLOAD_FAILURES as error:
            failed("files_upload_v2", describe(error))
            self._with_table(channel, ts, with_table)

    def _with_table(self, channel: str, ts: str, payload: dict[str, Any]) -> None:
        """The posted answer updated to carry its text chart, where the picture could not follow."""
        try:
            self._client.chat_update(channel=channel, ts=ts, text=payload["text"], blocks=payload.get("blocks"))
        except SLACK_FAILURES as error:
            failed("chat.update", describe(error))
