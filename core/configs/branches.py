"""Launch scripts whose ``if``/``case`` depends on something only the start decides (``$1``, an unset variable).

The shell reader never picks a branch silently: ``shell.alternatives`` reads the script once per
feasible choice (at most eight). The check runs the framework's rule on each and says whether the
batch depends on the choice: a note when every alternative trains the same batch, a warning
naming the smallest and largest when they differ, a warning when one of them is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from effbatch.core.configs.base import Check, CheckError, Effect, Format, Parsed, Rule, World, context


@context
class Agree:
    depends: str
    file: str
    line: int
    count: int


@context
class Differ:
    depends: str
    file: str
    line: int
    count: int
    smallest: int
    largest: int


@context
class Refused:
    depends: str
    file: str
    line: int
    count: int
    refused: int


AGREE = Rule("script/branches-agree", Effect.NOTE, Agree)
DIFFER = Rule("script/branches-differ", Effect.PITFALL, Differ)
REFUSED = Rule("script/branch-refused", Effect.PITFALL, Refused)
RULES = (AGREE, DIFFER, REFUSED)


def with_alternatives(
    check: Check, parsed: list[Parsed], world: World | None, run: Callable[[list[Parsed], World | None], Check]
) -> Check:
    """``check`` with a finding on the script's undecided branches, each alternative checked by ``run``."""
    found_at = next(((i, p.script) for i, p in enumerate(parsed) if p.script is not None and p.script.undecided), None)
    if found_at is None:
        return check
    index, script = found_at
    batches: list[int | None] = []
    from effbatch.core.configs.shell import Sources, alternatives  # a script with branches is there: it is loaded

    files = {p.source.name: p.source.text for p in parsed if p.format is Format.SHELL}  # what ``source`` may read
    try:
        readings = alternatives(parsed[index].source.text, sources=Sources(files, parsed[index].source.name))
    except CheckError as error:  # the reader's bounds, over all alternatives together
        raise CheckError(error.kind, **{**error.ctx, "name": parsed[index].source.name}) from None
    for alternative in readings:
        sources = [*parsed[:index], replace(parsed[index], script=alternative.script), *parsed[index + 1 :]]
        try:
            batches.append(run(sources, world).global_batch)
        except CheckError:
            batches.append(None)
    # what the branch depends on: the unknown variables, or the condition as written (``[ -f "$OUT/model" ]``)
    first = min(script.undecided, key=lambda u: u.line)
    depends = ", ".join(sorted({f"${v}" for u in script.undecided for v in u.variables})) or first.condition
    name, line = parsed[index].source.name, first.line
    trained = [b for b in batches if b is not None]
    if len(trained) < len(batches):
        finding = REFUSED(Refused(depends, name, line, len(batches), len(batches) - len(trained)))
    elif len(set(trained)) > 1:
        finding = DIFFER(Differ(depends, name, line, len(batches), min(trained), max(trained)))
    else:
        finding = AGREE(Agree(depends, name, line, len(batches)))
    return replace(check, findings=(*check.findings, finding))
