"""The console scripts as a person runs them: ``effbatch`` and ``effbatch-bot`` (console, bad settings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot_process import clean_env, run_script
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
        (["8", "64"], "Es fehlt Akkumulationsschritte (a)"),
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
    assert "Batch je Gerät (b): „acht“ ist keine Zahl" in error
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
    assert "(nur für dich sichtbar)\nDas habe ich nicht verstanden" in out
    assert "effbatch – Hilfe" in out
    assert "B = b · d · a = 1 × 1 × 1" not in out  # nothing after exit


def test_console_reads_dotenv(tmp_path: Path, env: dict[str, str]) -> None:
    """Settings come from .env in the working directory: here, private answers by default."""
    (tmp_path / ".env").write_text("EFFBATCH_RESPONSE_TYPE=ephemeral\n")
    result = run_script("effbatch-bot", "--mode", "console", env=env, cwd=tmp_path, stdin="8 64 4\n")
    assert "(nur für dich sichtbar)\nEffektive Batchgröße: 2.048 Sequenzen" in result.stdout


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
