"""Input problems in German: each template from ``bot.texts.problems`` filled from its problem."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from effbatch.bot.document import Answer, AnswerKind, Bullet, Document, Note, Section, Visibility
from effbatch.bot.rendering.formatting import german, number, quote
from effbatch.bot.rendering.formulas import degrees
from effbatch.bot.texts import problems as texts
from effbatch.bot.texts.glossary import ARGUMENT_NAMES, COMMAND, SETTING_NAMES, label, list_de, symbol_first
from effbatch.core import MODEL_PARALLEL, Argument, InputError, Problem, ProblemKind

#: At most this many problems are listed one by one; the rest are counted.
MAX_PROBLEMS_SHOWN = 10
#: Words a problem quotes one by one (stray values), before „und 107 weitere“.
MAX_LISTED = 3


def problem_text(problem: Problem, command: str = COMMAND) -> str:
    """One problem in German, without naming the argument (a form shows it under the field)."""
    return texts.TEMPLATES[problem.kind].format_map(_fields(problem) | {"command": command})


def problem_lines(problems: Iterable[Problem], command: str = COMMAND) -> list[str]:
    """One German sentence per problem, at most ``MAX_PROBLEMS_SHOWN`` plus a count of the rest."""
    problems = list(problems)
    shown = problems if len(problems) <= MAX_PROBLEMS_SHOWN + 1 else problems[:MAX_PROBLEMS_SHOWN]  # no „1 weitere“
    lines = [_about(p) + problem_text(p, command) for p in shown]
    if len(shown) < len(problems):
        lines.append(texts.MORE_PROBLEMS.format(count=len(problems) - MAX_PROBLEMS_SHOWN))
    return lines


def error_answer(error: InputError, command: str = COMMAND) -> Answer:
    """What was wrong, what is expected, an example; only to the caller; ``command`` as the surface spells it."""
    lines = problem_lines(error.problems, command)
    title = heading(error.problems)
    document = Document(
        title=title,
        summary=f"{title}: {lines[0]}",
        visibility=Visibility.EPHEMERAL,
        parts=(Section(lines=tuple(Bullet(line) for line in lines)), Note(texts.USAGE.format(command=command))),
    )
    return Answer(AnswerKind.INPUT_ERROR, document)


def heading(problems: Iterable[Problem]) -> str:
    """Not understood (while anything was); else missing, not allowed (0, -8, 8,5, over a bound) or contradicting."""
    problems = list(problems)
    kinds = {p.kind for p in problems}
    if kinds - texts.INCOMPLETE_KINDS - texts.CONFLICT_KINDS - texts.NOT_ALLOWED_KINDS:
        return texts.NOT_UNDERSTOOD
    if kinds & texts.INCOMPLETE_KINDS:
        return texts.INCOMPLETE
    if not_allowed := [p for p in problems if p.kind in texts.NOT_ALLOWED_KINDS]:
        return texts.NOT_ALLOWED if len(not_allowed) == 1 else texts.NOT_ALLOWED_SEVERAL
    return texts.CONFLICT


def _about(problem: Problem) -> str:
    where = texts.ON_SIDE.format(side=texts.SIDES[problem.side]) if problem.side else ""
    if problem.setting:
        return where + texts.ABOUT.format(label=SETTING_NAMES[problem.setting])
    return where + (texts.ABOUT.format(label=label(problem.argument)) if problem.argument else "")


def _fields(problem: Problem) -> dict[str, str]:
    """What a template may name: the typed text, the argument's expectation, symbol and bound, the ctx."""
    argument = problem.argument
    fields = {
        "text": quote(problem.text or ""),
        "expected": texts.EXPECTED.get(argument, texts.POSITIVE_WHOLE) if argument else texts.POSITIVE_WHOLE,
        "symbol": argument.symbol if argument else "",
        "bound": number(argument.upper_bound) if argument else "",
    }
    if problem.setting is not None and problem.setting in texts.SETTING_EXPECTED:
        fields["expected"] = texts.SETTING_EXPECTED[problem.setting]
    fields |= {key: _formatted(value) for key, value in problem.ctx.items()}
    specific = _SPECIFIC.get(problem.kind)
    return fields | specific(problem) if specific else fields


def _formatted(value: Any) -> str:
    """A ctx value as a message shows it: numbers German, arguments by their label."""
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, int):
        return number(value)
    if isinstance(value, Argument):
        return value.symbol
    return str(value)


def _degrees(problem: Problem) -> dict[str, str]:
    return {"degrees": degrees(problem.ctx["degrees"][a] for a in MODEL_PARALLEL)}


def _missing(problem: Problem) -> dict[str, str]:
    missing = problem.ctx["missing"]
    return {"missing": list_de(symbol_first(a) for a in missing), "verb": texts.verb(len(missing), "fehlt", "fehlen")}


def _missing_keys(problem: Problem) -> dict[str, str]:
    """Memory keys missing: „`heads=`, `ffn=` und `vocab=`“."""
    missing = problem.ctx["missing"]
    return {"missing": list_de(f"`{key}=`" for key in missing), "verb": texts.verb(len(missing), "fehlt", "fehlen")}


def _origin(origin: int | str, value: str) -> str:
    """'als 2. Zahl („64“)' or 'als „d=64“'."""
    if isinstance(origin, int):
        return texts.POSITION.format(position=origin, text=quote(value))
    return texts.NAMED.format(text=quote(origin))


def _duplicate(problem: Problem) -> dict[str, str]:
    ctx = problem.ctx
    first = _origin(ctx["first_origin"], ctx["first"])
    return {"first": first, "second": _origin(ctx["second_origin"], problem.text or "")}


def _guidance_missing(problem: Problem) -> dict[str, str]:
    """„`params=` (Modellgröße)“: what the laws' question still needs, as it is typed."""
    missing = problem.ctx["missing"]
    named = [texts.KEY_NAMED.format(key=a.key, name=ARGUMENT_NAMES[a]) for a in missing]
    return {"missing": list_de(named), "verb": texts.verb(len(missing), "fehlt", "fehlen")}


def _out_of_range(problem: Problem) -> dict[str, str]:
    """Far beyond a bound for a B target: perhaps a token count typed as B."""
    target = problem.ctx.get("target")
    meant = target is Argument.TARGET_BATCH
    reason = (
        texts.FOR_TARGET.format(symbol=target.symbol, value=number(problem.ctx["target_value"]))
        if isinstance(target, Argument)
        else texts.FOR_GPUS
    )
    tokens_meant = texts.TOKENS_MEANT.format(value=number(problem.ctx["target_value"])) if meant else ""
    return {"tokens_meant": tokens_meant, "reason": reason}


def _positional_after_named(problem: Problem) -> dict[str, str]:
    typed = problem.ctx["texts"]
    shown = list_de((quote(t) for t in typed), limit=MAX_LISTED)
    return {"texts": shown, "verb": texts.verb(len(typed), "steht", "stehen")}


def _target_conflict(problem: Problem) -> dict[str, str]:
    ctx = problem.ctx
    values = [*ctx["factors"].values()] + ([ctx["seq_len"]] if ctx["seq_len"] else [])
    return {
        "formula": "b · d · a · L" if ctx["seq_len"] else "b · d · a",
        "factors": " × ".join(number(v) for v in values),
    }


def _mini_fits(problem: Problem) -> dict[str, str]:
    """„`mini=64` oder `mini=128`“: the mini-batches just below and above that would work."""
    values = [v for v in (problem.ctx["below"], problem.ctx["above"]) if v]
    return {"fits": texts.either([f"`mini={v}`" for v in values])}


_SPECIFIC: Mapping[ProblemKind, Callable[[Problem], dict[str, str]]] = {
    ProblemKind.MFU_ABOVE_PEAK: lambda p: {
        "mfu": f"{german(p.ctx['mfu'] * 100, 1, keep_zeros=False)}\u00a0%",
        "given": texts.TIME_GIVEN[str(p.setting)].format(value=german(p.ctx["value"], 3, keep_zeros=False)),
    },
    ProblemKind.MISSING_VALUES: _missing,
    ProblemKind.NOT_ENOUGH_FACTORS: _missing,
    ProblemKind.POSITIONAL_AFTER_NAMED: _positional_after_named,
    ProblemKind.UNKNOWN_KEY: lambda p: {
        "key": quote(p.ctx["key"]),
        "suggestions": texts.did_you_mean(p.ctx["suggestions"]),
    },
    ProblemKind.UNKNOWN_RUN: lambda p: {"suggestions": texts.did_you_mean_run(p.ctx["suggestions"])},
    ProblemKind.DUPLICATE: _duplicate,
    ProblemKind.GUIDANCE_INCOMPLETE: _guidance_missing,
    ProblemKind.SOLVED_OUT_OF_RANGE: _out_of_range,
    ProblemKind.UNKNOWN_SUFFIX: lambda p: {
        "suffix": quote(p.ctx["suffix"]),
        "allowed": ", ".join(dict.fromkeys(p.ctx["allowed"])),
        "hint": texts.SUFFIX_HINTS.get(p.argument, "") if p.argument else "",
    },
    ProblemKind.GPUS_NOT_DIVISIBLE: lambda p: (
        _degrees(p) | {"fits": texts.either([number(v) for v in (p.ctx["below"], p.ctx["above"]) if v])}
    ),
    ProblemKind.DATA_PARALLEL_CONFLICT: _degrees,
    ProblemKind.TARGET_CONFLICT: _target_conflict,
    ProblemKind.ROLLOUT_INCOMPLETE: _missing,
    ProblemKind.SHAPE_INCOMPLETE: _missing_keys,
    ProblemKind.MOE_INCOMPLETE: _missing_keys,
    ProblemKind.SCALING_INCOMPLETE: _missing_keys,
    ProblemKind.UNKNOWN_CHOICE: lambda p: {"allowed": ", ".join(f"`{v}`" for v in p.ctx["allowed"])},
    ProblemKind.UNKNOWN_MODEL: lambda p: {"suggestions": texts.did_you_mean_run(p.ctx["suggestions"])},
    ProblemKind.TIME_KEYS_CONFLICT: lambda p: {"keys": list_de(f"`{k}=`" for k in p.ctx["keys"])},
    ProblemKind.MINI_NOT_DIVIDING: lambda p: _mini_fits(p),
    ProblemKind.ROLLOUT_NOT_DIVISIBLE: lambda p: _mini_fits(p),
}
