"""``effbatch check --format github``: each finding as a GitHub Actions workflow command, at the file and line
of the value it is about, so that a pull request shows it beside that line; and everything else the check prints
made inert for the runner.

https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions: ``::error file=…,line=…,
title=…::message`` (``warning``, ``notice``). Escaped as GitHub's toolkit does (actions/toolkit,
``packages/core/src/command.ts``: ``escapeData`` turns ``%``, CR and LF into ``%25``, ``%0D``, ``%0A``;
``escapeProperty`` also ``:`` and ``,`` into ``%3A``, ``%2C``).

Where: the line a finding names itself (a script's branch), else the value the finding's fix changes
(``gradient_accumulation_steps``), else the first value read whose key the message names, else the first value
read with a line, else the first file checked – always one of the files checked (never a setting such as
``--world-size 24``) and always a line from 1 on: the runner uploads a missing ``line`` as 0 (actions/runner,
``src/Sdk/RSWebApi/Contracts/IssueExtensions.cs``: ``GetAnnotationNumber(issue, RunIssueKeys.Line) ?? 0``), and
GitHub's check-run annotations count lines from 1.

The runner reads workflow commands from every line of a step's output, standard output and standard error alike
(``src/Runner.Worker/ActionCommandManager.cs``): a line that starts with ``::`` after blanks, and the older form
``##[name]`` anywhere in a line (``ActionCommand.TryParse``). A config's value, a YAML key or a file name can hold
a line break and then ``::stop-commands::…`` (which silences every later annotation) or ``::add-mask::…``.
``effbatch check`` passes all it prints, in every format (CI may run the text or JSON in a workflow too), through
``log_text`` or ``log_json``, so none of it is ever read as a command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from effbatch.bot.rendering.checks import check_json
from effbatch.core.configs import Check, Finding

#: effbatch's levels → GitHub's annotation levels.
LEVELS = {"error": "error", "warning": "warning"}
#: The line of an annotation about a file as a whole.
FIRST_LINE = 1
#: What makes the runner read a line as a workflow command: ``::`` at its start (after blanks), ``##[`` anywhere.
COMMAND_MARK, LEGACY_MARK = "::", "##["


def workflow_commands(check: Check, files: Sequence[str]) -> list[str]:
    """One workflow command per finding of ``check``, at a line of one of ``files`` (the files checked, as named on
    the command line); none without a file (standard input alone)."""
    if not files:
        return []
    data = check_json(check)
    places = [(read["key"], *_place(read["where"])) for read in data.get("read", [])]
    in_files = [(key, file, line) for key, file, line in places if file in files]
    return [
        _command(finding, in_files, files[0], _own_place(own, files))
        for own, finding in zip(check.ordered(), data["findings"], strict=True)
    ]


def _own_place(finding: Finding, files: Sequence[str]) -> tuple[str, int] | None:
    """A finding that names its own line of a file checked (a script's branch): annotated there, not at a value
    read."""
    values = finding.fields()
    file, line = values.get("file"), values.get("line")
    return (file, line) if isinstance(file, str) and file in files and isinstance(line, int) and line > 0 else None


def file_annotation(name: str, message: str) -> str:
    """A file that could not be checked, as an error on the file itself (its first line)."""
    return f"::error {_properties(file=name, line=str(FIRST_LINE), title='effbatch check')}::{_data(message)}"


def log_text(text: str) -> str:
    """``text`` as lines a runner only shows: a CR escaped (the runner splits lines at it as at LF), and every line
    it would read as a workflow command escaped as a property value is (its ``::`` becomes ``%3A%3A``) and with
    ``]`` as ``%5D``, as the older ``##[…]`` form escaped it (no ``##[name]`` closes). Other lines stay as they are."""
    lines = text.replace("\r", "%0D").split("\n")
    return "\n".join(_inert(line) if _read_as_command(line) else line for line in lines)


def log_json(text: str) -> str:
    """JSON text a runner only shows, meaning the same: JSON escapes every line break already and no line of it
    starts with ``::``; ``##[`` becomes ``##\\u005b``, the same string to any JSON reader."""
    return text.replace(LEGACY_MARK, "##\\u005b")


def _read_as_command(line: str) -> bool:
    return line.lstrip().startswith(COMMAND_MARK) or LEGACY_MARK in line


def _inert(line: str) -> str:
    return _escaped(line, property_value=True).replace("]", "%5D")


def _command(
    finding: dict[str, Any], places: list[tuple[str, str, int]], first_file: str, own: tuple[str, int] | None
) -> str:
    level = LEVELS.get(finding["level"], "notice")
    file, line = own or _where(finding, places, first_file)
    title = "effbatch " + finding["code"]
    return f"::{level} {_properties(file=file, line=str(line), title=title)}::{_data(finding['message'])}"


def _where(finding: dict[str, Any], places: list[tuple[str, str, int]], first_file: str) -> tuple[str, int]:
    setting = (finding.get("fix") or {}).get("setting")
    by_key = [(file, line) for key, file, line in places if setting and _same_key(key, setting)]
    named = [(file, line) for key, file, line in places if _bare(key) and _bare(key) in finding["message"]]
    located = [(file, line) for _, file, line in places if line]
    file, line = next(iter(by_key or named or located), (first_file, FIRST_LINE))
    return file, max(line, FIRST_LINE)


def _same_key(key: str, setting: str) -> bool:
    return _bare(key).replace("-", "_") == _bare(setting).replace("-", "_")


def _bare(key: str) -> str:
    """``--gradient-accumulation-steps`` → ``gradient-accumulation-steps``; ``trainer.micro_batch`` stays."""
    return key.lstrip("-").strip()


def _place(where: str) -> tuple[str, int]:
    """``configs/ds.json:4`` → (``configs/ds.json``, 4); no line: 0 (``--world-size 24`` is no file either: the
    caller keeps only the files checked)."""
    file, _, line = where.rpartition(":")
    return (file, int(line)) if file and line.isascii() and line.isdigit() else (where, 0)


def _properties(**values: str) -> str:
    return ",".join(f"{name}={_escaped(value, property_value=True)}" for name, value in values.items())


def _data(message: str) -> str:
    return _escaped(message.replace("`", ""), property_value=False)


def _escaped(text: str, *, property_value: bool) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text
