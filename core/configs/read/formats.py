"""Which format a text is in: by its name's suffix, else by the shape of its lines (linear, line by line)."""

from __future__ import annotations

import re

from effbatch.core.configs.base import Format

#: A command that starts a program, at a line's start or after ``&&``/``;``: Hydra overrides have no ``--`` flags
#: (``python3 -m verl.trainer.main_ppo data.train_batch_size=1024 …``). Prefix values stop at separators: linear.
_LAUNCH = re.compile(
    r"(?:^|&&|;)[ \t]*(?:[A-Za-z_]\w*=[^\s;&]*[ \t]+)*"
    r"(?:python\d*(?:\.\d+)?[ \t]+-m[ \t]|torchrun[ \t]|accelerate[ \t]+launch[ \t])",
    re.MULTILINE,
)


def format_by_name(name: str) -> Format | None:
    base = name.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if base.startswith("requirements") and base.endswith((".txt", ".in")):
        return Format.PINS
    return _by_suffix(name)


def _by_suffix(name: str) -> Format | None:
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return {
        "json": Format.JSON,
        "yaml": Format.YAML,
        "yml": Format.YAML,
        "toml": Format.TOML,
        "py": Format.PYTHON,
        "sh": Format.SHELL,
        "bash": Format.SHELL,
    }.get(suffix)


_ASSIGNMENT = re.compile(r"\w+\s*=")
_PYTHON_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*\s*=(?:[^=]|$)")
_YAML_KEY_SPACE = re.compile(r"\w+:(?:\s|$)")
_YAML_KEY = re.compile(r"[\w.-]+\s*:")
_LONG_OPTION = re.compile(r"(?:^|\s)--[a-z]")

#: A line only Python starts with (OLMo-core's launch scripts, Megatron-Bridge and NeMo 2 recipes, pasted): their
#: argparse flags would read as a launch line, their annotations (``num_nodes: int = 1``) as YAML.
_PYTHON_LINE = re.compile(r"^(?:def [A-Za-z_]\w*\(|import [A-Za-z_]|from [A-Za-z_][\w.]* import )", re.MULTILINE)


def _python_by_content(text: str) -> bool:
    return _PYTHON_LINE.search(text) is not None


def format_by_content(text: str) -> Format | None:
    """The format the text looks like, from each line's start once (linear: no multi-line pattern rescans)."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return Format.JSON
    if stripped.startswith("#!"):  # a shebang names the interpreter: a heredoc of Python in bash stays bash
        return Format.PYTHON if "python" in stripped.split("\n", 1)[0] else Format.SHELL
    if _python_by_content(text):
        return Format.PYTHON
    if hostfile_lines(text) is not None:
        return Format.HOSTFILE
    seen: set[str] = set()
    for raw in text.split("\n"):
        line = raw.lstrip()
        if not line:
            continue
        for name, pattern in _LINE_SHAPES:
            if name not in seen and pattern.match(line):
                seen.add(name)
    if {"table", "assignment"} <= seen:
        return Format.TOML
    if stripped.startswith("#!") or _LONG_OPTION.search(text) or _LAUNCH.search(text):
        return Format.SHELL
    if "python" in seen and "key_space" not in seen:
        return Format.PYTHON
    if "key" in seen:
        return Format.YAML
    return None


#: deepspeed/launcher/runner.py ``_parse_hostfile``: ``^(\S+)\s+slots=(\d+)`` on each stripped line; ``#`` lines
#: and empty lines are skipped.
_HOST_LINE = re.compile(r"(\S+)\s+slots=(\d+)")


def hostfile_lines(text: str) -> dict[str, int] | None:
    """The hosts and slots of a DeepSpeed hostfile, in its order; None where a line is none of a hostfile's (the
    launcher refuses such a file, and a host named twice: ``Hostfile contains multiple entries``)."""
    hosts: dict[str, int] = {}
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _HOST_LINE.match(line)
        if match is None or match[1] in hosts:
            return None
        hosts[match[1]] = int(match[2])
    return hosts or None


_LINE_SHAPES = (
    ("table", re.compile(r"\[[\w.]+\]\s*$")),
    ("assignment", _ASSIGNMENT),
    ("python", _PYTHON_ASSIGNMENT),
    ("key_space", _YAML_KEY_SPACE),
    ("key", _YAML_KEY),
)
