"""Hydra's composition, as a ``@hydra.main`` script (NeMo 1's ``hydra_runner``, verl's ``main_ppo``) gets its config.

Read from facebookresearch/hydra 1.3 (``hydra/_internal/defaults_list.py``, ``config_loader_impl.py``) and checked
by running hydra-core 1.3.2's ``compose`` on the rows of ``tests/test_frameworks_nemo.py``:

- The primary config's ``defaults:`` list is walked in order, depth first; ``_self_`` (the config's own keys) goes
  where it is listed, and **last** where it is not (Hydra 1.1+): a config overrides what it inherits.
- A plain entry (``- Llama3-base``) names a config beside the one that lists it, merged at that one's package; a
  group entry (``- optim: adam``, ``/optim: adam``, ``optim@opt: adam``) the file ``<group>/<option>.yaml``, merged
  under the package ``<parent package>.<group>`` (``@pkg`` renames it); ``# @package _global_`` at a file's top
  puts it at the root. ``optional`` entries may be absent; ``override group: option`` changes an earlier choice.
- Merging is OmegaConf's: mappings merge key by key, anything else replaces; ``???`` (a mandatory value still
  missing) never replaces a value.
- Command-line overrides come last: ``key=value`` needs the key to exist ("Could not override …"), ``+key=value``
  needs it absent ("Could not append to config …"), ``++key=value`` sets either way, ``~key`` deletes an existing
  key ("Could not delete from config …"); ``group=option`` chooses a group's option. ``hydra.*`` and the
  ``hydra/…`` groups configure Hydra itself, not the job's config.

Configs are matched to the sources by path (``optim/adam.yaml``) or, where the files were given flat, by file name
stem. What no source holds is said (``unfound``), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from effbatch.core.configs.base import Format, Parsed, lookup

#: Hydra's (OmegaConf's) mandatory value: it must be filled by composition or an override before it is read.
MISSING = "???"
#: A hostile chain of defaults stops here (Hydra itself refuses cycles).
MAX_DEPTH = 16
_HEADER = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\n)*?[ \t]*#[ \t]*@package[ \t]+(\S+)")
_OVERRIDE = re.compile(r"(\+\+|\+|~)?([A-Za-z_][\w.@/-]*)(?:=(.*))?", re.DOTALL)
_YAML_SUFFIXES = (".yaml", ".yml")
_INTERPOLATION = re.compile(r"\$\{(\.*)([A-Za-z_][\w.]*)\}")


@dataclass(frozen=True)
class Override:
    """One Hydra override word: ``++model.global_batch_size=256`` as prefix ``++``, key and value."""

    prefix: str
    key: str
    value: Any
    word: str
    where: str


@dataclass
class Composed:
    """The composed config, where each of its values was written, and what composing it could not find or do."""

    data: dict[str, Any] = field(default_factory=dict)
    #: dotted path → ``file:line`` of the value that won.
    places: dict[str, str] = field(default_factory=dict)
    #: configs a defaults list names that no source holds (``Llama3-base``, ``optim/adam``).
    unfound: list[str] = field(default_factory=list)
    #: overrides Hydra refuses, each with whether its key existed.
    refused: list[tuple[Override, bool]] = field(default_factory=list)
    #: dotted path → (the value a command-line override replaced, where that value was written).
    overridden: dict[str, tuple[Any, str]] = field(default_factory=dict)


def overrides(words: Sequence[str], where: str) -> tuple[str | None, list[Override]]:
    """The config name (``--config-name``/``-cn``) and the Hydra overrides among a command's arguments."""
    name: str | None = None
    found: list[Override] = []
    for index, word in enumerate(words):
        option, has_value, value = word.partition("=")
        if option in ("--config-name", "--config_name", "-cn"):
            name = value if has_value else (words[index + 1] if index + 1 < len(words) else None)
            continue
        match = None if word.startswith("-") else _OVERRIDE.fullmatch(word)
        if match is not None and (match.group(3) is not None or match.group(1) == "~"):
            raw = match.group(3)
            value_read = None if raw is None else scalar(raw)
            found.append(Override(match.group(1) or "", match.group(2), value_read, word, where))
    return name, found


def scalar(text: str) -> Any:
    """An override's value as Hydra's grammar reads it: whole numbers, floats, booleans, null, quoted strings."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "null":
        return None
    if re.fullmatch(r"[+-]?\d(?:_?\d)*", text):
        return int(text.replace("_", ""))
    if re.fullmatch(r"[+-]?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?\d+[eE][+-]?\d+", text):
        return float(text)
    return text


def stem(name: str) -> str:
    """A config's name as a defaults list or ``--config-name`` writes it: without directory or ``.yaml``."""
    path = PurePosixPath(name.replace("\\", "/"))
    return path.stem if path.suffix in _YAML_SUFFIXES else path.name


def compose(primary: Parsed | None, sources: Sequence[Parsed], given: Sequence[Override] = ()) -> Composed:
    """``primary`` composed with the configs its defaults list names among ``sources``, then ``given`` applied
    (without a primary: ``given`` alone, on an empty config)."""
    composed = Composed()
    choices = {o.key.lstrip("/"): str(o.value) for o in given if o.prefix == "" and _is_group(o, sources)}
    if primary is not None:
        _Walk(composed, sources, choices).config(primary, "", "", 0)
    for override in given:
        if (override.prefix == "" and override.key.lstrip("/") in choices) or _hydra_own(override.key):
            continue
        _apply(composed, override)
    return composed


def resolved(data: dict[str, Any], path: str) -> tuple[Any, str]:
    """The value at ``path`` with OmegaConf's plain interpolations followed (``${model.encoder_seq_length}``,
    relative ``${.encoder_seq_length}``), and the path it was taken from; a resolver (``${oc.env:X}``) stays."""
    value: Any = lookup(data, path)
    for _ in range(MAX_DEPTH):
        match = _INTERPOLATION.fullmatch(value) if isinstance(value, str) else None
        if match is None:
            break
        dots, target = match.groups()
        parent = path.split(".")[: -len(dots)] if dots else []
        path = _join(*parent, target)
        value = lookup(data, path)
    return value, path


def _is_group(override: Override, sources: Sequence[Parsed]) -> bool:
    """``optim=adam``: a group's option when a source is ``optim/adam.yaml`` (and the value a plain name)."""
    value = override.value
    return isinstance(value, str) and _find(f"{override.key.lstrip('/')}/{value}", sources, strict=True) is not None


def _find(path: str, sources: Sequence[Parsed], *, strict: bool = False) -> Parsed | None:
    """The YAML source of config ``path`` (``optim/adam``): by its path's end, else (flat files) by its stem."""
    wanted = PurePosixPath(path.strip("/")).parts
    yamls = [p for p in sources if p.format is Format.YAML]
    for parsed in yamls:
        parts = PurePosixPath(parsed.source.name.replace("\\", "/")).parts
        if parts and (*parts[:-1], stem(parts[-1]))[-len(wanted) :] == wanted:
            return parsed
    if strict or not wanted:
        return None
    named = [p for p in yamls if stem(p.source.name) == wanted[-1]]
    return named[0] if len(named) == 1 else None


def _package(parsed: Parsed, default: str) -> str:
    """The package a config's ``# @package`` header names (``_global_``: the root), else ``default``."""
    match = _HEADER.match(parsed.source.text)
    if match is None or match.group(1) == "_group_":
        return default
    return "" if match.group(1) == "_global_" else match.group(1)


def _join(*parts: str) -> str:
    return ".".join(part for part in parts if part)


@dataclass
class _Walk:
    """One walk through the defaults lists, merging into ``composed``."""

    composed: Composed
    sources: Sequence[Parsed]
    choices: dict[str, str]
    seen: set[str] = field(default_factory=set)

    def config(self, parsed: Parsed, package: str, group: str, depth: int) -> None:
        """``parsed`` at ``package`` (it sits in config group ``group``): its defaults, and itself where ``_self_``."""
        if depth > MAX_DEPTH or parsed.source.name in self.seen:
            return
        self.seen.add(parsed.source.name)
        listed = parsed.data.get("defaults")
        entries = [*listed] if isinstance(listed, list) else []
        for entry in entries:
            if isinstance(entry, dict) and len(entry) == 1:
                key, value = next(iter(entry.items()))
                if str(key).startswith("override "):
                    self.choices.setdefault(_group_path(str(key)[9:].strip(), group), str(value))
        if "_self_" not in entries:
            entries.append("_self_")
        for entry in entries:
            if entry == "_self_":
                own = {k: v for k, v in parsed.data.items() if k != "defaults"}
                _merge(self.composed, package, own, parsed)
            else:
                self.entry(entry, package, group, depth)
        self.seen.discard(parsed.source.name)

    def entry(self, entry: Any, package: str, group: str, depth: int) -> None:
        """One defaults entry: a config beside its parent (``base``) or a group's option (``optim: adam``)."""
        if isinstance(entry, str):
            path = entry.lstrip("/") if entry.startswith("/") else _join_path(group, entry)
            found = _find(path, self.sources)
            if found is None:
                self.composed.unfound.append(path)
                return
            inner = str(PurePosixPath(path).parent).strip(".")
            self.config(found, _package(found, _join(package, inner.replace("/", "."))), inner, depth + 1)
            return
        if not isinstance(entry, dict) or len(entry) != 1:
            return
        key, option = next(iter(entry.items()))
        words = str(key).split()
        optional, name = words[0] == "optional", words[-1]
        if words[0] == "override" or option is None:
            return
        target, _, renamed = name.partition("@")
        group_path = _group_path(target, group)
        if _hydra_own(group_path):
            return
        option = self.choices.get(group_path, option)
        for chosen in option if isinstance(option, list) else [option]:
            found = _find(f"{group_path}/{chosen}", self.sources)
            if found is None:
                if not optional:
                    self.composed.unfound.append(f"{group_path}/{chosen}")
                continue
            at = "" if renamed == "_global_" else _join(package, (renamed or target.lstrip("/")).replace("/", "."))
            self.config(found, _package(found, at), group_path, depth + 1)


def _hydra_own(key: str) -> bool:
    """Hydra's own settings (``hydra.run.dir=…``, ``hydra/launcher: submitit``): its config, not the job's."""
    return key.lstrip("/").split(".")[0].split("/")[0] == "hydra"


def _group_path(name: str, group: str) -> str:
    """A group as a defaults list names it: relative to the listing config's group, absolute with a leading ``/``."""
    return name.lstrip("/") if name.startswith("/") else _join_path(group, name)


def _join_path(group: str, name: str) -> str:
    return f"{group}/{name}" if group else name


def _merge(composed: Composed, package: str, data: dict[str, Any], parsed: Parsed) -> None:
    """OmegaConf's merge of ``data`` into ``composed`` at ``package``: mappings key by key, else replaced."""
    node = composed.data
    for part in package.split(".") if package else []:
        if not isinstance(node.get(part), dict):
            node[part] = {}
        node = node[part]
    _Merge(composed, parsed, package, key_lines(parsed.source.text)).into(node, data, "")


_KEY_LINE = re.compile(r"([ \t]*)([A-Za-z_][\w.-]*|\"[^\"]*\"|'[^']*')[ \t]*:(?:[ \t]|$)")


def key_lines(text: str) -> dict[str, int]:
    """Each block-style YAML key's dotted path and the line it is written on (1-based), its first occurrence."""
    found: dict[str, int] = {}
    stack: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        match = _KEY_LINE.match(line)
        if match is None:
            continue
        indent, key = len(match.group(1)), match.group(2).strip("\"'")
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, key))
        found.setdefault(".".join(part for _, part in stack), number)
    return found


@dataclass
class _Merge:
    """One config's keys merged into the composition, each placed at the line of the file that writes it."""

    composed: Composed
    parsed: Parsed
    package: str
    lines: dict[str, int]

    def into(self, node: dict[str, Any], data: dict[str, Any], inner: str) -> None:
        for key, value in data.items():
            own = _join(inner, str(key))
            if isinstance(value, dict) and isinstance(node.get(key), dict):
                self.into(node[key], value, own)
                continue
            if value == MISSING and key in node:
                continue
            node[key] = _copy(value)
            self.place(own, value)

    def place(self, own: str, value: Any) -> None:
        line = self.lines.get(own)
        name = self.parsed.source.name
        where = f"{name}:{line}" if line is not None else self.parsed.where(own.rsplit(".", 1)[-1])
        self.composed.places[_join(self.package, own)] = where
        for key, inner in value.items() if isinstance(value, dict) else ():
            self.place(_join(own, str(key)), inner)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return list(value) if isinstance(value, list) else value


def _apply(composed: Composed, override: Override) -> None:
    """One command-line override, as Hydra's ``ConfigLoaderImpl._apply_overrides_to_config`` applies it."""
    *parents, leaf = override.key.split(".")
    node: Any = composed.data
    for part in parents:
        if not isinstance(node, dict) or not isinstance(node.get(part), dict):
            if override.prefix in ("", "~"):
                composed.refused.append((override, False))
                return
            node[part] = {}
        node = node[part]
    exists = isinstance(node, dict) and leaf in node
    if (override.prefix in ("", "~") and not exists) or (override.prefix == "+" and exists):
        composed.refused.append((override, exists))
    elif override.prefix == "~":
        del node[leaf]
        composed.places.pop(override.key, None)
    else:
        if exists and not isinstance(node[leaf], dict) and node[leaf] != override.value:
            composed.overridden[override.key] = (node[leaf], composed.places.get(override.key, ""))
        node[leaf] = override.value
        composed.places[override.key] = override.where
