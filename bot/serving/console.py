"""A local console: type ``/effbatch 8 64 4 4096``, read the answer, no Slack workspace needed.

Each line goes through the same Bolt app and listeners as in Slack: the console builds
the request Slack would send (a slash command, or a button click for a number typed
after an answer), signs it with a local secret, dispatches it and prints what comes
back, which the console's layout made terminal text with numbered choices.

A config check (``prüfe …``) is answered by the same function the Slack listener calls,
directly: a pasted block of several lines (a code fence, or ``prüfe`` and the lines after
it) is one request, and ``prüfe PATH`` reads the file, as ``effbatch check`` would – the
console runs on the user's machine.
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
from slack_bolt import App, BoltRequest
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient
from slack_sdk.signature import SignatureVerifier

from effbatch.bot.document import AnswerKind, Document, Visibility
from effbatch.bot.operations.settings import Settings
from effbatch.bot.rendering.checks import check_answer, check_reply, problem_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.rendering.whatif import ADJUST_ACTION
from effbatch.bot.serving.config_files import UnreadableFileError, read_source
from effbatch.bot.slack.app import BotParts, create_app
from effbatch.bot.storage.setup import memory_storage
from effbatch.bot.texts import answers as texts
from effbatch.bot.texts.glossary import COMMAND, PROGRAM
from effbatch.core.check_command import check_request, is_check
from effbatch.core.configs import MAX_FILE_BYTES, CheckError, check_config

_SIGNER = SignatureVerifier("effbatch-console")
_TEAM, _CHANNEL, _USER = "T0CONSOLE", "C0CONSOLE", "U0CONSOLE"
#: Where the listeners "post" a changed answer; the console takes it from there itself.
_RESPONSE_URL = "console:response"
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


@dataclass
class Console:
    """The bot's app, authorized offline, and the choices of the last answer."""

    settings: Settings
    choices: list[dict[str, str]] = field(default_factory=list)
    _delivered: list[dict[str, Any]] = field(default_factory=list)
    app: App = field(init=False)

    def __post_init__(self) -> None:
        offline = self.settings.model_copy(update={"slack_signing_secret": SecretStr(_SIGNER.signing_secret)})
        # No token and an unroutable base URL: nothing here may reach the network.
        client = WebClient(token=None, base_url="http://127.0.0.1:9/api/")
        self.app = create_app(
            offline,
            BotParts(
                client=client,
                authorize=_offline_authorize,
                layout=console_message,
                deliver=self._deliver,
                storage=memory_storage(),  # channel profiles (/effbatch cluster …) for as long as the console runs
            ),
        )

    def answer(self, line: str) -> str:
        """One request – a command, a pasted block, or the number of a choice – answered as text."""
        text = without_command(line)
        if text.isdigit() and text == line.strip():
            return self._choose(int(text))
        if not text:
            return texts.CONSOLE_NO_FORM
        if text.startswith("/"):
            typed = text.split(None, 1)[0]
            return texts.CONSOLE_UNKNOWN_COMMAND.format(typed=typed[:40], command=COMMAND)
        if is_check(text):
            return self._check(text)
        fields = {"command": COMMAND, "text": text, "team_id": _TEAM, "channel_id": _CHANNEL, "user_id": _USER}
        return self._shown(self._dispatch(urlencode(fields | {"response_url": _RESPONSE_URL})))

    def _check(self, text: str) -> str:
        """``prüfe …``: a file named by its path, or the pasted text, checked as in Slack."""
        request = check_request(text)
        visibility = Visibility.EPHEMERAL if request.private else self.settings.effbatch_response_type
        path = path_in(request.text)
        if path is None:
            reply = check_reply(request, visibility)
            shown = self._shown(console_message(reply.answer.document))
            unreadable = reply.answer.kind is AnswerKind.INPUT_ERROR and reply.needs_world is None
            pasted = bool(request.text.strip())
            return shown + "\n\n" + texts.CONSOLE_CHECK_FILE.format(program=PROGRAM) if unreadable and pasted else shown
        try:
            check = check_config([read_source(path)], request.world, max_bytes=MAX_FILE_BYTES, gpu=request.gpu)
        except UnreadableFileError as error:
            return str(error)
        except CheckError as error:
            return self._shown(console_message(problem_answer(error, slack=True).document))
        return self._shown(console_message(check_answer(check, visibility).document))

    def _choose(self, number: int) -> str:
        """A number after an answer: the click on that choice, through the same listener as in Slack."""
        if not self.choices:
            return texts.CONSOLE_NO_CHOICES.format(command=COMMAND)
        if not 1 <= number <= len(self.choices):
            return texts.CONSOLE_NO_CHOICE.format(number=number, last=len(self.choices))
        choice = self.choices[number - 1]
        if choice["action_id"] == ADJUST_ACTION:
            return texts.CONSOLE_NO_FORM
        click = {
            "type": "block_actions",
            "user": {"id": _USER},
            "team": {"id": _TEAM},
            "channel": {"id": _CHANNEL},
            "response_url": _RESPONSE_URL,
            "actions": [
                {"action_id": choice["action_id"], "value": choice["value"], "type": "button", "block_id": "whatif"}
            ],
        }
        self._dispatch(urlencode({"payload": json.dumps(click)}))
        chosen = texts.CONSOLE_CHOSEN.format(label=choice["label"])
        return chosen + "\n\n" + self._shown(self._delivered.pop()) if self._delivered else chosen

    def _dispatch(self, body: str) -> dict[str, Any]:
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

    def _shown(self, payload: dict[str, Any]) -> str:
        """What a payload says; an answer with choices replaces the ones numbers pick from."""
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
