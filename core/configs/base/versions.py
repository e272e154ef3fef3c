"""Versions as part of a rule: a rule that holds only from or until a framework's release says so, and the pins a
run's repository makes (``requirements*.txt``, ``pyproject.toml``, ``environment.yml``, ``setup.py``, or
``--framework-version trl==0.18.0``) select whether it holds.

Without a pin a version-dependent finding is never an error: it is a warning that names both sides. A rule holds
for a pin when every version the pin allows lies in the rule's range; it does not when none does; else the pin
does not decide it either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

#: ``pkg==1.2``, ``pkg>=1.2,<2``, ``pkg ~= 1.2``: a requirement's name and its specifiers.
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*((?:[<>=!~]=?\s*[\w.*+-]+\s*,?\s*)*)")
_SPECIFIER = re.compile(r"(==|>=|<=|~=|!=|>|<)\s*([\w.*+-]+)")


@dataclass(frozen=True)
class Since:
    """The releases of ``package`` a rule holds for: from ``since`` (inclusive), until ``until`` (exclusive), and
    what changed it (``PR #4847``)."""

    package: str
    since: str | None = None
    until: str | None = None
    change: str = ""


#: The pins the run being checked makes, by package name (lower case): set by ``checking`` around one check.
PINS: ContextVar[Mapping[str, str]] = ContextVar("PINS", default=MappingProxyType({}))


def release(text: str) -> tuple[int, ...]:
    """``0.28.0`` → (0, 28, 0); a suffix (``rc1``, ``.dev0``, ``+cu121``) and a ``*`` end it."""
    numbers: list[int] = []
    for part in text.split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        numbers.append(int(digits.group()))
        if digits.end() < len(part):
            break
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def holds(rule: Since, pins: Mapping[str, str]) -> bool | None:
    """Whether the rule holds for every version the pin of its package allows (True), for none (False), or the
    pin does not decide it (None: no pin, or a range that reaches both sides)."""
    specifier = pins.get(rule.package.lower())
    if not specifier:
        return None
    low, high = _allowed(specifier)
    start = release(rule.since) if rule.since else (0,)
    end = release(rule.until) if rule.until else None
    inside = low >= start and (end is None or (high is not None and high <= end))
    outside = (high is not None and high <= start) or (end is not None and low >= end)
    return True if inside else False if outside else None


def _allowed(specifier: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """The versions a specifier allows as [low, high): ``==0.18.0`` is [0.18, 0.18.0.1)."""
    low: tuple[int, ...] = (0,)
    high: tuple[int, ...] | None = None
    for op, version in _SPECIFIER.findall(specifier):
        value = release(version)
        if op == "==" and not version.endswith("*"):
            return value, (*value, 0, 0, 1)
        if op in ("==", "~="):  # ==1.2.* and ~=1.2.3: the same release line
            line = version.rstrip(".*").split(".")
            prefix = release(".".join(line[:-1])) if op == "~=" and len(line) > 1 else release(".".join(line))
            low, high = max(low, value), _next(prefix)
        elif op in (">=", ">"):
            low = max(low, value if op == ">=" else (*value, 0, 0, 1))
        elif op in ("<", "<="):
            bound = value if op == "<" else (*value, 0, 0, 1)
            high = bound if high is None else min(high, bound)
    return low, high


def _next(prefix: tuple[int, ...]) -> tuple[int, ...]:
    return (*prefix[:-1], prefix[-1] + 1) if prefix else (10**6,)


def requirements(lines: Iterable[str]) -> dict[str, str]:
    """Pins from requirement lines (``trl==0.18.0``, ``transformers>=4.46,<5``): name (lower case) → specifiers."""
    found: dict[str, str] = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith(("-", "git+", "http")):
            continue
        match = _REQUIREMENT.match(line)
        if match is not None and match.group(2).strip():
            found[match.group(1).lower().replace("_", "-")] = match.group(2).replace(" ", "").rstrip(",")
    return found


def pins_in(data: Mapping[str, Any]) -> dict[str, str]:
    """Pins in a parsed ``pyproject.toml`` (``project.dependencies``, Poetry's ``dependencies``) or
    ``environment.yml`` (``dependencies`` and their ``pip:`` list)."""
    lines: list[str] = []
    project = data.get("project")
    if isinstance(project, Mapping) and isinstance(project.get("dependencies"), list):
        lines += [str(item) for item in project["dependencies"]]
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), Mapping) else {}
    if isinstance(poetry, Mapping) and isinstance(poetry.get("dependencies"), Mapping):
        lines += [f"{name}=={value.lstrip('=')}" for name, value in poetry["dependencies"].items() if _exact(value)]
    dependencies = data.get("dependencies")
    for item in dependencies if isinstance(dependencies, list) else []:
        if isinstance(item, str):
            lines.append(re.sub(r"^([\w.-]+)=(?!=)", r"\1==", item))  # conda's ``pkg=1.2``
        elif isinstance(item, Mapping) and isinstance(item.get("pip"), list):
            lines += [str(line) for line in item["pip"]]
    return requirements(lines)


def _exact(value: object) -> bool:
    return isinstance(value, str) and bool(re.fullmatch(r"=?=?\s*\d[\w.]*", value.strip()))
