"""A config check as a document (Slack, console, CLI) and as the JSON ``effbatch check --json`` prints."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.check_runner import CheckAborted, CheckRunner
from bot.document import Answer, AnswerKind, Bullet, Choice, Document, Field, Fields, Formula, Note, Section, Visibility
from bot.rendering.formatting import byte_size, decimal, number, quote, rounded
from bot.texts import checks as texts
from core.configs import (
    Check,
    CheckError,
    Finding,
    Framework,
    Level,
    Phase,
    ProblemKind,
    Rule,
    Source,
    Step,
    World,
    check_config,
    clean,
)
from core.configs.reading import MAX_DIGITS, MAX_NESTING

#: Schedule phases listed one by one; the rest are counted.
MAX_PHASES_SHOWN = 8
#: Values read listed one by one (a section holds 3.000 characters); the rest are counted.
MAX_READS_SHOWN = 20
SHARE_ACTION = "check_share"


def check_answer(check: Check, visibility: Visibility, share: str | None = None) -> Answer:
    """The answer to a check; ``share`` (a button value) adds "Im Thread teilen"."""
    framework = texts.FRAMEWORKS[check.framework]
    errors = [f for f in check.findings if f.level is Level.ERROR]
    if errors and check.global_batch is not None:  # it trains, but not what the config says (OLMo's floor)
        title = texts.TITLE_DIFFERS.format(framework=framework, batch=number(check.global_batch))
    elif errors:
        title = texts.TITLE_FAILED.format(framework=framework)
    elif check.global_batch is not None:
        title = texts.TITLE_OK.format(framework=framework, batch=number(check.global_batch))
    else:
        title = texts.TITLE_UNKNOWN.format(framework=framework)
    fields = _fields(check)
    parts: list[Any] = [fields] if fields.fields else []
    if check.steps:
        formulas = tuple(Formula(formula(step)) for step in check.steps)
        parts.append(Section(title=texts.DERIVED_TITLE.format(framework=framework), lines=formulas))
    if check.findings:
        parts.append(
            Section(
                title=texts.FINDINGS_TITLE,
                lines=tuple(Bullet(_marked(f, finding_text(check, f))) for f in _ordered(check)),
            )
        )
    if check.schedule:
        parts.append(Section(title=texts.SCHEDULE_TITLE, lines=_schedule(check.schedule, check.seq_len)))
    if check.read:
        parts.append(Section(title=texts.READ_TITLE, lines=_reads(check)))
    parts.append(Note(texts.NOTE.format(framework=framework)))
    choices = (Choice(texts.SHARE, SHARE_ACTION, share),) if share else ()
    document = Document(
        title=title, summary=_summary(check, framework), visibility=visibility, parts=tuple(parts), choices=choices
    )
    return Answer(AnswerKind.CHECK, document)


def problem_answer(error: CheckError, slack: bool = False) -> Answer:
    """Why the config cannot be checked, in German, only to the caller."""
    text = problem_text(error, slack)
    document = Document(
        title=texts.PROBLEM_TITLE,
        summary=f"{texts.PROBLEM_TITLE}: {text}",
        visibility=Visibility.EPHEMERAL,
        parts=(Section(lines=(text,)), Note(texts.CHECK_USAGE)),
    )
    return Answer(AnswerKind.INPUT_ERROR, document)


def aborted_answer(stopped: CheckAborted) -> Answer:
    """A check stopped for its deadline, its memory or a full pool: what happened and what to do instead."""
    text = texts.ABORTED[stopped.reason].format(
        seconds=decimal(stopped.seconds),
        memory=byte_size(stopped.memory),
    )
    document = Document(
        title=texts.ABORTED_TITLE,
        summary=f"{texts.ABORTED_TITLE}: {text}",
        visibility=Visibility.EPHEMERAL,
        parts=(Section(lines=(text,)), Note(texts.ABORTED_HINT)),
    )
    return Answer(AnswerKind.INPUT_ERROR, document)


def problem_text(error: CheckError, slack: bool = False) -> str:
    ctx = dict(error.ctx)
    fields = {key: _shown(value) for key, value in ctx.items()}
    if "name" in ctx:
        fields["name"] = quote(str(ctx["name"]) or texts.PASTED)
    fields["names"] = ", ".join(quote(str(n) or texts.PASTED) for n in ctx.get("names", []))
    fields["line"] = texts.UNREADABLE_LINE.format(line=ctx["line"]) if ctx.get("line") else ""
    if error.kind is ProblemKind.UNSAFE:
        fields["detail"] = texts.UNSAFE_DETAILS.get(str(ctx.get("detail")), str(ctx.get("detail"))).format(**fields)
    if error.kind is ProblemKind.WORLD_SIZE_NEEDED:
        framework = ctx.get("framework")
        fields["framework"] = texts.FRAMEWORKS[framework] if isinstance(framework, Framework) else ""
        fields["how"] = texts.WORLD_HOW_SLACK if slack else texts.WORLD_HOW_CLI
    if error.kind is ProblemKind.TOO_LARGE:
        fields["max"] = byte_size(ctx["max"])
    if error.kind is ProblemKind.BAD_VALUE:
        fields["value"] = quote(str(ctx.get("value", "")))
    template = texts.PROBLEMS[error.kind]
    if error.kind is ProblemKind.UNREADABLE:
        template = texts.UNREADABLE_REASONS.get(str(ctx.get("detail")), template)
        # a reader that names the reason without its limit still gets a sentence with the number in it
        fields.setdefault("max", number(_READER_LIMITS.get(str(ctx.get("detail")), 0)))
    if error.kind is ProblemKind.BAD_VALUE and "$" in str(ctx.get("value", "")):
        template = texts.UNRESOLVED
    if error.kind is ProblemKind.BAD_VALUE and "max" in ctx:
        template = texts.TOO_BIG
    return template.format_map(fields)


#: The readers' limits, by the reason that names them (``core.configs.reading``).
_READER_LIMITS = {"nesting": MAX_NESTING, "long_number": MAX_DIGITS}


def formula(step: Step) -> str:
    operands = [number(v) for v in step.operands]
    return texts.FORMULAS[step.derivation].format(*operands, r=number(step.result))


def finding_text(check: Check, finding: Finding) -> str:
    """The finding in German, the framework's own message quoted, the nearest consistent values where there are some."""
    framework = texts.FRAMEWORKS[check.framework]
    text = texts.FINDINGS[finding.rule].format_map(_finding_fields(finding))
    if message := finding.ctx.get("message"):
        text += " " + texts.QUOTED.format(framework=framework, message=str(message).replace("\n", " "))
    if fix := _fix(finding):
        text += " " + texts.FIX.format(fix=fix)
    return text


def _marked(finding: Finding, text: str) -> str:
    """'✖ Fehler: …' – the level in words and as a sign, for people (JSON has it as a field)."""
    level = finding.level
    return texts.FINDING_LINE.format(mark=texts.LEVEL_MARKS[level], level=texts.LEVELS[level], text=text)


def check_json(check: Check) -> dict[str, Any]:
    """``effbatch check --json``: what the framework will use, ok, and the findings (schema in schema/)."""
    data: dict[str, Any] = {
        "framework": check.framework.value,
        "world_size": check.world.size if check.world else None,
        "data_parallel": check.data_parallel,
        "micro_batch": check.micro_batch,
        "accumulation": check.accumulation,
        "global_batch": check.global_batch,
        "seq_len": check.seq_len,
        "tokens_per_step": check.tokens_per_step,
        "ok": check.ok,
        "findings": [
            {"level": f.level.value, "code": f.code, "message": finding_text(check, f).replace("`", "")}
            for f in _ordered(check)
        ],
        "read": [{"key": r.key, "value": _json_value(r.value), "where": r.where} for r in check.read],
    }
    if check.schedule:
        data["schedule"] = [
            {
                "start_samples": p.start,
                "global_batch": p.global_batch,
                "samples": p.samples,
                "optimizer_steps": _steps(p),
            }
            for p in check.schedule
        ]
    return data


def _ordered(check: Check) -> list[Finding]:
    order = {Level.ERROR: 0, Level.WARNING: 1, Level.INFO: 2}
    return sorted(check.findings, key=lambda f: order[f.level])


def _fields(check: Check) -> Fields:
    values = {
        "world": check.world.size if check.world else None,
        "data_parallel": check.data_parallel,
        "micro_batch": check.micro_batch,
        "accumulation": check.accumulation,
        "global_batch": check.global_batch,
        "seq_len": check.seq_len,
        "tokens": check.tokens_per_step,
    }
    return Fields(tuple(Field(texts.FIELDS[key], number(value)) for key, value in values.items() if value is not None))


def _summary(check: Check, framework: str) -> str:
    errors = sum(f.level is Level.ERROR for f in check.findings)
    if errors:
        return texts.SUMMARY_FAILED.format(framework=framework, count=errors)
    if check.global_batch is None:
        return texts.TITLE_UNKNOWN.format(framework=framework)
    warnings = sum(f.level is Level.WARNING for f in check.findings)
    findings = texts.WARNINGS[warnings == 1].format(count=warnings) if warnings else texts.NO_FINDINGS
    tokens = check.tokens_per_step
    reading = (rounded(tokens) or number(tokens)) if tokens else None
    shown = texts.SUMMARY_TOKENS.format(tokens=reading) if reading else ""
    return texts.SUMMARY_OK.format(
        framework=framework, batch=number(check.global_batch), tokens=shown, findings=findings
    )


def _schedule(phases: tuple[Phase, ...], seq_len: int | None) -> tuple[str, ...]:
    shown = phases if len(phases) <= MAX_PHASES_SHOWN else (*phases[: MAX_PHASES_SHOWN - 1], phases[-1])
    lines = []
    for phase in shown:
        until = ""
        if phase.samples is not None:
            tokens = texts.SCHEDULE_TOKENS.format(tokens=number(phase.samples * seq_len)) if seq_len else ""
            until = texts.SCHEDULE_UNTIL.format(
                samples=number(phase.samples), steps=number(_steps(phase) or 0), tokens=tokens
            )
        lines.append(
            texts.SCHEDULE_PHASE.format(start=number(phase.start), batch=number(phase.global_batch), until=until)
        )
    if len(phases) > MAX_PHASES_SHOWN:
        lines.insert(-1, texts.SCHEDULE_MORE.format(count=len(phases) - MAX_PHASES_SHOWN))
    return tuple(lines)


def _reads(check: Check) -> tuple[Bullet | str, ...]:
    """Each value read and where from; long values shortened and a long list counted, so Slack takes the section."""
    lines: list[Bullet | str] = [
        Bullet(
            texts.READ_LINE.format(
                key=_shortened(r.key), value=_shortened(_shown(r.value)), where=_shortened(r.where, keep_end=True)
            )
        )
        for r in check.read[:MAX_READS_SHOWN]
    ]
    if len(check.read) > MAX_READS_SHOWN:
        lines.append(texts.READ_MORE.format(count=len(check.read) - MAX_READS_SHOWN))
    return tuple(lines)


def _shortened(text: str, limit: int = 80, *, keep_end: bool = False) -> str:
    """``text`` cut to ``limit`` characters; a place keeps its end (the file's name and line)."""
    if len(text) <= limit:
        return text
    return "…" + text[1 - limit :] if keep_end else text[: limit - 1] + "…"


def _steps(phase: Phase) -> int | None:
    return None if phase.samples is None else -(-phase.samples // phase.global_batch)


def _finding_fields(finding: Finding) -> dict[str, str]:
    fields = {key: _shown(value) for key, value in finding.ctx.items()}
    if finding.rule is Rule.DEEPSPEED_FILLED:
        fields["inexact"] = "" if finding.ctx.get("exact", True) else " (abgerundet)"
    if finding.rule is Rule.DEEPSPEED_AUTO_ALONE:
        fields["keys"] = ", ".join(finding.ctx.get("keys", []))
    if finding.rule is Rule.HF_AUTO_FILLED:
        fields["filled"] = ", ".join(f"{key} = {number(value)}" for key, value in finding.ctx.get("filled", []))
    if finding.rule is Rule.NANOGPT_DEFAULTS:
        pairs = zip(finding.ctx.get("keys", []), finding.ctx.get("values", []), strict=True)
        fields["defaults"] = ", ".join(f"{key} = {number(value)}" for key, value in pairs)
    return fields


#: The setting a fix names, per rule, where the nearest consistent values are multiples (below, above).
_FIX_NAMES = {
    Rule.MEGATRON_GBS: "--global-batch-size",
    Rule.MEGATRON_PHASE: "B",
    Rule.MEGATRON_WORLD: "GPUs",
    Rule.NEMO_GBS: "model.global_batch_size",
    Rule.NEMO_WORLD: "GPUs",
    Rule.TITAN_DIMS: "GPUs",
    Rule.TITAN_GBS: "training.global_batch_size",
    Rule.TITAN_TOKENS: "training.num_tokens_per_train_step",
    Rule.OLMO_FLOORED: "global_train_batch_size",
    Rule.DEEPSPEED_ASSERTION: "train_batch_size",
}


def _fix(finding: Finding) -> str | None:
    ctx = finding.ctx
    if finding.rule is Rule.DEEPSPEED_ASSERTION and (ctx.get("accumulation") or ctx.get("product")):
        options = []
        if ctx.get("accumulation"):
            options.append(f"gradient_accumulation_steps = {number(ctx['accumulation'])}")
        if ctx.get("product"):
            options.append(f"train_batch_size = {number(ctx['product'])}")
        return " oder ".join(options)
    if finding.rule is Rule.AXOLOTL_FLOORED:
        return f"batch_size = {number(ctx['real'])} oder {number(ctx['real'] + ctx['micro'])}"
    if finding.rule is Rule.NANOGPT_DIVISIBLE:
        world, accumulation = ctx["world"], ctx["accumulation"]
        below = accumulation // world * world
        values = [v for v in (below, below + world) if v >= 1]
        return "gradient_accumulation_steps = " + " oder ".join(number(v) for v in values)
    name = _FIX_NAMES.get(finding.rule)
    values = [ctx[k] for k in ("below", "above") if ctx.get(k)]
    if name is None or not values:
        return None
    joined = " oder ".join(number(v) for v in values)
    return f"{joined} {name}" if name == "GPUs" else f"{name} = {joined}"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if isinstance(value, int):
        return number(value)
    if isinstance(value, Framework):
        return texts.FRAMEWORKS[value]
    return str(value)


def _json_value(value: Any) -> Any:
    return value if isinstance(value, int | float | str | bool) or value is None else str(value)


# --- a check asked for in text: /effbatch prüfe …, the message shortcut -------------------------

#: The words that turn a command into a config check: /effbatch prüfe …
CHECK_WORDS = frozenset({"prüfe", "pruefe", "prüfen", "check"})
#: Leading settings a check takes before the pasted config.
_WORLD_KEYS = {"gpus": "world", "world": "world", "world_size": "world", "nodes": "nodes", "nnodes": "nodes"}
_PER_NODE_KEYS = frozenset({"gpus_per_node", "nproc_per_node", "per_node"})
_LEADING_WORD = re.compile(r"(\S+)\s*")
_FENCED = re.compile(r"```(?:[\w+-]*\n)?(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class CheckRequest:
    """What ``/effbatch prüfe …`` asks: the config text, a world size if given, privately or not."""

    text: str
    world: World | None = None
    private: bool = False


@dataclass(frozen=True)
class CheckReply:
    """The answer; ``needs_world`` names the framework when only the world size is missing (a form can ask)."""

    answer: Answer
    needs_world: Framework | None = None
    #: Nodes × GPUs per node to start the form from: what the config names, else one node of eight.
    world_guess: tuple[int, int] = (1, 8)


def is_check(text: str) -> bool:
    words = text.strip().split(None, 1)
    return bool(words) and words[0].casefold() in CHECK_WORDS


def check_request(text: str) -> CheckRequest:
    """``prüfe [gpus=64 | nodes=8 gpus_per_node=8] [privat] <config>`` split into its parts."""
    rest = _LEADING_WORD.sub("", text.strip(), count=1)  # the command word
    settings: dict[str, int] = {}
    private = False
    while match := _LEADING_WORD.match(rest):
        word = match.group(1)
        key, has_value, value = word.casefold().partition("=")
        if word.casefold() in ("privat", "private"):
            private = True
        elif has_value and value.isdigit() and (key in _WORLD_KEYS or key in _PER_NODE_KEYS):
            settings[_WORLD_KEYS.get(key, "per_node")] = int(value)
        else:
            break
        rest = rest[match.end() :]
    world = None
    if settings.get("world"):
        world = World(settings["world"], f"gpus={settings['world']}")
    elif settings.get("nodes") and settings.get("per_node"):
        size = settings["nodes"] * settings["per_node"]
        world = World(size, f"{settings['nodes']} × {settings['per_node']} GPUs")
    return CheckRequest(rest, world, private)


def sources_of(text: str) -> list[Source]:
    """Pasted text as sources: each code block one, plus a launch line outside them; or the whole text."""
    blocks = [block for block in _FENCED.findall(text) if block.strip()]
    if not blocks:
        return [Source(texts.PASTED, clean(text))]
    sources = [Source(f"{texts.BLOCK} {n}", clean(block)) for n, block in enumerate(blocks, start=1)]
    outside = _FENCED.sub("\n", text).strip()
    if "--" in outside:
        sources.append(Source(texts.PASTED, clean(outside)))
    return sources


def check_reply(
    request: CheckRequest,
    visibility: Visibility,
    share: Callable[[str], str | None] | None = None,
    runner: CheckRunner = check_config,
) -> CheckReply:
    """The answer to a check request, checked by ``runner`` (in a check process in the bot); ``share`` turns the
    config text into a share button's value (Slack)."""
    shown = Visibility.EPHEMERAL if request.private else visibility
    if not request.text.strip():
        return CheckReply(problem_answer(CheckError(ProblemKind.EMPTY, name=""), slack=True))
    try:
        check = runner(sources_of(request.text), request.world)
    except CheckAborted as stopped:
        return CheckReply(aborted_answer(stopped))
    except CheckError as error:
        answer = problem_answer(error, slack=True)
        framework = error.ctx.get("framework")
        if error.kind is not ProblemKind.WORLD_SIZE_NEEDED or not isinstance(framework, Framework):
            return CheckReply(answer)
        return CheckReply(answer, framework, (error.ctx.get("nodes") or 1, error.ctx.get("per_node") or 8))
    value = share(request.text) if share else None
    return CheckReply(check_answer(check, shown, value))
