"""Versions as part of a rule: a rule that holds only from or until a framework's release says so, and the pins a
run's repository makes (``requirements*.txt``, ``pyproject.toml``, ``environment.yml``, ``setup.py``, or
``--framework-version trl==0.18.0``) select whether it holds.

Pins and ranges mean what PEP 440 says, read by ``packaging`` as pip reads them (``==1.0.*``, ``~=1.0.0``, ``!=``,
pre-releases, ``===``, local versions); the releases a rule holds for are a ``SpecifierSet``. Without a pin a
version-dependent finding is never an error: it is a warning that names both sides. A rule holds for a pin when
every version the pin allows lies in the rule's range; it does not when none does; else the pin does not decide it
either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

#: The pins a run makes: a package's normalised name (``trl``, ``flash-attn``) → its specifiers (``==0.18.0``).
Pins = Mapping[str, str]

#: What a requirement line ends with that is no part of it: pip's options (``--hash=…``), a line continuation.
_OPTIONS = re.compile(r"\s(?=-)|\\")


@dataclass(frozen=True)
class Since:
    """The releases of ``package`` a rule holds for: from ``since`` (inclusive), until ``until`` (exclusive), and
    what changed it (``PR #4847``)."""

    package: str
    since: str | None = None
    until: str | None = None
    change: str = ""

    def releases(self, prereleases: bool = False) -> SpecifierSet:
        """The releases the rule holds for, as PEP 440 orders them: ``>=0.28.0``, ``<0.15.0``, ``>=0.2.0,<0.5.0``."""
        bounds = ([f">={self.since}"] if self.since else []) + ([f"<{self.until}"] if self.until else [])
        return SpecifierSet(",".join(bounds), prereleases=prereleases)

    def elsewhere(self, prereleases: bool = False) -> list[SpecifierSet]:
        """The releases the rule surely does not hold for: before ``since``, from ``until`` on. The pre-releases of
        either bound lie in neither: whether the change is already in ``0.28.0rc1`` its number does not say."""
        before = [SpecifierSet(f"<{self.since}", prereleases=prereleases)] if self.since else []
        return before + ([SpecifierSet(f">={self.until}", prereleases=prereleases)] if self.until else [])


def holds(rule: Since, pins: Pins) -> bool | None:
    """Whether the rule holds for every release the pin of its package allows (True), for none (False), or the
    pin does not decide it (None: no pin, one that allows nothing, or one that reaches both sides).

    A pin allows what pip would install for it: pre-releases only where it names one (``==0.28.0rc1``)."""
    text = pins.get(canonicalize_name(rule.package))
    if not text:
        return None
    try:
        prereleases = bool(SpecifierSet(text).prereleases)
        allowed = SpecifierSet(text, prereleases=prereleases).to_range()
    except InvalidSpecifier:
        return None
    if allowed.is_empty:
        return None
    if allowed.is_subset(rule.releases(prereleases).to_range()):
        return True
    if allowed.is_subset(reduce(or_, (releases.to_range() for releases in rule.elsewhere(prereleases)))):
        return False
    return None


def requirements(lines: Iterable[str]) -> dict[str, str]:
    """Pins from requirement lines (``trl==0.18.0``, ``transformers>=4.46,<5``, ``trl[vllm]~=0.19.0 ; python_version
    >= "3.10"``), read as pip reads them: normalised name → specifiers. A line pip would not take as a requirement
    (``-r base.txt``, a URL) or one without specifiers (``torch``) pins nothing."""
    found: dict[str, str] = {}
    for line in lines:
        text = _OPTIONS.split(line.split("#", 1)[0], maxsplit=1)[0].strip()
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            continue
        if requirement.specifier:
            found[canonicalize_name(requirement.name)] = str(requirement.specifier)
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
