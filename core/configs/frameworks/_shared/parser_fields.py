"""Which arguments a strict parser takes at the release a run pins: ``HfArgumentParser`` (transformers
``hf_argparser.py``), and TRL's and LLaMA-Factory's parsers built on it, refuse an argument or key that no field of
their dataclasses takes.

- flags: ``parse_args_into_dataclasses()`` raises ``ValueError: Some specified arguments are not used by the
  HfArgumentParser: [...]`` with the words argparse left over (unless ``return_remaining_strings=True``);
- a dict, YAML or JSON (``parse_dict``, ``parse_yaml_file``, ``parse_json_file``): ``Some keys are not used by the
  HfArgumentParser: [...]``, the keys sorted (unless ``allow_extra_keys=True``).

The fields per release are tables generated from the packages' own source (``fields_transformers.json``,
``fields_trl.json``, ``fields_llamafactory.json`` beside this module, read where a key is first judged;
tests/tools/argument_fields.py says how). A key is judged against the releases the pins
allow (PEP 440 through ``packaging``): ``fine`` where no allowed release lacks the field, ``absent`` where no allowed
release has it (the parser refuses it), ``mixed`` where some have it and some do not (the run's release decides).
A release before the first sample, or between two samples around a change, is not known and never refused.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from effbatch.core.configs.base.source import Parsed
from effbatch.core.configs.base.versions import Pins

if TYPE_CHECKING:
    from packaging.ranges import VersionRange

#: Per package: (its sampled releases, class → (the transformers class it extends, range → fields, by spaces)).
Table = tuple[tuple[str, ...], Mapping[str, tuple[str, Mapping[str, frozenset[str]]]]]
_HERE = "effbatch.core.configs.frameworks._shared"


@cache
def table(package: str) -> Table:
    """One package's fields per release (``transformers``, ``trl``, ``llamafactory``), read once from
    ``fields_<package>.json`` beside this module, the data file tests/tools/argument_fields.py writes."""
    data = json.loads(resources.files(_HERE).joinpath(f"fields_{package}.json").read_text(encoding="utf-8"))
    classes = {
        name: (entry["extends"], {span: frozenset(fields) for span, fields in entry["fields"].items()})
        for name, entry in data["classes"].items()
    }
    return tuple(data["sampled"]), classes


#: transformers' own messages (``hf_argparser.py``, 4.30.0 to 5.25.0 alike).
FLAGS_UNUSED = "Some specified arguments are not used by the HfArgumentParser: {remaining}"
KEYS_UNUSED = "Some keys are not used by the HfArgumentParser: {keys}"
#: Python's own, for a dataclass built with a keyword it has no field for.
KEYWORD_UNEXPECTED = "{cls}.__init__() got an unexpected keyword argument '{key}'"


class Presence(StrEnum):
    """What the releases the pins allow make of one key."""

    FINE = "fine"
    ABSENT = "absent"
    MIXED = "mixed"


@dataclass(frozen=True)
class Verdict:
    """One key's fate: refused by every allowed release (``ABSENT``) or by some (``MIXED``); ``known``: the
    releases that take it (``transformers <4.46.0``), empty where none does; ``pinned``: the pins that count."""

    key: str
    presence: Presence
    known: str
    pinned: str


def judge(key: str, classes: Iterable[tuple[str, str]], pins: Pins) -> Verdict | None:
    """``key`` against the fields of ``classes`` (package, class; a class that extends transformers' brings its
    fields too) at the releases ``pins`` allow; None where every allowed release takes it or the tables cannot say."""
    by_package: dict[str, list[str]] = {}
    for package, name in classes:
        classes_of = table(package)[1]
        if name not in classes_of:
            return None  # a class the tables do not know: its fields neither
        by_package.setdefault(package, []).append(name)
        if outer := classes_of[name][0]:
            by_package.setdefault("transformers", []).append(outer)
    if not by_package:
        return None
    results = {package: _presence(package, names, key, pins) for package, names in by_package.items()}
    if any(presence is Presence.FINE for presence, _ in results.values()):
        return None
    presence = Presence.ABSENT if all(p is Presence.ABSENT for p, _ in results.values()) else Presence.MIXED
    known = "; ".join(f"{package} {spans}" for package, (_, spans) in results.items() if spans)
    pinned = ", ".join(f"{package}{pins.get(package, '')}" for package in results)
    return Verdict(key, presence, known, pinned)


def _presence(package: str, names: list[str], key: str, pins: Pins) -> tuple[Presence, str]:
    """The key in one package's classes: its presence at the pinned releases, and the ranges that have it."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    sampled, classes = table(package)
    spans = sorted({span for name in names for span, fields in classes[name][1].items() if key in fields})
    prereleases = False
    allowed = SpecifierSet("", prereleases=False).to_range()
    if text := pins.get(package):
        try:
            prereleases = bool(SpecifierSet(text).prereleases)
            allowed = SpecifierSet(text, prereleases=prereleases).to_range()
        except InvalidSpecifier:
            pass
    possible = _possible(sampled, spans, prereleases)
    absent = SpecifierSet(f">={sampled[0]}", prereleases=prereleases).to_range().difference(possible)
    shown = " || ".join(spans).replace("*", f">={sampled[0]}")
    if allowed.is_disjoint(absent):
        return Presence.FINE, shown
    return (Presence.ABSENT if allowed.is_disjoint(possible) else Presence.MIXED), shown


def _possible(sampled: tuple[str, ...], spans: list[str], prereleases: bool) -> VersionRange:
    """The releases that may have the field: from just after the last sample without it (or from the start where
    the first sample has it) to the first sample without it."""
    from packaging.specifiers import SpecifierSet

    possible = SpecifierSet("<0", prereleases=prereleases).to_range()
    for span in (part for spans_text in spans for part in spans_text.split(" || ")):
        bounds = dict(
            ("low", bound[2:]) if bound.startswith(">=") else ("high", bound[1:])
            for bound in span.split(",")
            if bound != "*"
        )
        low = bounds.get("low")
        before = sampled[sampled.index(low) - 1] if low in sampled and sampled.index(low) > 0 else None
        high = bounds.get("high")
        text = ",".join(([f">{before}"] if before else []) + ([f"<{high}"] if high else []))
        possible = possible.union(SpecifierSet(text, prereleases=prereleases).to_range())
    return possible


#: The calls through which a script hands its command line or a file to a strict parser.
PARSE_CALLS = (
    "parse_args_into_dataclasses",
    "parse_dict",
    "parse_yaml_file",
    "parse_json_file",
    "parse_args_and_config",
)
#: Their keywords that make them take what no field takes, with the value that keeps them strict.
LENIENT = {"return_remaining_strings": False, "allow_extra_keys": False, "fail_with_unknown_args": True}


def strict(sources: Iterable[Parsed]) -> bool:
    """Whether the parser that reads the arguments refuses unknown ones: True without a script among the sources
    (the parsers' default); a script must hand them to a strict parse call, and none leniently. The script reader
    keeps no parser method's keywords, so the calls are read here from the script's syntax tree."""
    texts = [parsed.source.text for parsed in sources if parsed.python is not None]
    if not texts:
        return True
    calls = [
        node
        for text in texts
        for node in ast.walk(_tree(text))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PARSE_CALLS
    ]
    lenient = any(
        keyword.arg in LENIENT
        and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is LENIENT[keyword.arg])
        for call in calls
        for keyword in call.keywords
    )
    return bool(calls) and not lenient


def _tree(text: str) -> ast.Module:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ast.Module([], [])


@dataclass(frozen=True)
class Refusal:
    """What one source hands a strict parser that the pinned releases refuse (``absent``: every one, quoted as the
    parser refuses it) or some of them refuse (``mixed``)."""

    absent: tuple[Verdict, ...]
    mixed: tuple[Verdict, ...]
    message: str


def flags_refused(
    found: Mapping[str, list[str]],
    classes: list[tuple[str, str]],
    pins: Pins,
    *,
    known_only: bool,
    skip: frozenset[str] = frozenset(),
) -> Refusal:
    """Launch-line flags (``--evaluation_strategy steps``) as ``parse_args_into_dataclasses`` reads them: a flag
    argparse takes as an abbreviation or ``--no_…`` of a field passes; the rest left over, with their words."""
    verdicts = []
    for flag in found:
        key = flag.removeprefix("--").replace("-", "_")
        if not flag.startswith("--") or key in skip or _abbreviation(key, classes):
            continue
        if (verdict := judge(key, classes, pins)) is not None and (verdict.known or not known_only):
            verdicts.append(replace(verdict, key=flag))
    absent = tuple(v for v in verdicts if v.presence is Presence.ABSENT)
    remaining = [word for v in absent for word in (v.key, *found[v.key])]
    return Refusal(
        absent, tuple(v for v in verdicts if v.presence is Presence.MIXED), FLAGS_UNUSED.format(remaining=remaining)
    )


def keys_refused(
    keys: Iterable[str],
    classes: list[tuple[str, str]],
    pins: Pins,
    *,
    known_only: bool,
    skip: frozenset[str] = frozenset(),
) -> Refusal:
    """A file's keys as ``parse_dict`` reads them (``parse_yaml_file``, ``parse_json_file``, LLaMA-Factory's YAML)."""
    judged = (judge(key, classes, pins) for key in keys if key not in skip)
    verdicts = [v for v in judged if v is not None and (v.known or not known_only)]
    absent = tuple(v for v in verdicts if v.presence is Presence.ABSENT)
    message = KEYS_UNUSED.format(keys=sorted(v.key for v in absent))
    return Refusal(absent, tuple(v for v in verdicts if v.presence is Presence.MIXED), message)


def _abbreviation(key: str, classes: list[tuple[str, str]]) -> bool:
    """argparse's ``allow_abbrev`` (on in HfArgumentParser) and the ``--no_…`` of a boolean field: a key that is the
    start of a longer field some release has, or a field's name after ``no_``, is not judged."""
    names = _names(tuple(classes))
    return any(name != key and name.startswith(key) for name in names) or (key.startswith("no_") and key[3:] in names)


@cache
def _names(classes: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """Every field any release of ``classes`` (and the transformers classes they extend) has."""
    names: set[str] = set()
    for package, cls in classes:
        classes_of = table(package)[1]
        outer = classes_of[cls][0] if cls in classes_of else ""
        for owner, grouped in ((cls, classes_of.get(cls)), (outer, table("transformers")[1].get(outer))):
            for fields in grouped[1].values() if owner and grouped else ():
                names.update(fields)
    return frozenset(names)
