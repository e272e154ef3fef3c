"""What each terminal path imports: only what it needs (the timings themselves are in ``make bench``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CONFIG = Path(__file__).parent / "data" / "configs" / "ds_consistent.json"

#: Runs ``effbatch`` in a fresh interpreter and prints which of the heavy packages it loaded.
PROBE = """
import contextlib, io, json, sys
from effbatch.bot.serving.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as leaving:  # argparse's --help
        code = leaving.code
heavy = (
    "slack_bolt", "slack_sdk", "pydantic", "yaml", "tomllib", "importlib.metadata", "effbatch.bot.rendering.block_kit",
    "subprocess", "logging", "socket", "sqlalchemy", "difflib", "babel",
)
configs = [name for name in sys.modules if name.startswith("effbatch.core.configs")]
model = [name for name in sys.modules if name.startswith(("effbatch.core.memory.", "effbatch.core.planner"))]
print(json.dumps({"code": code, "loaded": [name for name in heavy if name in sys.modules], "configs": configs,
                  "model": model}))
"""


def probe(*args: str) -> dict[str, Any]:
    """The exit code of ``effbatch ARGS``, which heavy packages and which modules of ``core.configs`` it imported."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True, timeout=60
    )
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def loaded_by(*args: str) -> tuple[int, set[str]]:
    """The exit code of ``effbatch ARGS`` and which heavy packages it imported."""
    report = probe(*args)
    return report["code"], set(report["loaded"])


FRAMEWORKS = "effbatch.core.configs.frameworks."
READERS = ("effbatch.core.configs.shell", "effbatch.core.configs.read.python")
LAUNCH = Path(__file__).parent / "data" / "configs" / "hf_launch.sh"
YAML_CONFIG = Path(__file__).parent / "data" / "configs" / "nemo.yaml"


def frameworks_and_readers(*args: str) -> tuple[set[str], set[str]]:
    """The framework modules (not their shared knowledge) and the Python and shell readers ``effbatch ARGS``
    imported."""
    report = probe(*args)
    assert report["code"] in (0, 1)  # 1: findings
    configs = set(report["configs"])
    frameworks = {name.removeprefix(FRAMEWORKS).split(".")[0] for name in configs if name.startswith(FRAMEWORKS)} - {
        "_shared"
    }
    return frameworks, {reader for reader in READERS if reader in configs}


def test_the_calculator_imports_no_config_reading() -> None:
    """``effbatch 8 64 4 4096`` loads nothing of ``core.configs``: no framework, no reader."""
    assert probe("8", "64", "4", "4096")["configs"] == []


#: What the parser needs of ``core.memory`` to read a memory key: the set-up's enums, the GPU and model tables.
MEMORY_NAMES = {"effbatch.core.memory.setup", "effbatch.core.memory.gpus", "effbatch.core.memory.models"}


def test_the_calculator_loads_no_memory_or_time_model() -> None:
    """``effbatch 8 64 4 4096`` asks no memory: neither the estimator, the step model nor the planner loads."""
    assert set(probe("8", "64", "4", "4096")["model"]) <= MEMORY_NAMES


def test_a_memory_question_loads_the_model_it_asks() -> None:
    """The loading is by question, not lost: a model and a GPU load the estimator and the step model."""
    model = set(probe("llama3.1-8b", "b=2", "gpus=64", "a=8", "L=8k", "gpu=h100")["model"])
    assert {"effbatch.core.memory.estimate", "effbatch.core.memory.step"} <= model


def test_a_deepspeed_json_imports_deepspeed_alone() -> None:
    """A check of a DeepSpeed JSON imports one framework module, and neither the shell nor the Python reader."""
    assert frameworks_and_readers("check", str(CONFIG), "--world-size", "8") == ({"deepspeed"}, set())


def test_a_launch_script_imports_the_shell_reader_and_the_frameworks_that_read_scripts() -> None:
    """A launch script needs the shell reader and every framework that reads one: the marks hold back only what a
    YAML, JSON or TOML file cannot be."""
    frameworks, readers = frameworks_and_readers("check", str(LAUNCH), "--world-size", "8")
    assert "effbatch.core.configs.shell" in readers
    assert {"megatron", "openrlhf", "huggingface"} <= frameworks
    assert not frameworks & {"nanotron", "olmo", "axolotl", "torchtune"}  # YAML-only: no mark in a script


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        # A check of a JSON file reads neither YAML nor TOML (their readers load with their format); it builds no
        # pydantic model and knows no Slack. It runs in this process: no check process to start (subprocess,
        # socket) and nothing to log.
        # and no command-word guessing (difflib), and no Babel: every number a check shows here is whole
        (("check", str(CONFIG), "--world-size", "8"), set()),
        (("check", "--help"), set()),  # its --framework choices come from core.configs, no reader needed
        # YAML's reader, TOML's not; Babel for its T over a million (a compact reading)
        (("check", str(YAML_CONFIG), "--world-size", "8"), {"yaml", "babel"}),
        # The calculator validates with pydantic's models (whose plugin loader imports importlib.metadata, and with
        # it the socket module); it reads no configs, knows no Slack, starts no process and logs nothing.
        # T = 8.388.608 is read as „8,4 Mio.“ by Babel's compact format
        (("8", "64", "4", "4096"), {"pydantic", "importlib.metadata", "socket", "difflib", "babel"}),
        (("hilfe",), {"pydantic", "importlib.metadata", "socket", "difflib", "babel"}),
    ],
    ids=["check", "check --help", "check yaml", "calculator", "hilfe"],
)
def test_terminal_paths_import_only_what_they_need(args: tuple[str, ...], allowed: set[str]) -> None:
    """No Slack SDK, Bolt, Block Kit, database or logging in any terminal path; no pydantic for a check, no YAML for
    the calculator."""
    code, loaded = loaded_by(*args)
    assert code == 0
    assert loaded <= allowed, loaded - allowed


#: Opens the SQLite database in the folder it is given, as the bot starts (migrating), and prints what it imported.
OPEN_DATABASE = """
import json, sys
from pathlib import Path
from effbatch.bot.storage.database import default_url
from effbatch.bot.storage.setup import open_storage
open_storage(default_url(Path(sys.argv[1])), migrate_now=True).engine.dispose()
print(json.dumps([name for name in ("alembic", "mako", "sqlalchemy.dialects.postgresql") if name in sys.modules]))
"""


def test_a_current_database_opens_without_alembic(tmp_path: Path) -> None:
    """The first start migrates with Alembic; every later start finds the schema current and imports neither Alembic
    nor PostgreSQL's dialect for a SQLite file."""

    def opened() -> list[str]:
        result = subprocess.run(
            [sys.executable, "-c", OPEN_DATABASE, str(tmp_path)], capture_output=True, text=True, check=True, timeout=60
        )
        loaded: list[str] = json.loads(result.stdout)
        return loaded

    assert "alembic" in opened()
    assert opened() == []
