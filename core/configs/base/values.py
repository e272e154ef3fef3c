"""Reading values out of a parsed source, each recorded with where it came from (file:line), and finishing a check.

``Reading`` is what one framework's check accumulates: the values read, the numbers derived, the findings; its
``finish`` makes the ``Check``. ``whole`` reads a number as a framework does; ``fix`` writes values that would pass
in the source's own syntax.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.memory import MemoryFacts
from effbatch.core.configs.base.pyscript import Unknown, Via
from effbatch.core.configs.base.results import Check, ModelShape, Phase, Read, Rollout, Step, World
from effbatch.core.configs.base.rules import Effect, Finding, Fix, Syntax
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.versions import Pins, holds

#: The largest value a config may set (a batch, a length, a degree): far above any run, small enough to multiply.
MAX_VALUE = 10**12


def lookup(data: Mapping[str, Any], path: str) -> Any:
    """``data["model"]["micro_batch_size"]`` for ``"model.micro_batch_size"``; None where a part is missing."""
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


class Auto(Enum):
    """A value the framework fills in itself (``"auto"``)."""

    AUTO = "auto"


@dataclass
class Reading:
    """What one check reads (each value with where it came from), derives and finds; ``finish`` makes the Check.
    ``pins`` are the releases the run pins (``{"trl": "==0.18.0"}``): they decide the findings of some releases."""

    framework: str
    pins: Pins
    read: list[Read] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    _seen: dict[tuple[str, str], object] = field(default_factory=dict)

    def raw(self, parsed: Parsed, path: str) -> Any:
        """The value at ``path`` as written, recorded once however often it is asked for; None when absent."""
        value = lookup(parsed.data, path)
        if value is not None and (parsed.source.name, path) not in self._seen:
            self._seen[(parsed.source.name, path)] = value
            leaf = path.rsplit(".", 1)[-1]
            over = parsed.overridden.get(path)
            self.read.append(Read(path, value, parsed.at(path), over, via=parsed.vias.get(leaf)))
        return value

    def value(self, parsed: Parsed, path: str, *, minimum: int | None = 1) -> int | None:
        """The whole number at ``path`` (at least ``minimum``; None: any sign), recorded; None when absent."""
        value = self.raw(parsed, path)
        if value is None:
            return None
        return whole(value, path, parsed.at(path), minimum=minimum)

    def auto(self, parsed: Parsed, path: str) -> int | Auto | None:
        """Like ``value``, with ``"auto"`` kept as ``Auto.AUTO``."""
        if self.raw(parsed, path) == Auto.AUTO.value:
            return Auto.AUTO
        return self.value(parsed, path)

    def flag(self, parsed: Parsed, found: Mapping[str, list[str]], name: str, *, minimum: int = 1) -> int | None:
        """The whole number a flag is given, recorded; None when the flag is absent."""
        if name not in found:
            return None
        values = found[name]
        where = parsed.where(name)
        self.read.append(Read(name, " ".join(values), where))
        if len(values) != 1:
            raise CheckError(ProblemKind.BAD_VALUE, key=name, value=" ".join(values), where=where)
        return whole(values[0], name, where, minimum=minimum)

    def present(self, parsed: Parsed, found: Mapping[str, list[str]], name: str) -> bool:
        """Whether a switch such as ``--sequence-parallel`` is given (recorded when it is)."""
        if name in found:
            self.read.append(Read(name, True, parsed.where(name)))
            return True
        return False

    def note(
        self, key: str, value: Any, where: str, *, over: tuple[Any, str] | None = None, via: Via | None = None
    ) -> None:
        self.read.append(Read(key, value, where, over, via))

    def step(self, derivation: str, operands: Iterable[int], result: int) -> None:
        self.steps.append(Step(derivation, tuple(operands), result))

    def add(self, finding: Finding) -> None:
        """A finding; one of a rule that holds only for some releases as the run's pins decide: dropped where the
        pinned release does not have it, a warning naming both sides where no pin decides."""
        since = finding.rule.since
        if since is not None:
            applies = holds(since, self.pins)
            if applies is False:
                return
            if applies is None and finding.rule.effect in (Effect.REFUSED, Effect.CHANGED):
                finding = replace(finding, unpinned=since)
        self.findings.append(finding)

    def world(self, world: World | None) -> World:
        """The world size this check needs, recorded as read; ``CheckError`` asking for it where it is unknown."""
        if world is None:
            raise CheckError(ProblemKind.WORLD_SIZE_NEEDED, framework=self.framework)
        self.note("world_size", world.size, world.where)
        return world

    def finish(
        self,
        world: World | None,
        *,
        data_parallel: int | None = None,
        micro_batch: int | None = None,
        accumulation: int | None = None,
        global_batch: int | None = None,
        seq_len: int | None = None,
        schedule: tuple[Phase, ...] = (),
        intended: int | None = None,
        shape: ModelShape | None = None,
        rl: Rollout | None = None,
        memory: MemoryFacts | None = None,
    ) -> Check:
        """The check; where a finding says the framework refuses to start, there is no global batch."""
        refused = any(f.effect is Effect.REFUSED for f in self.findings)
        return Check(
            framework=self.framework,
            read=tuple(self.read),
            world=world,
            data_parallel=data_parallel,
            micro_batch=micro_batch,
            accumulation=accumulation,
            global_batch=None if refused else global_batch,
            seq_len=seq_len,
            steps=tuple(self.steps),
            findings=tuple(self.findings),
            schedule=schedule,
            intended=None if refused else intended,
            shape=shape,
            rl=replace(rl, optimizer_steps=None) if refused and rl is not None else rl,
            memory_facts=memory,
        )


def fix(parsed: Parsed, setting: str, *values: int | None) -> Fix | None:
    """Values that would pass for ``setting``, written in ``parsed``'s own syntax; None when there are none."""
    given = tuple(v for v in values if v is not None and v >= 1)
    if not given:
        return None
    syntax = {
        Format.JSON: Syntax.JSON,
        Format.YAML: Syntax.YAML,
        Format.TOML: Syntax.TOML,
        Format.PYTHON: Syntax.PYTHON,
        Format.SHELL: Syntax.FLAG,
        Format.PINS: Syntax.FLAG,
        Format.HOSTFILE: Syntax.FLAG,
    }[parsed.format]
    return Fix(setting, given, syntax)


def world_fix(*values: int | None) -> Fix | None:
    """GPU counts that would pass."""
    given = tuple(v for v in values if v is not None and v >= 1)
    return Fix("GPUs", given, Syntax.WORLD) if given else None


def whole(value: Any, key: str, where: str, *, minimum: int | None = 1) -> int:
    """A whole number as a framework reads it, at least ``minimum``; ``CheckError`` for anything else."""
    if isinstance(value, Unknown):  # a script's value only its run decides: named, with what it needs
        needs = ", ".join(value.needs) or value.written
        raise CheckError(
            ProblemKind.BAD_VALUE, key=key, value=value.written[:60], where=where, runtime=True, needs=needs
        )
    number = _whole(value)
    if number is None or (minimum is not None and number < minimum):
        raise CheckError(ProblemKind.BAD_VALUE, key=key, value=str(value)[:60], where=where)
    if abs(number) > MAX_VALUE:
        raise CheckError(ProblemKind.BAD_VALUE, key=key, value=str(value)[:60], where=where, max=MAX_VALUE)
    return number


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_VALUE:
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d(?:_?\d){0,17}", value.strip()):
        return int(value)  # as argparse's ``type=int`` reads it: ``220_000_000`` (BLOOM's --train-samples) too
    return None


def neighbours(value: int, step: int) -> tuple[int | None, int]:
    """The multiples of ``step`` just below and above ``value`` (None below when that would be 0)."""
    below = value // step * step
    return (below if below >= 1 else None), below + step
