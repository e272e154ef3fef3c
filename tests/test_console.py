"""The local console as its user types and pastes into it: one request per paste, files by path, typos named."""

from __future__ import annotations

import html
import io
import json
import os
import re
import signal
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from pydantic import SecretStr
from slack_bolt import BoltRequest
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient
from terminal_session import console_on_a_terminal, read_until, wait_for_exit

from effbatch.bot.operations.settings import Settings
from effbatch.bot.serving.console import Console, gathered, path_in, stream_reader
from effbatch.bot.slack.app import BotParts, create_app
from effbatch.bot.storage.setup import memory_storage
from effbatch.bot.texts import answers as texts
from effbatch.bot.texts.glossary import PROGRAM

from bot_process import clean_env, run_script
from slack_checks import all_text, assert_valid_message
from slack_signing import signed_headers

CONFIGS = Path(__file__).parent / "data" / "configs"
DEEPSPEED = '{"train_batch_size": 64,\n "train_micro_batch_size_per_gpu": 4,\n "gradient_accumulation_steps": 2}'
#: DeepSpeed with b = 4 and a = 2 and no batch size: the world size must come from somewhere (gpus=, a profile).
OPEN_WORLD = '{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}'


def console(stdin: str, cwd: Path) -> str:
    """What effbatch-bot's console prints for ``stdin`` (read from a pipe, as a script would feed it)."""
    result = run_script("effbatch-bot", env=clean_env(), cwd=cwd, stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return str(result.stdout)


def test_a_pasted_config_is_one_request(tmp_path: Path) -> None:
    """A code fence over several lines, and prüfe followed by lines, are each one check, not an answer per line."""
    session = f"/effbatch prüfe gpus=8 ```\n{DEEPSPEED}\n```\nprüfe gpus=8\n{DEEPSPEED}\n\nexit\n"
    out = console(session, tmp_path)
    assert out.count("DeepSpeed: effektive Batch-Größe 64 Sequenzen") == 2
    assert "B = b · d · a = 4 × 8 × 2 = 64" in out
    assert "Das habe ich nicht verstanden" not in out  # no line of the paste read as a calculation


def test_pruefe_reads_a_file(tmp_path: Path) -> None:
    """prüfe PATH checks the file as effbatch check would; a missing one is named."""
    out = console(f"prüfe gpus=8 {CONFIGS / 'ds_consistent.json'}\nprüfe fehlt.yaml\n", tmp_path)
    assert "DeepSpeed: effektive Batch-Größe 256 Sequenzen" in out
    assert "ds_consistent.json:2)" in out  # where each value was read: train_batch_size on line 2
    assert "fehlt.yaml: Datei nicht gefunden" in out


def test_an_unreadable_paste_points_to_the_file(tmp_path: Path) -> None:
    """A paste that cannot be read: why, and how to check the file itself instead."""
    out = console("prüfe\nkaputt: [\n  1, 2\n\n", tmp_path)
    assert "lässt sich nicht lesen" in out
    assert "prüfe stattdessen die Datei: hier mit `prüfe DATEI` oder im Terminal mit `effbatch check DATEI`" in out


def test_a_mistyped_command_names_the_one_that_exists(tmp_path: Path) -> None:
    """/effbach 8 64 4 4096: not „ist keine Zahl“, but which command there is."""
    out = console("/effbach 8 64 4 4096\n/effbatchx 8 64 4\n", tmp_path)
    assert "„/effbach“ kenne ich nicht – der Befehl heißt /effbatch, z. B. /effbatch 8 64 4 4096." in out
    assert "„/effbatchx“ kenne ich nicht" in out  # a longer name is no /effbatch either
    assert "keine Zahl" not in out


def lines(text: str) -> tuple[str, list[str]]:
    """``gathered`` on the first line of ``text`` and what is left unread after it."""
    stream = io.StringIO(text)
    reader = stream_reader(stream)
    first = reader("> ")
    assert first is not None
    return gathered(first, reader, lambda: False), stream.read().splitlines()


@pytest.mark.parametrize(
    ("text", "request_", "left"),
    [
        ("8 64 4\n9 9 9\n", "8 64 4", ["9 9 9"]),  # a calculation is one line
        ("prüfe {}\n8 64 4\n", "prüfe {}", ["8 64 4"]),  # a config on the prüfe line: nothing more to read
        ("prüfe\na: 1\nb: 2\n\n8 64 4\n", "prüfe\na: 1\nb: 2", ["8 64 4"]),  # up to the empty line
        ("```\na: 1\n\nb: 2\n```\n8 64 4\n", "```\na: 1\n\nb: 2\n```", ["8 64 4"]),  # a fence keeps blank lines
        ("prüfe ```yaml\na: 1\n", "prüfe ```yaml\na: 1", []),  # an unclosed fence ends with the input
    ],
)
def test_what_belongs_to_one_request(text: str, request_: str, left: list[str]) -> None:
    """Where a paste ends: the closing fence, or after prüfe the first empty line with no paste behind it."""
    assert lines(text) == (request_, left)


def test_an_empty_line_inside_a_paste_continues_it() -> None:
    """In a terminal an empty line with more pasted input right behind it belongs to the paste (YAML blank lines)."""
    reader = stream_reader(io.StringIO("a: 1\n\nb: 2\n\n"))
    waiting = iter([True, False])
    assert gathered("prüfe", reader, lambda: next(waiting)) == "prüfe\na: 1\n\nb: 2"


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("ds_config.json", "ds_config.json"),  # a config's ending: a file, even one that is missing
        ("configs/train", "configs/train"),
        ("~/run.yaml", "~/run.yaml"),
        ('{"train_batch_size": 8}', None),  # config text
        ("train_batch_size: 8", None),
        ("torchrun --nproc-per-node 8 train.py", None),  # a launch line
        ("", None),
    ],
)
def test_pruefe_path_or_text(text: str, path: str | None) -> None:
    """prüfe X: X is a file when it is one word that looks like a path, else pasted text."""
    assert path_in(text) == path


def test_a_paste_at_the_terminal_keeps_its_blank_lines(tmp_path: Path) -> None:
    """At a terminal, prüfe and a YAML with a blank line, pasted at once, then Enter: one check of all three keys."""
    yaml_config = "train_micro_batch_size_per_gpu: 4\n\ngradient_accumulation_steps: 2\ntrain_batch_size: 64\n"
    with console_on_a_terminal(clean_env(), tmp_path) as (_, terminal):
        assert read_until(terminal, lambda shown: shown.endswith(b"> "), seconds=30).endswith(b"> ")
        os.write(terminal, f"prüfe gpus=8\n{yaml_config}".encode())
        # The paste is read once the terminal shows its last line; then the user presses Enter on an empty line.
        read_until(terminal, lambda shown: b"train_batch_size: 64" in shown, seconds=30)
        os.write(terminal, b"\r")
        shown = read_until(terminal, lambda out: b"Gelesen" in out and out.endswith(b"> "), seconds=30).decode()
    assert "DeepSpeed: effektive Batch-Größe 64 Sequenzen" in shown
    assert "B = b · d · a = 4 × 8 × 2 = 64" in shown  # all three keys, the blank line inside the paste kept
    assert "nicht verstanden" not in shown


@pytest.mark.parametrize("started_with", [signal.SIG_DFL, signal.SIG_IGN], ids=["Ctrl+C heard", "Ctrl+C ignored"])
def test_ctrl_c_while_the_bot_starts_leaves_no_traceback(tmp_path: Path, started_with: signal.Handlers) -> None:
    """Ctrl+C while effbatch-bot still imports (before the console shows): it ends, without a traceback – also
    where it was started with Ctrl+C ignored, as a shell without job control starts a background command."""
    with console_on_a_terminal(clean_env(), tmp_path, started_with) as (pid, terminal):
        deadline = time.monotonic() + 10

        def loaded(marker: bytes) -> bool:
            assert time.monotonic() < deadline, marker
            proc = Path(f"/proc/{pid}")
            # After exec (before it, the fork still maps this test process's modules), mid-import: pydantic's
            # compiled core is loaded, the settings, Bolt and the app are still to come.
            return b"effbatch-bot" in (proc / "cmdline").read_bytes() and marker in (proc / "maps").read_bytes()

        while not loaded(b"_pydantic_core"):
            time.sleep(0.001)
        os.write(terminal, b"\x03")
        output = read_until(terminal, lambda shown: False, seconds=10)
        assert wait_for_exit(pid, seconds=10) is not None, output
    assert b"Traceback" not in output
    assert output.endswith(b"\r\n")  # on a fresh line


# --- the console and Slack, one table -------------------------------------------------------------------------

#: Where the console's requests come from; the Slack requests below come from the same workspace, channel and user.
TEAM, CHANNEL, USER = "T0CONSOLE", "C0CONSOLE", "U0CONSOLE"
SECRET = "same-table-secret"


def slack_answer(commands: list[str]) -> dict[str, Any]:
    """``/effbatch …`` for each of ``commands`` as Slack sends them into one channel (a fresh app over a fresh
    database), through the app with its Block Kit layout; the last acknowledgement's payload."""
    parts = BotParts(
        client=WebClient(base_url="http://127.0.0.1:9/api/"), authorize=_authorize, storage=memory_storage()
    )
    app = create_app(Settings(slack_signing_secret=SecretStr(SECRET)), parts)
    payload: dict[str, Any] = {}
    for text in commands:
        fields = {"command": "/effbatch", "text": text, "team_id": TEAM, "channel_id": CHANNEL, "user_id": USER}
        body = urlencode(fields | {"response_url": "https://hooks.slack.com/commands/T0CONSOLE/1/x"})
        response = app.dispatch(BoltRequest(body=body, headers={**signed_headers(SECRET, body)}))
        assert response.status == 200
        payload = json.loads(response.body)
    assert_valid_message(payload)
    return payload


def _authorize(**_: object) -> AuthorizeResult:
    return AuthorizeResult(enterprise_id=None, team_id=TEAM, bot_token="xoxb-test", bot_user_id="U0BOT")


def console_answer(commands: list[str]) -> str:
    """What a fresh console prints for the last of ``commands``, typed one after another."""
    console = Console(Settings())
    return [console.answer(text) for text in commands][-1]


#: What a message says, to compare: its words and numbers. The moment a profile was set („05.12.2026 um 08:46“) is
#: taken by each surface on its own and may fall into another minute.
_WORDS = re.compile(r"[^\W\d_]+|\d+(?:[.,]\d+)*")
_MOMENT = re.compile(r"\d\d\.\d\d\.\d{4} um \d\d:\d\d")


def said(text: str) -> set[str]:
    return set(_WORDS.findall(_MOMENT.sub("", text)))


def slack_read(payload: dict[str, Any]) -> str:
    """What a person reads in a Slack message: its blocks, unescaped (the notification text is a summary of them)."""
    return html.unescape(all_text({"blocks": payload.get("blocks", [])}))


def console_read(text: str) -> tuple[bool, str]:
    """Whether the console marked an answer private, and the answer without the console's own words: that mark,
    the numbers before choices, the hint to check a file instead."""
    private = text.startswith(texts.CONSOLE_EPHEMERAL)
    text = text.removeprefix(texts.CONSOLE_EPHEMERAL).replace(texts.CONSOLE_CHECK_FILE.format(program=PROGRAM), "")
    return private, re.sub(r"^\[\d+\] ", "", text, flags=re.MULTILINE)


SAME_COMMANDS = [
    pytest.param(["8 64 4 4096"], ["2.048 Sequenzen", "8.388.608"], id="calculation"),
    pytest.param(["8 64 4 4096 vs d=128"], ["2.048 → 4.096", "16.777.216"], id="comparison"),
    pytest.param(["b=8"], ["Es fehlen noch d"], id="input error"),
    pytest.param(["hilfe"], ["Hilfe", "B = b · d · a"], id="help"),
    pytest.param(["runs"], ["Veröffentlichte Läufe", "GPT-3"], id="published runs"),
    pytest.param(["cluster gpus=64 tp=8"], ["Channel-Profil gespeichert", "64 GPUs", "TP 8"], id="profile set"),
    pytest.param(["cluster gpus=64 tp=8", "cluster"], ["Channel-Profil", "Gesetzt von", "TP 8"], id="profile shown"),
    pytest.param(["cluster gpus=64", "cluster löschen"], ["Channel-Profil gelöscht"], id="profile deleted"),
    pytest.param(  # B = 8 · (64 / 8) · 4
        ["cluster gpus=64 tp=8", "b=8 a=4 L=4096"],
        ["Aus dem Channel-Profil: 64 GPUs", "256 Sequenzen"],
        id="profile used",
    ),
    pytest.param(  # the profile's 8 GPUs as the world size: B = 4 · 8 · 2
        ["cluster gpus=8", f"prüfe {OPEN_WORLD}"],
        ["Aus dem Channel-Profil: 8 GPUs", "d = GPUs = 8", "64 Sequenzen"],
        id="profile used by prüfe",
    ),
    pytest.param(
        ["cluster gpus=8", "cluster löschen", f"prüfe {OPEN_WORLD}"], ["brauche ich die Zahl der GPUs"], id="no profile"
    ),
    pytest.param([f"prüfe gpus=8 ```\n{DEEPSPEED}\n```"], ["64 Sequenzen", "Codeblock 1:2"], id="prüfe a code block"),
    pytest.param([f"prüfe privat gpus=8 {OPEN_WORLD}"], ["64 Sequenzen"], id="prüfe privately"),
    pytest.param(["prüfe kaputt: ["], ["lässt sich nicht lesen"], id="prüfe unreadable"),
]


@pytest.mark.parametrize(("commands", "phrases"), SAME_COMMANDS)
def test_the_console_answers_as_slack_does(commands: list[str], phrases: list[str]) -> None:
    """The same commands typed into the console or sent by Slack into one channel: the last answer says the same
    words and numbers, to the same people, and the row's phrases on both."""
    payload = slack_answer(commands)
    private, shown = console_read(console_answer(commands))
    read = slack_read(payload)
    assert [phrase for phrase in phrases if phrase not in read or phrase not in shown] == []
    assert said(shown) == said(read)
    assert private == (payload["response_type"] == "ephemeral")


def test_a_profile_set_in_the_console_holds_for_a_file_checked_there() -> None:
    """``cluster gpus=8``, then ``prüfe FILE`` without a world size: the file is checked with the profile's 8 GPUs."""
    shown = console_answer(["cluster gpus=8", f"prüfe {CONFIGS / 'ds_consistent.json'}"])
    assert "Aus dem Channel-Profil: 8 GPUs" in shown
    assert "B = b · d · a = 4 × 8 × 8 = 256" in shown
    assert "ds_consistent.json:2)" in shown  # read from the file, named by it


def test_a_file_too_large_is_refused_as_in_effbatch_check(tmp_path: Path) -> None:
    """A file over the 1 MiB ``effbatch check`` reads is refused with its size, not read."""
    large = tmp_path / "gross.json"
    large.write_text("{" + " " * (1024 * 1024) + "}")
    shown = console_answer([f"prüfe gpus=8 {large}"])
    assert "“ ist mit 1.048.578 Bytes zu groß; ich lese höchstens 1\u00a0MiB." in shown


def test_a_form_opens_only_in_slack() -> None:
    """``/effbatch`` alone and „Anpassen…“ open the form in Slack; the console says how to type the values instead."""
    console = Console(Settings())
    assert console.answer("/effbatch") == texts.CONSOLE_NO_FORM
    answered = console.answer("8 64 4 4096")
    adjust = next(line for line in answered.splitlines() if line.endswith("Anpassen…"))
    assert console.answer(adjust[1 : adjust.index("]")]) == texts.CONSOLE_NO_FORM
