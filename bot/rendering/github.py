"""``effbatch check --format github``: each finding as a GitHub Actions workflow command, at the file and line
of the value it is about, so that a pull request shows it beside that line.

https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions: ``::error file=…,line=…,
title=…::message`` (``warning``, ``notice``); property values escape ``%``, CR, LF, ``:`` and ``,``, the message
``%``, CR and LF. The line: the value the finding's fix changes (``gradient_accumulation_steps``), else the first
value read whose key the message names, else the first value read from that file.
"""

from __future__ import annotations

from typing import Any

from effbatch.bot.rendering.checks import check_json
from effbatch.core.configs import Check, Finding

#: effbatch's levels → GitHub's annotation levels.
LEVELS = {"error": "error", "warning": "warning"}


def workflow_commands(check: Check) -> list[str]:
    """One workflow command per finding of ``check``."""
    data = check_json(check)
    places = [(read["key"], *_place(read["where"])) for read in data.get("read", [])]
    return [
        _command(finding, places, _own_place(own))
        for own, finding in zip(check.ordered(), data["findings"], strict=True)
    ]


def _own_place(finding: Finding) -> tuple[str, int] | None:
    """A finding that names its own file and line (a script's branch): annotated there, not at a value read."""
    values = finding.fields()
    file, line = values.get("file"), values.get("line")
    return (file, line) if isinstance(file, str) and isinstance(line, int) and line > 0 else None


def file_annotation(name: str, message: str) -> str:
    """A file that could not be checked, as an error on the file itself."""
    return f"::error {_properties(file=name, title='effbatch check')}::{_data(message)}"


def _command(finding: dict[str, Any], places: list[tuple[str, str, int]], own: tuple[str, int] | None) -> str:
    level = LEVELS.get(finding["level"], "notice")
    where = own or _where(finding, places)
    properties = {"file": where[0], "line": str(where[1])} if where else {}
    title = "effbatch " + finding["code"]
    return f"::{level} {_properties(**properties, title=title)}::{_data(finding['message'])}"


def _where(finding: dict[str, Any], places: list[tuple[str, str, int]]) -> tuple[str, int] | None:
    setting = (finding.get("fix") or {}).get("setting")
    by_key = [(file, line) for key, file, line in places if setting and _same_key(key, setting)]
    named = [(file, line) for key, file, line in places if _bare(key) and _bare(key) in finding["message"]]
    located = [(file, line) for _, file, line in places if line]
    return next(iter(by_key or named or located), None)


def _same_key(key: str, setting: str) -> bool:
    return _bare(key).replace("-", "_") == _bare(setting).replace("-", "_")


def _bare(key: str) -> str:
    """``--gradient-accumulation-steps`` → ``gradient-accumulation-steps``; ``trainer.micro_batch`` stays."""
    return key.lstrip("-").strip()


def _place(where: str) -> tuple[str, int]:
    """``configs/ds.json:4`` → (``configs/ds.json``, 4); no line: 0."""
    file, _, line = where.rpartition(":")
    return (file, int(line)) if file and line.isdigit() else (where, 0)


def _properties(**values: str) -> str:
    return ",".join(f"{name}={_escaped(value, property_value=True)}" for name, value in values.items())


def _data(message: str) -> str:
    return _escaped(message.replace("`", ""), property_value=False)


def _escaped(text: str, *, property_value: bool) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text
