"""Hydra's composition, as a ``@hydra.main`` script (NeMo 1's ``hydra_runner``, verl's ``main_ppo``) gets its config.

Read from facebookresearch/hydra 1.3 (``hydra/_internal/defaults_list.py``, ``config_loader_impl.py``) and checked
by running hydra-core 1.3.2's ``compose`` on the rows of ``tests/test_frameworks_nemo.py``:

- The primary config's ``defaults:`` list gives the merge order, depth first; ``_self_`` (the config's own keys)
  goes where it is listed, and **last** where it is not (Hydra 1.1+): a config overrides what it inherits. Hydra
  builds the tree from each list's last entry to its first, so a later entry's ``override`` reaches an earlier
  entry's group.
- A config the tree names more than once (``a`` and ``b`` both listing ``base``) is merged at each place in Hydra;
  here once per package, at its last place: the later merge of the same keys overwrites what the earlier wrote,
  and the work stays linear where the tree's paths multiply. (Hydra's config cache shares nested mappings between
  the places, so Hydra's own result for such a repeat can differ in values both places write.)
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

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import lookup

#: Hydra's (OmegaConf's) mandatory value: it must be filled by composition or an override before it is read.
MISSING = "???"
#: Defaults lists nested deeper are refused (``hydra_nesting``); real ones nest a handful.
MAX_DEPTH = 32
#: Steps one composition may take – defaults entries walked, values merged – before it is refused (``hydra_work``):
#: each config is composed once per package, so only packages that multiply (``a@x``, ``a@y`` in every config of
#: a chain) get near it; a config of a few hundred keys with a dozen defaults takes a few thousand.
MAX_WORK = 100_000
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
    (without a primary: ``given`` alone, on an empty config). ``CheckError`` where the defaults nest deeper than
    ``MAX_DEPTH`` or composing them would take more than ``MAX_WORK`` steps."""
    composed, index = Composed(), _Index(sources)
    choices = {o.key.lstrip("/"): str(o.value) for o in given if o.prefix == "" and _is_group(o, index)}
    if primary is not None:
        walk = _Walk(composed, index, choices, primary.source.name)
        walk.config(primary, "", "", 0)
        walk.merge()
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


def _is_group(override: Override, index: _Index) -> bool:
    """``optim=adam``: a group's option when a source is ``optim/adam.yaml`` (and the value a plain name)."""
    value = override.value
    return isinstance(value, str) and index.find(f"{override.key.lstrip('/')}/{value}", strict=True) is not None


class _Index:
    """The YAML sources by the ends of their paths (``adam``, ``optim/adam``) and, where the files were given flat,
    by file name stem: a config found in one look-up, however many entries name it."""

    def __init__(self, sources: Sequence[Parsed]) -> None:
        self.by_path: dict[tuple[str, ...], Parsed] = {}
        by_stem: dict[str, list[Parsed]] = {}
        for parsed in (p for p in sources if p.format is Format.YAML):
            parts = PurePosixPath(parsed.source.name.replace("\\", "/")).parts
            if not parts:
                continue
            named = (*parts[:-1], stem(parts[-1]))
            for start in range(len(named)):
                self.by_path.setdefault(named[start:], parsed)
            by_stem.setdefault(named[-1], []).append(parsed)
        self.by_stem = {name: found[0] for name, found in by_stem.items() if len(found) == 1}

    def find(self, path: str, *, strict: bool = False) -> Parsed | None:
        """The YAML source of config ``path`` (``optim/adam``): by its path's end, else (flat files) by its stem."""
        wanted = PurePosixPath(path.strip("/")).parts
        if not wanted:
            return None
        found = self.by_path.get(wanted)
        return found if found is not None or strict else self.by_stem.get(wanted[-1])


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
    """One walk through the defaults lists as Hydra builds its defaults tree (``_create_defaults_tree_impl``): a
    config's ``override`` entries first, then its entries from the last to the first, so that a later entry's
    ``override`` reaches an earlier entry's group. The merges it finds are kept last first and merged in the
    order Hydra merges them (``merge``).

    Each config is composed once per package: where the tree names it again (a diamond, ``a`` and ``b`` both
    listing ``base``), only its last place in Hydra's list counts – merging the same keys again later overwrites
    every value the earlier merge wrote – so the walk, going backwards, skips every place but the first it meets.
    The work is linear in the configs and their packages, and bounded (``MAX_WORK``) where packages multiply."""

    composed: Composed
    index: _Index
    choices: dict[str, str]
    #: the primary config, named when the defaults cannot be composed.
    name: str
    #: (config, package) to merge, the last first.
    merges: list[tuple[Parsed, str]] = field(default_factory=list)
    #: (config, package, group) composed already: at a later place of Hydra's list.
    done: set[tuple[str, str, str]] = field(default_factory=set)
    #: the configs being composed now, outermost first: one naming itself again is a cycle.
    open: set[str] = field(default_factory=set)
    work: int = 0

    def config(self, parsed: Parsed, package: str, group: str, depth: int) -> None:
        """``parsed`` at ``package`` (it sits in config group ``group``): its defaults, and itself where ``_self_``."""
        name = parsed.source.name
        if (name, package, group) in self.done or name in self.open:
            return
        if depth > MAX_DEPTH:
            raise CheckError(ProblemKind.UNREADABLE, name=self.name, detail="hydra_nesting", max=MAX_DEPTH)
        self.open.add(name)
        entries = _entries(parsed)
        for entry in entries:
            if isinstance(entry, dict) and len(entry) == 1:
                key, value = next(iter(entry.items()))
                if str(key).startswith("override "):
                    self.choices.setdefault(_group_path(str(key)[9:].strip(), group), str(value))
        self.spend(len(entries))
        for entry in reversed(entries):
            if entry == "_self_":
                self.spend(_size(parsed.data))
                self.merges.append((parsed, package))
            else:
                self.entry(entry, package, group, depth)
        self.open.discard(name)
        self.done.add((name, package, group))

    def entry(self, entry: Any, package: str, group: str, depth: int) -> None:
        """One defaults entry: a config beside its parent (``base``) or a group's option (``optim: adam``)."""
        if isinstance(entry, str):
            path = entry.lstrip("/") if entry.startswith("/") else _join_path(group, entry)
            found = self.index.find(path)
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
        for chosen in reversed(option) if isinstance(option, list) else [option]:
            found = self.index.find(f"{group_path}/{chosen}")
            if found is None:
                if not optional:
                    self.composed.unfound.append(f"{group_path}/{chosen}")
                continue
            at = "" if renamed == "_global_" else _join(package, (renamed or target.lstrip("/")).replace("/", "."))
            self.config(found, _package(found, at), group_path, depth + 1)

    def spend(self, steps: int) -> None:
        """Count ``steps`` of work (defaults entries, values to merge); past ``MAX_WORK`` the composition is refused."""
        self.work += steps
        if self.work > MAX_WORK:
            raise CheckError(ProblemKind.UNREADABLE, name=self.name, detail="hydra_work", max=MAX_WORK)

    def merge(self) -> None:
        """The merges in Hydra's order, each file's key lines read once; what was not found, in the lists' order."""
        lines: dict[str, dict[str, int]] = {}
        for parsed, package in reversed(self.merges):
            own = {k: v for k, v in parsed.data.items() if k != "defaults"}
            found = lines.setdefault(parsed.source.name, key_lines(parsed.source.text))
            _merge(self.composed, package, own, parsed, found)
        self.composed.unfound.reverse()


def _entries(parsed: Parsed) -> list[Any]:
    """A config's defaults list, with ``_self_`` last where it is not listed (Hydra 1.1+)."""
    listed = parsed.data.get("defaults")
    entries = [*listed] if isinstance(listed, list) else []
    return entries if "_self_" in entries else [*entries, "_self_"]


def _size(value: Any) -> int:
    """How many values ``value`` holds, itself included: what merging it costs."""
    if isinstance(value, dict):
        return 1 + sum(_size(inner) for inner in value.values())
    if isinstance(value, list):
        return 1 + sum(_size(inner) for inner in value)
    return 1


def _hydra_own(key: str) -> bool:
    """Hydra's own settings (``hydra.run.dir=…``, ``hydra/launcher: submitit``): its config, not the job's."""
    return key.lstrip("/").split(".")[0].split("/")[0] == "hydra"


def _group_path(name: str, group: str) -> str:
    """A group as a defaults list names it: relative to the listing config's group, absolute with a leading ``/``."""
    return name.lstrip("/") if name.startswith("/") else _join_path(group, name)


def _join_path(group: str, name: str) -> str:
    return f"{group}/{name}" if group else name


def _merge(composed: Composed, package: str, data: dict[str, Any], parsed: Parsed, lines: dict[str, int]) -> None:
    """OmegaConf's merge of ``data`` into ``composed`` at ``package``: mappings key by key, else replaced."""
    node = composed.data
    for part in package.split(".") if package else []:
        if not isinstance(node.get(part), dict):
            node[part] = {}
        node = node[part]
    _Merge(composed, parsed, package, lines).into(node, data, "")


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
