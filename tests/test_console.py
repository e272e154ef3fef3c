"""The local console as its user types and pastes into it: one request per paste, files by path, typos named."""

from __future__ import annotations

import io
import os
import signal
import time
from pathlib import Path

import pytest
from terminal_session import console_on_a_terminal, read_until, wait_for_exit

from effbatch.bot.serving.console import gathered, path_in, stream_reader

from bot_process import clean_env, run_script

CONFIGS = Path(__file__).parent / "data" / "configs"
DEEPSPEED = '{"train_batch_size": 64,\n "train_micro_batch_size_per_gpu": 4,\n "gradient_accumulation_steps": 2}'


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
        time.sleep(0.5)  # the paste is read; now the user presses Enter on an empty line
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
