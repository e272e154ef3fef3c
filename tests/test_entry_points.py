"""The console scripts as a person runs them: ``effbatch`` and ``effbatch-bot`` (console, bad settings)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tomllib
from pathlib import Path

import jsonschema
import pytest
from terminal_session import console_on_a_terminal, read_until, wait_for_exit

from bot_process import BIN, clean_env, free_port, run_script
from fake_slack import BOT_TOKEN, FakeWebAPI


@pytest.fixture
def env() -> dict[str, str]:
    return clean_env()


def test_cli_json_worked_example(env: dict[str, str], tmp_path: Path) -> None:
    """effbatch --json 8 64 4 4096 prints the documented keys with B = 2048 and T = 8388608."""
    result = run_script("effbatch", "--json", "8", "64", "4", "4096", env=env, cwd=tmp_path)
    assert result.returncode == 0
    assert json.loads(result.stdout) == {
        "micro_batch": 8,
        "data_parallel": 64,
        "accumulation": 4,
        "seq_len": 4096,
        "global_batch": 2048,
        "tokens_per_step": 8388608,
    }


def test_cli_json_without_sequence_length(env: dict[str, str], tmp_path: Path) -> None:
    """Without L, seq_len and tokens_per_step are null."""
    result = run_script("effbatch", "--json", "b=8", "d=64", "a=4", env=env, cwd=tmp_path)
    data = json.loads(result.stdout)
    assert (data["seq_len"], data["tokens_per_step"], data["global_batch"]) == (None, None, 2048)


def test_cli_json_planning_schema(env: dict[str, str], tmp_path: Path) -> None:
    """Solved, not exact, budget, activations and comparisons carry the documented extra keys."""

    def cli_json(*args: str) -> dict:
        result = run_script("effbatch", "--json", *args, env=env, cwd=tmp_path)
        assert result.returncode == 0, result.stdout
        return json.loads(result.stdout)

    bloom = cli_json("gpus=384", "tp=4", "pp=12", "b=2", "B=2048", "L=2048", "budget=2T", "act=1GiB")
    assert bloom == {
        "micro_batch": 2,
        "data_parallel": 8,
        "accumulation": 128,
        "seq_len": 2048,
        "global_batch": 2048,
        "tokens_per_step": 4194304,
        "gpus": 384,
        "tp": 4,
        "pp": 12,
        "cp": 1,
        "sp": 1,
        "optimizer_steps": 476838,  # ⌈2·10¹² / 4.194.304⌉
        "activation_memory_bytes": 2 * 1024**3,
        "solved_for": "accumulation",
        "exact": True,
        "target_global_batch": 2048,
    }
    options = cli_json("b=3", "d=8", "B=2000")
    assert (options["exact"], options["global_batch"], len(options["options"])) == (False, None, 2)
    assert set(options["options"][0]) == {
        "micro_batch",
        "data_parallel",
        "accumulation",
        "seq_len",
        "global_batch",
        "tokens_per_step",
    }
    comparison = cli_json("8", "64", "4", "4096", "vs", "d=512", "lr=3e-4")
    assert set(comparison) == {"before", "after", "factor", "lr"}
    assert comparison["factor"] == 8.0
    assert set(comparison["lr"]) == {"linear", "sqrt"}


def test_cli_text_answer(env: dict[str, str], tmp_path: Path) -> None:
    """effbatch 8 64 4 4096 prints the German answer as plain text."""
    result = run_script("effbatch", "8", "64", "4", "4096", env=env, cwd=tmp_path)
    assert result.returncode == 0
    assert "B = b · d · a = 8 × 64 × 4 = 2.048" in result.stdout
    assert "T = B · L = 2.048 × 4.096 = 8.388.608" in result.stdout
    assert "*" not in result.stdout  # no mrkdwn markup in a terminal


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["8", "-8", "4"], "„-8“ ist nicht positiv"),  # a negative value is not taken for an option
        (["8", "64"], "Es fehlt noch a (Akkumulationsschritte)"),
        (["8,5", "64", "4"], "„8,5“ ist keine ganze Zahl"),
    ],
)
def test_cli_bad_input(env: dict[str, str], tmp_path: Path, args: list[str], expected: str) -> None:
    """Bad input: the German message on stderr, nothing on stdout, exit code 2."""
    result = run_script("effbatch", *args, env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert expected in result.stderr
    assert result.stdout == ""


def test_cli_json_bad_input(env: dict[str, str], tmp_path: Path) -> None:
    """With --json an error is one JSON object on stdout, and exit code 2."""
    result = run_script("effbatch", "--json", "acht", "64", "4", env=env, cwd=tmp_path)
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    assert "Micro-Batch je Gerät (b): „acht“ ist keine Zahl" in error
    assert "`" not in error


def test_cli_help(env: dict[str, str], tmp_path: Path) -> None:
    """effbatch hilfe prints the help and exits 0."""
    result = run_script("effbatch", "hilfe", env=env, cwd=tmp_path)
    assert result.returncode == 0
    assert "effbatch – Hilfe" in result.stdout


def test_console_answers_typed_commands(env: dict[str, str], tmp_path: Path) -> None:
    """Without tokens effbatch-bot starts the console, which answers through the Bolt app."""
    session = "/effbatch 8 64 4 4096\n8 64\n/effbatch hilfe\nexit\n/effbatch 1 1 1\n"
    result = run_script("effbatch-bot", env=env, cwd=tmp_path, stdin=session)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "lokale Konsole" in out
    assert "B = b · d · a = 8 × 64 × 4 = 2.048" in out
    assert "(nur für dich sichtbar)\nDa fehlt noch etwas" in out
    assert "effbatch – Hilfe" in out
    assert "B = b · d · a = 1 × 1 × 1" not in out  # nothing after exit


def test_console_checks_a_pasted_launch_line(env: dict[str, str], tmp_path: Path) -> None:
    """/effbatch prüfe in the console: the same check as in Slack, laid out as text; without GPUs, what to add."""
    line = "torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 2 --global-batch-size 64 --seq-length 4096"
    olmo = '{"global_train_batch_size": 1024, "device_train_microbatch_size": 4}'
    session = f"/effbatch prüfe {line}\n/effbatch prüfe {olmo}\nexit\n"
    result = run_script("effbatch-bot", env=env, cwd=tmp_path, stdin=session)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Megatron-LM: effektive Batch-Größe 64 Sequenzen" in out
    assert "a = B / (b · d) = 64 / (2 · 8) = 4" in out
    assert "Tokens je Optimierer-Schritt (T): 262.144" in out
    assert "Für OLMo brauche ich die Zahl der GPUs" in out
    assert "/effbatch prüfe gpus=64" in out


def test_console_reads_dotenv(tmp_path: Path, env: dict[str, str]) -> None:
    """Settings come from .env in the working directory: here, private answers by default."""
    (tmp_path / ".env").write_text("EFFBATCH_RESPONSE_TYPE=ephemeral\n")
    result = run_script("effbatch-bot", "--mode", "console", env=env, cwd=tmp_path, stdin="8 64 4\n")
    assert "(nur für dich sichtbar)\nEffektive Batch-Größe: 2.048 Sequenzen" in result.stdout


@pytest.mark.parametrize(
    ("settings", "args", "variable"),
    [
        ({"EFFBATCH_RESPONSE_TYPE": "everyone"}, [], "EFFBATCH_RESPONSE_TYPE"),
        ({"PORT": "http"}, [], "PORT"),
        ({"SLACK_BOT_TOKEN": "abc"}, [], "SLACK_BOT_TOKEN"),
        ({"SLACK_APP_TOKEN": "xoxb-wrong-kind"}, [], "SLACK_APP_TOKEN"),
        ({"SLACK_BOT_TOKEN": BOT_TOKEN}, ["--mode", "http"], "SLACK_SIGNING_SECRET"),
        ({}, ["--mode", "socket"], "SLACK_BOT_TOKEN"),
        ({"SLACK_BOT_TOKEN": BOT_TOKEN}, ["--mode", "socket"], "SLACK_APP_TOKEN"),
        ({"SLACK_API_URL": "slack.com/api"}, [], "SLACK_API_URL"),
    ],
)
def test_bad_settings(
    tmp_path: Path, env: dict[str, str], settings: dict[str, str], args: list[str], variable: str
) -> None:
    """A missing or malformed setting: one message naming it and .env.example, exit 2, no traceback."""
    result = run_script("effbatch-bot", *args, env={**env, **settings}, cwd=tmp_path)
    assert result.returncode == 2
    assert variable in result.stderr
    assert ".env.example" in result.stderr
    assert "Traceback" not in result.stderr
    assert "xoxb-wrong-kind" not in result.stderr  # secrets are never echoed


def test_rejected_token(tmp_path: Path, env: dict[str, str]) -> None:
    """A token Slack refuses (auth.test: invalid_auth) ends start-up with a clear message and exit 2."""
    with FakeWebAPI() as api:
        settings = {"SLACK_BOT_TOKEN": "xoxb-revoked", "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": api.url}
        result = run_script("effbatch-bot", "--mode", "http", env={**env, **settings}, cwd=tmp_path)
    assert result.returncode == 2
    assert "invalid_auth" in result.stderr
    assert "Traceback" not in result.stderr


def test_all_bad_settings_at_once_in_german(tmp_path: Path, env: dict[str, str]) -> None:
    """Several bad settings: every one named in one message, with German quotes and a colon after each name."""
    bad = {"PORT": "http", "LOG_LEVEL": "laut", "EFFBATCH_ANSWER_CACHE": "9999999"}
    result = run_script("effbatch-bot", env={**env, **bad}, cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "Konfigurationsfehler:"
    assert "• PORT: ungültiger Wert „http“ – erwartet: eine Portnummer von 1 bis 65535" in lines
    assert "• LOG_LEVEL: ungültiger Wert „LAUT“ – erlaubt: DEBUG, INFO, WARNING, ERROR" in lines
    assert any(line.startswith("• EFFBATCH_ANSWER_CACHE: ") for line in lines)
    assert lines[-1] == "Alle Einstellungen mit Erklärung: .env.example"


def test_both_missing_secrets_are_named(tmp_path: Path, env: dict[str, str]) -> None:
    """--mode http with neither token nor secret names both."""
    result = run_script("effbatch-bot", "--mode", "http", env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "• SLACK_BOT_TOKEN: fehlt, wird für --mode http gebraucht" in result.stderr
    assert "• SLACK_SIGNING_SECRET: fehlt, wird für --mode http gebraucht" in result.stderr


@pytest.mark.parametrize("mode", ["http", "socket"])
def test_unreachable_slack_is_one_german_line(tmp_path: Path, env: dict[str, str], mode: str) -> None:
    """Slack not reachable at start-up: one German line (no credentials of the URL), exit 2, no library lines."""
    settings = {
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_SIGNING_SECRET": "s",
        "SLACK_APP_TOKEN": "xapp-test",
        "SLACK_API_URL": f"http://user:geheim@127.0.0.1:{free_port()}/api/",
    }
    result = run_script("effbatch-bot", "--mode", mode, env={**env, **settings}, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "Slack ist unter http://127.0.0.1:"
        + settings["SLACK_API_URL"].rsplit(":", 1)[1]
        + " nicht erreichbar (keine Verbindung). Prüfe das Netz oder SLACK_API_URL."
    ]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--mode", "foo"], "effbatch-bot: Fehler: Argument --mode: ungültige Wahl „foo“"),
        (["--port", "x"], "effbatch-bot: Fehler: Argument --port: „x“ ist keine ganze Zahl"),
        (["--laut"], "effbatch-bot: Fehler: unbekannte Argumente: --laut"),
    ],
)
def test_command_line_errors_in_german(tmp_path: Path, env: dict[str, str], args: list[str], expected: str) -> None:
    """argparse's own messages, in German, exit 2."""
    result = run_script("effbatch-bot", *args, env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("Aufruf: effbatch-bot")
    assert expected in result.stderr


def test_command_line_help_in_german(tmp_path: Path, env: dict[str, str]) -> None:
    """effbatch-bot -h: usage and options in German."""
    result = run_script("effbatch-bot", "-h", env=env, cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith("Aufruf: effbatch-bot")
    assert "Optionen:" in result.stdout
    assert "diese Hilfe zeigen und beenden" in result.stdout


SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())

#: Every shape `effbatch --json` prints: plain, solved, options, consistent target, cluster, budget, comparison, error.
JSON_COMMANDS = [
    ["8", "64", "4", "4096"],
    ["b=8", "d=64", "a=4"],
    ["gpus=384", "tp=4", "pp=12", "b=2", "B=2048", "L=2048", "budget=2T", "act=1GiB"],
    ["b=3", "d=8", "B=2000"],
    ["gpus=256", "tp=8", "b=1", "T=4M", "L=8k"],
    ["B=2048", "b=8", "d=64", "a=4"],
    ["8", "64", "4", "4096", "vs", "d=512", "lr=3e-4"],
    ["acht", "64", "4"],
    ["hilfe"],
]


@pytest.mark.parametrize("args", JSON_COMMANDS, ids=" ".join)
def test_every_json_output_matches_the_published_schema(env: dict[str, str], tmp_path: Path, args: list[str]) -> None:
    """schema/effbatch.schema.json describes exactly what --json prints."""
    result = run_script("effbatch", "--json", *args, env=env, cwd=tmp_path)
    jsonschema.validate(json.loads(result.stdout), SCHEMA, format_checker=jsonschema.FormatChecker())


def test_schema_rejects_an_undocumented_key() -> None:
    """The check can fail: a key the schema does not document is refused."""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {**dict.fromkeys(("micro_batch", "data_parallel", "accumulation"), 1), "seq_len": None, "x": 1}, SCHEMA
        )


def test_json_keeps_the_cluster_and_the_derived_d_when_not_exact(env: dict[str, str], tmp_path: Path) -> None:
    """gpus=256 tp=8 b=1 T=4M L=8k misses T: d = 256 / 8 = 32 and the cluster keys are still there."""
    data = json.loads(run_script("effbatch", "--json", *JSON_COMMANDS[4], env=env, cwd=tmp_path).stdout)
    assert (data["data_parallel"], data["gpus"], data["tp"], data["exact"]) == (32, 256, 8, False)
    assert data["accumulation"] is None  # the factor solved for, not whole


def test_json_keeps_a_consistent_target(env: dict[str, str], tmp_path: Path) -> None:
    """B=2048 b=8 d=64 a=4: the target, exact, and nothing solved for."""
    data = json.loads(run_script("effbatch", "--json", *JSON_COMMANDS[5], env=env, cwd=tmp_path).stdout)
    assert (data["target_global_batch"], data["exact"], data["solved_for"]) == (2048, True, None)


def test_cli_version_and_closed_pipe(env: dict[str, str], tmp_path: Path) -> None:
    """effbatch --version prints the version; a reader that stops early (`effbatch hilfe | true`) gets no traceback."""
    version = run_script("effbatch", "--version", env=env, cwd=tmp_path)
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    assert version.stdout.strip() == "effbatch " + tomllib.loads(pyproject.read_text())["project"]["version"]
    # The reader is gone before effbatch has even started: every write meets a closed pipe.
    piped = subprocess.Popen(
        [BIN / "effbatch", "hilfe", "schlüssel"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert piped.stdout is not None
    piped.stdout.close()
    _, stderr = piped.communicate(timeout=30)
    assert stderr == b""


def test_cli_messages_name_the_cli(env: dict[str, str], tmp_path: Path) -> None:
    """In a terminal the help to ask for is `effbatch hilfe`, not Slack's `/effbatch hilfe`."""
    result = run_script("effbatch", "8", "64", env=env, cwd=tmp_path)
    assert "effbatch hilfe schlüssel" in result.stderr
    assert "/effbatch" not in result.stderr


def test_console_without_arguments_explains_the_form(env: dict[str, str], tmp_path: Path) -> None:
    """/effbatch alone in the console: the form lives in Slack, here is what to type; no error, no connection."""
    result = run_script("effbatch-bot", env=env, cwd=tmp_path, stdin="/effbatch\n")
    assert result.returncode == 0
    assert "Das Formular öffnet sich nur in Slack. Hier tippst du die Werte direkt" in result.stdout
    assert result.stderr == ""


def test_console_numbers_apply_choices_like_clicks(env: dict[str, str], tmp_path: Path) -> None:
    """Each answer lists its buttons as [1] …; typing 1 doubles a through the same listener as a click."""
    result = run_script("effbatch-bot", env=env, cwd=tmp_path, stdin="8 64 4 4096\n1\n9\n7\n")
    out = result.stdout
    assert "[1] Akkumulation ×2\n[2] Akkumulation ÷2" in out
    assert "→ Akkumulation ×2\n\nEffektive Batch-Größe: 4.096 Sequenzen" in out
    assert "Zuletzt geändert von @U0CONSOLE: Akkumulation ×2" in out
    assert "Die letzte Antwort hat keinen Button 9; wählbar: 1 bis 7." in out
    assert out.count("Das Formular öffnet sich nur in Slack") == 1  # [7] Anpassen… opens the form
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("key", "started_with"),
    [(b"\x04", signal.SIG_DFL), (b"\x03", signal.SIG_DFL), (b"\x03", signal.SIG_IGN)],
    ids=["Ctrl+D", "Ctrl+C", "Ctrl+C, started with it ignored"],
)
def test_console_leaves_on_a_fresh_line(
    env: dict[str, str], tmp_path: Path, key: bytes, started_with: signal.Handlers
) -> None:
    """At a terminal, Ctrl+D and Ctrl+C pressed as the prompt appears end the console with the prompt's line closed
    – Ctrl+C also where a shell without job control started it with Ctrl+C ignored (a script, a CI step)."""
    with console_on_a_terminal(env, tmp_path, started_with) as (pid, terminal):
        output = read_until(terminal, lambda shown: shown.endswith(b"> "), seconds=30)
        assert output.endswith(b"> "), output
        os.write(terminal, key)  # at once: the moment readline may not be listening yet
        output += read_until(terminal, lambda shown: False, seconds=10)
        status = wait_for_exit(pid, seconds=10)
        assert status is not None, f"still running 10 s after the key: {output!r}"
    assert os.waitstatus_to_exitcode(status) == 0
    assert output.endswith(b"\r\n")
    assert b"Traceback" not in output
