"""Each framework's German, one module per framework (its name, one row per rule, its own formulas).

Adding a framework adds a module here; every module in this package is collected, so no list needs
editing. A module whose name starts with ``_`` holds findings of no single
framework (launch scripts). ``bot.texts.checks`` merges them with the formulas all frameworks share.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Name:
    """A framework's name as a heading shows it, as the subject of a sentence, and after „nach den Regeln“."""

    title: str
    subject: str
    rules_of: str


def collected() -> tuple[dict[str, Name], dict[str, str], dict[str, str], dict[str, str]]:
    """Names by framework id, findings by rule code, formulas by code and what each framework's files are
    recognised by, from every module of this package."""
    names: dict[str, Name] = {}
    findings: dict[str, str] = {}
    formulas: dict[str, str] = {}
    looks_for: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if not info.name.startswith("_"):  # _script: findings of no single framework
            names[info.name] = module.NAME
            looks_for[info.name] = module.LOOKS_FOR
        findings |= _strings(module.FINDINGS)
        formulas |= _strings(module.FORMULAS)
    return names, findings, formulas, looks_for


def _strings(mapping: Mapping[str, str]) -> dict[str, str]:
    return dict(mapping)
