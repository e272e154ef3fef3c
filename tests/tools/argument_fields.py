"""Generate the argument tables of the strict parsers (``core/configs/frameworks/_shared/fields_*.json``).

``HfArgumentParser`` (and TRL's ``TrlParser``, LLaMA-Factory's parser on top of it) refuses an argument or key no
field of its dataclasses takes. Which fields a dataclass has changes from release to release
(``evaluation_strategy`` became ``eval_strategy``), so effbatch keeps, per class, every field with the releases
that have it. This script makes those tables from the packages' own source, never importing them:

1. ``pip index versions PACKAGE`` lists the releases; the first release of every minor from the floor on is
   sampled (all patch releases would be ten times the downloads for fields that patch releases do not change);
   of a package with few releases (``EVERY_RELEASE``) every release.
2. ``pip download --no-deps --only-binary=:all: PACKAGE==VERSION`` fetches each sample's wheel into a temporary
   directory (an sdist where a release has no wheel); the wheel is deleted once read.
3. The dataclasses are read with ``ast``: a field is a class-level annotated name (``ClassVar`` and
   ``field(init=False)`` excluded, as ``dataclasses.fields`` and ``HfArgumentParser`` skip them), bases resolved
   by name inside the package; a base from another package (TRL's and LLaMA-Factory's ``TrainingArguments``) is
   named in ``EXTENDS`` and its fields come from that package's table at the version the run pins.
4. Each field's samples become ranges (``>=4.41.0,<5.0.0``): from the first sample with it to the first sample
   without it. Between two samples the table knows nothing (a pin there that decides a boundary is undecided).

Run: ``python tests/tools/argument_fields.py transformers`` (``trl``, ``llamafactory``) writes
``core/configs/frameworks/_shared/fields_<package>.json`` (about three minutes for transformers' 54 samples); with
``--rerender PACKAGE`` it lays an existing table out again without downloading. Network: PyPI only.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "core" / "configs" / "frameworks" / "_shared"
FLOORS = {"transformers": "4.30.0", "trl": "0.7.0", "llamafactory": "0.5.0"}
#: Packages with few releases (LLaMA-Factory: eleven on PyPI, from 0.7.1): every release read, not each minor's first.
EVERY_RELEASE = {"llamafactory"}
#: Per package: the files (inside the wheel) whose dataclasses count, as a regular expression.
FILES = {
    "transformers": r"transformers/training_args(_seq2seq)?\.py",
    "trl": r"trl/trainer/\w+_config\.py|trl/trainer/\w+config\w*\.py|trl/scripts/utils\.py|trl/commands/cli_utils\.py",
    "llamafactory": r"llamafactory/hparams/\w+\.py",
}
#: The classes kept per package (None: every dataclass of the files whose name ends like these).
KEEP = {
    "transformers": ("TrainingArguments", "Seq2SeqTrainingArguments"),
    "trl": ("Config", "ScriptArguments", "ModelConfig"),
    "llamafactory": (
        "ModelArguments",
        "DataArguments",
        "TrainingArguments",
        "FinetuningArguments",
        "GeneratingArguments",
    ),
}


def releases(package: str) -> list[str]:
    """The first release of every minor from the floor on (no pre-releases)."""
    out = subprocess.run(
        [sys.executable, "-m", "pip", "index", "versions", package], capture_output=True, text=True, check=True
    ).stdout
    listed = re.search(r"Available versions: (.*)", out)
    versions = sorted(Version(v) for v in (listed.group(1).split(", ") if listed else []))
    firsts: dict[tuple[int, int, int], Version] = {}
    for version in versions:
        if not version.is_prerelease and version >= Version(FLOORS[package]):
            firsts.setdefault((version.major, version.minor, version.micro if package in EVERY_RELEASE else 0), version)
    return [str(v) for v in sorted(firsts.values())]


def sources(package: str, version: str) -> dict[str, str]:
    """The files of ``FILES`` in the release's wheel (else sdist), by their path inside the package."""
    pattern = re.compile(rf"(?:.*/)?(?:src/)?({FILES[package]})$")
    with tempfile.TemporaryDirectory() as tmp:
        for binary in ("--only-binary=:all:", "--no-binary=:all:"):
            command = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", binary, "-d", tmp]
            if subprocess.run([*command, f"{package}=={version}"], capture_output=True).returncode == 0:
                break
        archive = next(Path(tmp).iterdir())
        if archive.suffix == ".whl":
            with zipfile.ZipFile(archive) as wheel:
                return {m.group(1): wheel.read(n).decode() for n in wheel.namelist() if (m := pattern.match(n))}
        with tarfile.open(archive) as sdist:
            found = {}
            for member in sdist.getmembers():
                if (m := pattern.match(member.name)) and (handle := sdist.extractfile(member)) is not None:
                    found[m.group(1)] = handle.read().decode()
            return found


def _is_field(node: ast.stmt) -> str | None:
    if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
        return None
    if "ClassVar" in ast.unparse(node.annotation):
        return None
    value = node.value
    if isinstance(value, ast.Call) and ast.unparse(value.func).endswith("field"):
        for keyword in value.keywords:
            if keyword.arg == "init" and isinstance(keyword.value, ast.Constant) and keyword.value.value is False:
                return None
    return node.target.id


def classes(files: dict[str, str]) -> dict[str, tuple[list[str], list[str]]]:
    """Every class of the files: its bases (by name) and its own fields."""
    found: dict[str, tuple[list[str], list[str]]] = {}
    for text in files.values():
        tree = ast.parse(text)
        imports = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        aliases = {a.asname: a.name for n in imports for a in n.names if a.asname}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [aliases.get(name, name) for b in node.bases if (name := ast.unparse(b).rsplit(".", 1)[-1])]
                own = [field for stmt in node.body if (field := _is_field(stmt))]
                if node.name not in found or own:
                    found[node.name] = (bases, own)
    return found


def fields(found: dict[str, tuple[list[str], list[str]]], name: str, seen: frozenset[str] = frozenset()) -> set[str]:
    """A class's fields with its bases' (those defined in the package; others are the package's ``extends``)."""
    bases, own = found[name]
    result = set(own)
    for base in bases:
        if base in found and base not in seen and base != name:
            result |= fields(found, base, seen | {name})
    return result


def extends(found: dict[str, tuple[list[str], list[str]]], name: str, seen: frozenset[str] = frozenset()) -> str:
    """The class of another package this one extends (``TrainingArguments``, ``Seq2SeqTrainingArguments``)."""
    bases, _ = found[name]
    for base in bases:
        if base in found and base not in seen and base != name:
            if outer := extends(found, base, seen | {name}):
                return outer
        elif base.endswith("TrainingArguments"):
            return base
    return ""


def table(package: str, version: str) -> dict[str, tuple[str, set[str]]]:
    """The kept classes of one release: name → (the class of transformers it extends, its fields)."""
    found = classes(sources(package, version))
    if package == "transformers":
        return {name: ("", fields(found, name)) for name in KEEP[package] if name in found}
    kept = {}
    for name, (bases, _) in found.items():
        own_package = package == "llamafactory" and name in KEEP[package] and bases != ["object"]
        if own_package or (package == "trl" and name.endswith(KEEP[package]) and not name.startswith("_")):
            outer = extends(found, name) if name != "TrainingArguments" or bases else ""
            kept[name] = (outer, fields(found, name))
    return {name: value for name, value in kept.items() if value[1] or value[0]}


def ranges(present: list[bool], versions: list[str]) -> str:
    """The samples that have a field as ranges: ``>=4.41.0,<5.0.0``; several joined by `` || ``."""
    parts, start = [], None
    for index, (has, version) in enumerate(zip([*present, False], [*versions, ""], strict=True)):
        if has and start is None:
            start = index
        if not has and start is not None:
            low = "" if start == 0 else f">={versions[start]}"
            high = f"<{version}" if version else ""
            parts.append(",".join(p for p in (low, high) if p) or "*")
            start = None
    return " || ".join(parts)


def render(package: str, versions: list[str], tables: list[dict[str, tuple[str, set[str]]]]) -> str:
    """The data file: per class the transformers class it extends, the samples that have the class, and its fields
    grouped by their ranges (JSON, one field a line: a new release's change is a line or two of diff)."""
    names = sorted({name for t in tables for name, (outer, _) in t.items() if _kept(package, name, outer)})
    classes = {}
    for name in names:
        outers = {t[name][0] for t in tables if name in t}
        grouped: dict[str, list[str]] = {}
        every = sorted({f for t in tables if name in t for f in t[name][1]})
        for key in every:
            grouped.setdefault(ranges([name in t and key in t[name][1] for t in tables], versions), []).append(key)
        classes[name] = {
            "extends": max(outers, key=len),
            "releases": ranges([name in t for t in tables], versions),
            "fields": {span: grouped[span] for span in sorted(grouped, key=lambda s: (s != "*", s))},
        }
    sampled = "every release" if package in EVERY_RELEASE else "the first release of every minor"
    about = (
        f"The dataclass fields {package}'s parsers take, per release: generated by tests/tools/argument_fields.py "
        f"from the package's own source (do not edit by hand). Sampled: {sampled} from {versions[0]} to "
        f"{versions[-1]}. Per class: the class of transformers it extends (else empty), the samples that have the "
        "class, and range -> the fields it holds for; a range '>=a,<b' says the samples from 'a' on have the field "
        "and 'b' is the first sample without it (a release between two samples is not known). '*': every sample. "
        "A range before the first sample is not known either."
    )
    return json.dumps({"about": about, "sampled": versions, "classes": classes}, indent=1, ensure_ascii=False) + "\n"


#: TRL's dataclasses a parser of its scripts takes beside its TrainingArguments configs.
TRL_PARSED = ("ScriptArguments", "ModelConfig", "DatasetMixtureConfig")


def _kept(package: str, name: str, outer: str) -> bool:
    """TRL's configs that extend TrainingArguments and its scripts' other dataclasses (not DDPO's, AlignProp's)."""
    return package != "trl" or bool(outer) or name.endswith(TRL_PARSED)


CACHE = Path.home() / ".cache" / "effbatch-argument-fields"


def cached(package: str, version: str) -> dict[str, tuple[str, set[str]]]:
    """``table`` kept as JSON in ``CACHE`` (a release's source does not change)."""
    path = CACHE / f"{package}-{version}.json"
    if path.exists():
        return {name: (outer, set(keys)) for name, (outer, keys) in json.loads(path.read_text()).items()}
    found = table(package, version)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({name: (outer, sorted(keys)) for name, (outer, keys) in found.items()}))
    return found


def main(package: str, fetch: Callable[[str, str], dict[str, tuple[str, set[str]]]] = cached) -> None:
    versions = releases(package)
    with ThreadPoolExecutor(4) as pool:
        tables = list(pool.map(lambda v: fetch(package, v), versions))
    kept = [(v, t) for v, t in zip(versions, tables, strict=True) if t]
    text = render(package, [v for v, _ in kept], [t for _, t in kept])
    (OUT / f"fields_{package}.json").write_text(text, encoding="utf-8")
    print(f"{package}: {len(kept)} releases read of {len(versions)} sampled", file=sys.stderr)


def rerender(package: str) -> None:
    """Lay the existing table out again (after a change of ``render``), without downloading: each sample's
    fields are the ranges that hold for it."""
    path = OUT / f"fields_{package}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    versions: list[str] = data["sampled"]
    tables: list[dict[str, tuple[str, set[str]]]] = [{} for _ in versions]
    for name, entry in data["classes"].items():
        for span, keys in entry["fields"].items():
            for index, version in enumerate(versions):
                if _within(version, span, versions):
                    tables[index].setdefault(name, (entry["extends"], set()))[1].update(keys)
    path.write_text(render(package, versions, tables), encoding="utf-8")


def _within(version: str, span: str, versions: list[str]) -> bool:
    if span == "*":
        return True
    return any(Version(version) in SpecifierSet(part) for part in span.split(" || "))


if __name__ == "__main__":
    rerender(sys.argv[2]) if sys.argv[1] == "--rerender" else main(sys.argv[1])
