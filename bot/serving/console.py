"""A local console: type ``/effbatch 8 64 4 4096``, read the answer, no Slack workspace needed.

Each line goes through the same Bolt app and listeners as in Slack: the console builds
the request Slack would send (a slash command – a calculation, ``prüfe …``, ``cluster …``,
``hilfe`` – or a button click for a number typed after an answer), signs it with a local
secret, dispatches it and prints what comes back, which the console's layout made terminal
text with numbered choices. What a listener sends Slack on its own – a form to open, a
message posted to a response URL – goes to local stand-ins, which the console shows as text.

A pasted block of several lines (a code fence, or ``prüfe`` and the lines after it) is one
request. ``prüfe PATH`` reads the file, as ``effbatch check`` would – the console runs on the
user's machine: the request names the path, and the console's check runner checks the file
the console read for it in its place.
"""

from __future__ import annotations

import json
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlencode

from pydantic import SecretStr
from slack_bolt import App, BoltRequest, BoltResponse
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.middleware import Middleware
from slack_sdk import WebClient
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web import SlackResponse

from effbatch.bot.document import Document, Visibility
from effbatch.bot.operations.settings import Settings
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.serving.config_files import UnreadableFileError, read_source
from effbatch.bot.slack.app import BotParts, create_app
from effbatch.bot.storage.setup import memory_storage
from effbatch.bot.texts import answers as texts
from effbatch.bot.texts.glossary import COMMAND, PROGRAM
from effbatch.core.check_command import check_request, is_check
from effbatch.core.configs import (
    MAX_FILE_BYTES,
    Check,
    CheckError,
    ProblemKind,
    Source,
    check_config,
)

_SIGNER = SignatureVerifier("effbatch-console")
_TEAM, _CHANNEL, _USER = "T0CONSOLE", "C0CONSOLE", "U0CONSOLE"
#: Where the listeners "post" a changed answer; the console takes it from there itself.
_RESPONSE_URL = "console:response"
#: The trigger Slack sends with a command or a click, with which a listener may open a form (here: the stand-in).
_TRIGGER = "console-trigger"
EXIT_WORDS = frozenset({"exit", "quit", "ende", "q"})
#: Opens and closes a code block; a line with an unclosed one starts a paste that ends where it closes.
FENCE = "```"
#: Where a file name in ``prüfe PATH`` ends: what a config's text has and a path has not.
_NOT_A_PATH = frozenset("{}=:\n")
#: A line read by the console: ``read_line(prompt)``, None at the end of the input.
Reader = Callable[[str], str | None]
#: How often the prompt wakes to act on a Ctrl+C that came before readline was listening.
_SIGNAL_CHECK_SECONDS = 0.05
#: How long the console waits for more of a paste before taking an empty line as the end of it.
_PASTE_SECONDS = 0.05


def console_message(document: Document) -> dict[str, Any]:
    """The console's layout: the document as terminal text, its visibility, and its choices to pick by number."""
    choices = [{"action_id": c.action_id, "label": c.label, "value": c.value} for c in document.choices]
    return {"response_type": document.visibility.value, "text": plain_text(document), "choices": choices}


class LocalWebAPI(WebClient):
    """The console's stand-in for Slack's Web API: each call a listener makes is kept for the console to show and
    answered ``ok``, as Slack answers it; nothing leaves the machine (no token, an unroutable base URL)."""

    def __init__(self) -> None:
        super().__init__(token=None, base_url="http://127.0.0.1:9/api/")
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def api_call(  # slack_sdk's signature: every Web API method comes through here
        self,
        api_method: str,
        *,
        http_verb: str = "POST",
        files: dict[Any, Any] | None = None,
        data: dict[Any, Any] | None = None,
        params: dict[Any, Any] | None = None,
        json: dict[Any, Any] | None = None,
        headers: dict[Any, Any] | None = None,
        auth: dict[Any, Any] | None = None,
    ) -> SlackResponse:
        self.calls.append((api_method, {**(params or {}), **(data or {}), **(json or {})}))
        url = self.base_url + api_method
        return SlackResponse(
            client=self, http_verb=http_verb, api_url=url, req_args={}, data={"ok": True}, headers={}, status_code=200
        )

    def shown(self) -> list[str]:
        """What the calls since the last time put in front of the user, as text; a form opens only in Slack."""
        calls, self.calls = self.calls, []
        shown = {
            "views.open": lambda args: texts.CONSOLE_NO_FORM,
            "chat.postMessage": lambda args: str(args.get("text", "")),
        }
        return [shown[method](args) for method, args in calls if method in shown]


class _WebAPIStandIn(Middleware):
    """Bolt hands each listener a Web API client of its own, made for the request; here every listener gets the
    console's stand-in instead, so what it calls stays on this machine and can be shown."""

    def __init__(self, client: LocalWebAPI) -> None:
        self.client = client

    def process(self, *, req: BoltRequest, resp: BoltResponse, next: Callable[[], BoltResponse]) -> BoltResponse:
        req.context["client"] = self.client
        return next()


@dataclass
class LocalChecks:
    """The console's check runner, on the user's machine: ``prüfe PATH`` checks the file the console read for that
    path (up to ``MAX_FILE_BYTES``, as ``effbatch check``); pasted text is checked as in Slack."""

    #: The path the current request names and what the console read there (or why the file is too large).
    attached: tuple[str, Source | CheckError] | None = None
    #: The last check refused pasted text for a reason other than the world size (a file might be read instead).
    refused_paste: bool = False

    def __call__(self, sources: Sequence[Source], *args: Any, **kwargs: Any) -> Check:
        """``check_config`` of ``sources`` and the rest as the listener passes them; a file read for the request's
        path is checked in the path's place, up to ``MAX_FILE_BYTES``."""
        read = self._file(sources)
        if isinstance(read, CheckError):
            raise read
        try:
            if read is not None:
                return check_config([read], *args, **(kwargs | {"max_bytes": MAX_FILE_BYTES}))
            return check_config(sources, *args, **kwargs)
        except CheckError as error:
            self.refused_paste = read is None and error.kind is not ProblemKind.WORLD_SIZE_NEEDED
            raise

    def _file(self, sources: Sequence[Source]) -> Source | CheckError | None:
        """The file read for the path that is all the request's text; None for pasted text."""
        if self.attached is None or len(sources) != 1 or sources[0].text.strip() != self.attached[0]:
            return None
        return self.attached[1]


@dataclass
class Console:
    """The bot's app, authorized offline, with local stand-ins for the Web API and the check processes, and the
    choices of the last answer."""

    settings: Settings
    choices: list[dict[str, str]] = field(default_factory=list)
    _delivered: list[dict[str, Any]] = field(default_factory=list)
    _web_api: LocalWebAPI = field(default_factory=LocalWebAPI)
    _checks: LocalChecks = field(default_factory=LocalChecks)
    app: App = field(init=False)

    def __post_init__(self) -> None:
        offline = self.settings.model_copy(update={"slack_signing_secret": SecretStr(_SIGNER.signing_secret)})
        parts = BotParts(
            client=self._web_api,
            authorize=_offline_authorize,
            layout=console_message,
            deliver=self._deliver,
            checks=self._checks,
            storage=memory_storage(),  # channel profiles (/effbatch cluster …) for as long as the console runs
        )
        self.app = create_app(offline, parts)
        self.app.use(_WebAPIStandIn(self._web_api))

    def answer(self, line: str) -> str:
        """One request – a command, a pasted block, or the number of a choice – answered as text."""
        text = without_command(line)
        if text.isdigit() and text == line.strip():
            return self._choose(int(text))
        if text.startswith("/"):
            typed = text.split(None, 1)[0]
            return texts.CONSOLE_UNKNOWN_COMMAND.format(typed=typed[:40], command=COMMAND)
        self._checks.attached, self._checks.refused_paste = None, False
        if is_check(text) and (path := path_in(check_request(text).text)) is not None:
            try:
                self._checks.attached = (path, read_source(path))
            except UnreadableFileError as error:
                return str(error)  # nothing to send: the file is not there to be checked
            except CheckError as error:
                self._checks.attached = (path, error)  # too large: answered as Slack answers a paste too large
        return self._command(text)

    def _command(self, text: str) -> str:
        """``/effbatch text`` as Slack sends it, answered through the app; a paste refused points to its file."""
        fields = {"command": COMMAND, "text": text, "team_id": _TEAM, "channel_id": _CHANNEL, "user_id": _USER}
        # The trigger a form opens with; a check's world-size form would ask only what its answer says how to type.
        trigger = {} if is_check(text) else {"trigger_id": _TRIGGER}
        shown = self._shown(self._dispatch(urlencode(fields | trigger | {"response_url": _RESPONSE_URL})))
        if self._checks.refused_paste:
            return shown + "\n\n" + texts.CONSOLE_CHECK_FILE.format(program=PROGRAM)
        return shown

    def _choose(self, number: int) -> str:
        """A number after an answer: the click on that choice, through the same listener as in Slack."""
        if not self.choices:
            return texts.CONSOLE_NO_CHOICES.format(command=COMMAND)
        if not 1 <= number <= len(self.choices):
            return texts.CONSOLE_NO_CHOICE.format(number=number, last=len(self.choices))
        choice = self.choices[number - 1]
        click = {
            "type": "block_actions",
            "user": {"id": _USER},
            "team": {"id": _TEAM},
            "channel": {"id": _CHANNEL},
            "response_url": _RESPONSE_URL,
            "trigger_id": _TRIGGER,
            "actions": [
                {"action_id": choice["action_id"], "value": choice["value"], "type": "button", "block_id": "whatif"}
            ],
        }
        shown = self._shown(self._dispatch(urlencode({"payload": json.dumps(click)})))
        if shown == texts.CONSOLE_NO_FORM:  # the click opened a form: nothing is chosen until it is sent
            return shown
        return "\n\n".join(filter(None, [texts.CONSOLE_CHOSEN.format(label=choice["label"]), shown]))

    def _dispatch(self, body: str) -> dict[str, Any]:
        """The request through the app, signed as Slack signs it; the payload of its acknowledgement."""
        timestamp = str(int(time.time()))
        headers: dict[str, str | Sequence[str]] = {
            "content-type": "application/x-www-form-urlencoded",
            "x-slack-request-timestamp": timestamp,
            "x-slack-signature": _SIGNER.generate_signature(timestamp=timestamp, body=body) or "",
        }
        response = self.app.dispatch(BoltRequest(body=body, headers=headers))
        payload: dict[str, Any] = json.loads(response.body) if response.body else {}
        return payload

    def _deliver(self, url: str, payload: dict[str, Any]) -> bool:
        self._delivered.append(payload)
        return True

    def _shown(self, acknowledged: dict[str, Any]) -> str:
        """What came back – the acknowledgement, what was posted to the response URL, what the Web API was asked to
        show – as text; an answer with choices replaces the ones numbers pick from."""
        payloads = [acknowledged, *self._delivered] if acknowledged else list(self._delivered)
        self._delivered.clear()
        shown = [self._text(payload) for payload in payloads] + self._web_api.shown()
        return "\n\n".join(text for text in shown if text)

    def _text(self, payload: dict[str, Any]) -> str:
        if "choices" in payload and payload.get("replace_original") is not False:
            self.choices = list(payload["choices"])
        private = payload.get("response_type") == Visibility.EPHEMERAL
        return (texts.CONSOLE_EPHEMERAL + "\n" if private else "") + str(payload.get("text", ""))


def _offline_authorize(**_: object) -> AuthorizeResult:
    """The console's stand-in for ``auth.test``: a fixed bot identity, no network."""
    return AuthorizeResult(enterprise_id=None, team_id=_TEAM, bot_token="xoxb-console", bot_user_id="U0BOT")


def run_console(settings: Settings, read_line: Reader, out: TextIO, pending: Callable[[], bool] = lambda: False) -> int:
    """Answer each request from ``read_line`` on ``out`` until the input ends or an exit word.

    ``pending`` says whether more input is already waiting (the rest of a paste). Ctrl+C at any
    moment – at the prompt, while an answer is computed – ends the console on a fresh line.
    """
    try:
        console = Console(settings)
        out.write(texts.CONSOLE_INTRO + "\n")
        while (line := read_line(texts.CONSOLE_PROMPT)) is not None and line.strip().casefold() not in EXIT_WORDS:
            if line.strip():
                out.write(console.answer(gathered(line, read_line, pending)) + "\n\n")
                out.flush()
    except KeyboardInterrupt:
        out.write("\n")
        out.flush()
    return 0


def gathered(line: str, read_line: Reader, pending: Callable[[], bool]) -> str:
    """One request: the line, and for a paste the lines that belong to it.

    An unclosed code fence reads on until it closes; ``prüfe`` with nothing to check after it reads
    the following lines up to an empty one that no more pasted input follows (a YAML's blank lines stay).
    """
    text = without_command(line)
    if text.count(FENCE) % 2 == 1:
        lines = [line]
        while (more := read_line(texts.CONSOLE_MORE_PROMPT)) is not None:
            lines.append(more)
            if FENCE in more:
                break
        return "\n".join(lines)
    if is_check(text) and not check_request(text).text.strip():
        lines = [line]
        while (more := read_line(texts.CONSOLE_MORE_PROMPT)) is not None and (more.strip() or pending()):
            lines.append(more)
        return "\n".join(lines)
    return line


def without_command(line: str) -> str:
    """``/effbatch 8 64 4`` → ``8 64 4``; ``/effbatchx`` keeps its name (and is answered as a mistyped command)."""
    words = line.strip().split(None, 1)
    if words and words[0] == COMMAND:
        return words[1].strip() if len(words) > 1 else ""
    return line.strip()


def path_in(text: str) -> str | None:
    """The file ``prüfe PATH`` names: one word that is no config text, an existing file or written like a path."""
    word = text.strip()
    if not word or len(word.split()) > 1 or _NOT_A_PATH & set(word):
        return None
    looks_like_path = "/" in word or word.startswith(("~", ".")) or Path(word).suffix.lower() in _CONFIG_SUFFIXES
    return word if looks_like_path or Path(word).expanduser().is_file() else None


#: Endings of the files ``effbatch check`` reads; ``prüfe ds_config.json`` names a file even if it is missing.
_CONFIG_SUFFIXES = frozenset({".json", ".yaml", ".yml", ".toml", ".py", ".sh", ".slurm", ".sbatch", ".cfg"})


def terminal_reader(prompt: str) -> str | None:
    """A line typed at the prompt, with line editing; None at Ctrl+D, leaving on a fresh line.

    Ctrl+C raises KeyboardInterrupt, which ``run_console`` turns into the end of the console.
    """
    import readline  # noqa: F401 - importing it gives input() history and cursor keys

    try:
        with _signals_checked():
            return input(prompt)
    except EOFError:
        sys.stdout.write("\n")
        return None


def terminal_pending() -> bool:
    """More typed or pasted input waits already (the rest of a paste arrives within milliseconds)."""
    return bool(select.select([sys.stdin], [], [], _PASTE_SECONDS)[0])


@contextmanager
def _signals_checked(every: float = _SIGNAL_CHECK_SECONDS) -> Iterator[None]:
    """While readline waits for a key, a no-op SIGALRM wakes it every ``every`` seconds.

    Python's readline acts on a signal only when its select() is interrupted; a Ctrl+C that arrives
    after the prompt is printed but before select() is entered would wait for the next key. The tick
    interrupts select(), Python then runs the pending Ctrl+C. Other system calls restart (SA_RESTART).
    """
    previous = signal.signal(signal.SIGALRM, _tick)
    signal.siginterrupt(signal.SIGALRM, False)
    signal.setitimer(signal.ITIMER_REAL, every, every)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _tick(signum: int, frame: object) -> None:
    """SIGALRM's handler while reading a line: nothing to do; being called is the point."""


def stream_reader(stream: TextIO) -> Reader:
    """Lines from a pipe or file, without their line ends; None at its end (no prompt is shown)."""

    def read_line(prompt: str) -> str | None:
        line = stream.readline()
        return line.removesuffix("\n") if line else None

    return read_line
