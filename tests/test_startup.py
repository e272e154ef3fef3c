"""What each terminal path imports: only what it needs (the timings themselves are in ``make bench``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
heavy = ("slack_bolt", "slack_sdk", "pydantic", "yaml", "importlib.metadata", "effbatch.bot.rendering.block_kit")
print(json.dumps({"code": code, "loaded": [name for name in heavy if name in sys.modules]}))
"""


def loaded_by(*args: str) -> tuple[int, set[str]]:
    """The exit code of ``effbatch ARGS`` and which heavy packages it imported."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True, timeout=60
    )
    report = json.loads(result.stdout)
    return report["code"], set(report["loaded"])


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        # A check reads YAML among other formats; it builds no pydantic model and knows no Slack.
        (("check", str(CONFIG), "--world-size", "8"), {"yaml"}),
        (("check", "--help"), {"yaml"}),  # its --framework choices come from core.configs
        # The calculator validates with pydantic's models; it reads no configs and knows no Slack.
        (("8", "64", "4", "4096"), {"pydantic", "importlib.metadata"}),
        (("hilfe",), {"pydantic", "importlib.metadata"}),
    ],
    ids=["check", "check --help", "calculator", "hilfe"],
)
def test_terminal_paths_import_only_what_they_need(args: tuple[str, ...], allowed: set[str]) -> None:
    """No Slack SDK, Bolt or Block Kit in any terminal path; no pydantic for a check, no YAML for the calculator."""
    code, loaded = loaded_by(*args)
    assert code == 0
    assert loaded <= allowed, loaded - allowed
