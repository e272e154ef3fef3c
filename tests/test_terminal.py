"""effbatch in a terminal, as its user reads it: the keys it takes, its help, its German."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from terminal_session import run_on_a_terminal

from effbatch.bot.serving.cli import main

from bot_process import BIN, clean_env, run_script
from slack_checks import assert_valid_message

#: The Slack command as a word of prose (not inside a path such as schema/effbatch.schema.json).
SLASH_COMMAND = re.compile(r"(?<![\w./-])/effbatch\b")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def json_of(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run(capsys, "--json", *args)
    assert code == 0, (out, err)
    answer: dict[str, Any] = json.loads(out)
    return answer


# (command, what the JSON answer holds): the frameworks' own key names, read as ours.
FRAMEWORK_KEY_CASES = [
    # Megatron-LM / NeMo: micro_batch_size, global_batch_size, seq_length
    ("micro_batch_size=2 gpus=64 global_batch_size=256 seq_length=2048", {"accumulation": 2, "seq_len": 2048}),
    # Hugging Face Trainer: per_device_train_batch_size, gradient_accumulation_steps
    ("per_device_train_batch_size=8 d=64 gradient_accumulation_steps=4", {"global_batch": 2048}),
    # DeepSpeed: train_micro_batch_size_per_gpu, train_batch_size (the global one)
    ("train_micro_batch_size_per_gpu=4 world_size=8 train_batch_size=256", {"accumulation": 8}),
    # torchtitan / OLMo max_seq_len, LLaMA-Factory cutoff_len
    ("8 64 4 max_seq_len=4096", {"tokens_per_step": 8388608}),
    ("8 64 4 cutoff_len=4k", {"tokens_per_step": 8388608}),
]


@pytest.mark.parametrize(("command", "expected"), FRAMEWORK_KEY_CASES)
def test_framework_key_names(capsys: pytest.CaptureFixture[str], command: str, expected: dict[str, int]) -> None:
    """A value copied from a config keeps its framework's name and means the same."""
    answer = json_of(capsys, *command.split())
    assert {key: answer[key] for key in expected} == expected


@pytest.mark.parametrize(
    "budget",
    [["budget=2", "Billionen"], ["budget=2", "Bio."], ["budget=2Bio."], ["budget=2Bio"], ["budget", "=", "2", "bio"]],
)
def test_budget_in_german_words(capsys: pytest.CaptureFixture[str], budget: list[str]) -> None:
    """„2 Billionen“ and „2 Bio.“ are 2 · 10¹² tokens: 238.419 steps of 8.388.608 tokens."""
    answer = json_of(capsys, "8", "64", "4", "4096", *budget)
    assert answer["optimizer_steps"] == 238419


@pytest.mark.parametrize("words", [["--help"], ["-h"], ["hilfe"], ["help"]])
def test_terminal_help_is_its_own(capsys: pytest.CaptureFixture[str], words: list[str]) -> None:
    """effbatch --help: the calculator, check with its exit codes, --json, --version; no slash, no form."""
    code, out, _ = run(capsys, *words)
    assert code == 0
    for shown in (
        "effbatch 8 64 4 4096 → B = 2.048",
        "effbatch check ds_config.json --world-size 64",
        "Exit-Code 0: stimmig (Warnungen erlaubt), 1: mindestens ein Fehler, 2: nicht lesbar",
        "effbatch --json 8 64 4 4096",
        "effbatch --version",
        "effbatch hilfe budget",
    ):
        assert shown in out
    assert not SLASH_COMMAND.search(out)  # schema/effbatch.schema.json is a path, not the command
    assert "Formular" not in out


# (topic words, a line the topic's help shows in a terminal)
TOPIC_CASES = [
    (["hilfe", "prüfe"], "effbatch check DATEI … liest Konfigurationen und Startskripte"),
    (["hilfe", "check"], "Exit-Code 0: stimmig"),
    (["hilfe", "budget"], "effbatch 8 64 4 4096 budget=2Bio → 238.419 Optimierer-Schritte"),
    (["hilfe", "vs"], "Was rechts fehlt, gilt von links weiter"),
    (["hilfe", "schlüssel"], "micro_batch_size"),  # the frameworks' key names are listed with the keys
    (["HILFE", "Budget"], "Schritte = ⌈Budget / T⌉"),
]


@pytest.mark.parametrize(("words", "shown"), TOPIC_CASES)
def test_help_topics_in_the_terminal(capsys: pytest.CaptureFixture[str], words: list[str], shown: str) -> None:
    """effbatch hilfe THEMA answers the topic, spelled for the terminal."""
    code, out, _ = run(capsys, *words)
    assert code == 0
    assert shown in out
    assert not SLASH_COMMAND.search(out)


def test_unknown_help_topic_lists_the_topics(capsys: pytest.CaptureFixture[str]) -> None:
    """A topic that does not exist: which ones do."""
    _, out, _ = run(capsys, "hilfe", "lernplan")
    assert "Zu „lernplan“ habe ich keine Hilfe. Diese Themen gibt es: effbatch hilfe schlüssel" in out
    assert "effbatch hilfe budget, effbatch hilfe vs" in out


def test_help_topics_in_slack_name_the_slash_command() -> None:
    """/effbatch hilfe budget in Slack (and the console): the same topic, with the slash command and prüfe."""
    from effbatch.bot.document import Visibility
    from effbatch.bot.rendering.answers import answer_command
    from effbatch.bot.rendering.plain_text import plain_text

    budget = plain_text(answer_command("hilfe budget", Visibility.IN_CHANNEL).document)
    assert "/effbatch 8 64 4 4096 budget=2Bio → 238.419 Optimierer-Schritte" in budget
    check = plain_text(answer_command("hilfe prüfe", Visibility.IN_CHANNEL).document)
    assert "/effbatch prüfe [gpus=64]" in check
    short = plain_text(answer_command("hilfe", Visibility.IN_CHANNEL).document)
    assert "Hilfe zu einem Thema: /effbatch hilfe schlüssel, /effbatch hilfe prüfe" in short


def test_check_without_files_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    """effbatch check alone: argparse's „required“ in German, with the usage."""
    with pytest.raises(SystemExit) as leaving:
        main(["check"])
    _, err = capsys.readouterr()
    assert leaving.value.code == 2
    assert "effbatch check: Fehler: es fehlt: DATEI" in err
    assert "required" not in err


def test_check_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """effbatch check --help: German, N for numbers, examples at the end."""
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "--world-size N" in out
    assert "Beispiele: effbatch check ds_config.json --world-size 64" in out


def test_terminal_errors_name_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    """An error in the terminal shows effbatch as typed there, spelled so when the answer is built."""
    code, _, err = run(capsys, "8", "64", "4", "4096", "vs")
    assert code == 2
    assert "effbatch 8 64 4 4096 vs d=512" in err
    assert not SLASH_COMMAND.search(err)


def test_json_help_says_how_in_du_form(capsys: pytest.CaptureFixture[str]) -> None:
    """--json with hilfe: there is no JSON help; the message says what to run instead, in du-form."""
    code, out, _ = run(capsys, "--json", "hilfe")
    assert code == 2
    assert json.loads(out) == {"error": "Mit --json gibt es keine Hilfe als JSON; ruf effbatch hilfe ohne --json auf."}


def test_a_mistyped_command_names_the_one_meant(capsys: pytest.CaptureFixture[str]) -> None:
    """effbatch chek FILE: not „keine Zahl“ twice, but which command there is."""
    code, out, err = run(capsys, "chek", "ds_config.json")
    assert code == 2
    assert err == "„chek“ kenne ich nicht – meintest du effbatch check? Alles Weitere: effbatch --help\n"
    assert out == ""


def test_pruefe_is_check_in_the_terminal_too(capsys: pytest.CaptureFixture[str]) -> None:
    """effbatch prüfe FILE runs the check, as /effbatch prüfe does in Slack."""
    config = str(Path(__file__).parent / "data" / "configs" / "ds_consistent.json")
    code, out, _ = run(capsys, "prüfe", config, "--world-size", "8")
    assert code == 0
    assert "DeepSpeed: effektive Batch-Größe 256 Sequenzen" in out


def test_a_pasted_slash_command_is_understood(capsys: pytest.CaptureFixture[str]) -> None:
    """effbatch /effbatch 8 64 4 (copied from Slack): the calculation, not „„/effbatch“ ist keine Zahl“."""
    code, out, _ = run(capsys, "/effbatch", "8", "64", "4")
    assert code == 0
    assert "Effektive Batch-Größe: 2.048 Sequenzen" in out


@pytest.mark.parametrize("command", ["hilfe prüfe", "hilfe budget", "hilfe vs", "hilfe schlüssel", "hilfe " + "x" * 60])
def test_help_topics_are_valid_slack_messages(command: str) -> None:
    """Each topic, and an unknown one with a long name, is a message Slack accepts."""
    from effbatch.bot.document import Visibility
    from effbatch.bot.rendering.answers import answer_command
    from effbatch.bot.rendering.block_kit import message

    assert_valid_message(message(answer_command(command, Visibility.IN_CHANNEL).document))


def test_bare_effbatch_at_a_terminal_prints_the_help(tmp_path: Path) -> None:
    """``effbatch`` typed alone at a prompt: the help and exit 0, as a newcomer expects (before: "Da fehlt noch
    etwas", exit 2). From a script (stdin no terminal) it stays an input error, exit 2."""
    status, shown = run_on_a_terminal([str(BIN / "effbatch")], clean_env(), tmp_path)
    assert status is not None, shown
    assert os.waitstatus_to_exitcode(status) == 0, shown
    text = shown.decode()
    assert text.startswith("effbatch – Hilfe")
    assert "Da fehlt noch etwas" not in text
    piped = run_script("effbatch", env=clean_env(), cwd=tmp_path)
    assert piped.returncode == 2
    assert "Da fehlt noch etwas" in piped.stderr


CONFIGS = Path(__file__).parent / "data" / "configs"

#: (arguments, the exit code of the answer): with the reader gone, the process still ends with it, quietly.
CLOSED_PIPE_CASES = [
    (["check", str(CONFIGS / "ds_consistent.json"), "--world-size", "8"], 0),
    (["check", str(CONFIGS / "ds_mismatch.json"), "--world-size", "8"], 1),  # 256 != 4 * 1 * 8: a finding
    (["check", "--json", str(CONFIGS / "ds_consistent.json"), "--world-size", "8"], 0),
    (["8", "64", "4", "4096"], 0),
    (["hilfe"], 0),
    (["--json", "8", "64", "4", "4096"], 0),
    (["8,5", "64", "4"], 2),  # the message goes to stderr, which is still open
]


@pytest.mark.parametrize(
    ("args", "code"), CLOSED_PIPE_CASES, ids=[" ".join(Path(a).name for a in args[:3]) for args, _ in CLOSED_PIPE_CASES]
)
def test_a_closed_pipe_ends_quietly_with_the_answers_exit_code(tmp_path: Path, args: list[str], code: int) -> None:
    """``effbatch check ok.yaml | head -1``: the reader left before effbatch wrote (here: before it started, so every
    write meets the closed pipe); no traceback, and the exit code is the answer's (before: always 1)."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        result = subprocess.run(
            [str(BIN / "effbatch"), *args],
            stdout=writing,
            stderr=subprocess.PIPE,
            env=clean_env(),
            cwd=tmp_path,
            timeout=60,
        )
    finally:
        os.close(writing)
    assert result.returncode == code, result.stderr.decode()[-500:]
    assert b"Traceback" not in result.stderr
    assert b"BrokenPipe" not in result.stderr
