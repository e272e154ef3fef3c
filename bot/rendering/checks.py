"""A config check as a document (Slack, console, CLI) and as the JSON ``effbatch check --json`` prints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from effbatch.bot.check_runner import CheckAborted, CheckRunner
from effbatch.bot.document import (
    Answer,
    AnswerKind,
    Bullet,
    Choice,
    Document,
    Field,
    Fields,
    Formula,
    Note,
    Section,
    Visibility,
)
from effbatch.bot.rendering.formatting import byte_size, decimal, number, quote, readable, rounded, size
from effbatch.bot.rendering.reads import reads
from effbatch.bot.texts import checks as texts
from effbatch.bot.texts.frameworks import _script as script_texts
from effbatch.bot.texts.glossary import COMMAND, list_de
from effbatch.core.check_command import CheckRequest, sources_of
from effbatch.core.configs import (
    Check,
    CheckError,
    Finding,
    Fix,
    Level,
    Phase,
    ProblemKind,
    Rollout,
    Since,
    Source,
    Step,
    Syntax,
    check_config,
)
from effbatch.core.configs.read import MAX_DIGITS, MAX_NESTING

#: Schedule phases listed one by one; the rest are counted.
MAX_PHASES_SHOWN = 8
#: Findings listed one by one; the rest are counted (a hostile config can trip a rule per key).
MAX_FINDINGS_SHOWN = 20
#: Items of a list a finding names (unknown keys, defaults) before „und 107 weitere“.
MAX_LISTED = 3
#: The framework's own message, quoted: at most this many characters (its lists shortened first; the longest
#: real one, accelerate's FSDP refusal, has 471).
MAX_QUOTED = 800
#: A text value of a rule's context (a key, a flag's value) as a finding shows it.
MAX_VALUE_SHOWN = 300
#: A quoted message with more comma-separated parts than this holds a list (its prose has a few commas at most).
MAX_QUOTED_PARTS = 10
#: Fixes offered one by one.
MAX_FIXES = 3
SHARE_ACTION = "check_share"


def check_answer(check: Check, visibility: Visibility, share: str | None = None, *, command: str = COMMAND) -> Answer:
    """The answer to a check; ``share`` (a button value) adds "Im Thread teilen"; ``command`` as the user types it."""
    name = texts.FRAMEWORKS[check.framework]
    fields = _fields(check)
    parts: list[Any] = [fields] if fields.fields else []
    if check.rl is not None:
        parts.append(_rollout_fields(check.rl))
    if check.steps:
        formulas = tuple(Formula(formula(step)) for step in check.steps)
        parts.append(Section(title=texts.DERIVED_TITLE.format(framework=name.subject), lines=formulas))
    if check.findings:
        parts.append(Section(title=texts.FINDINGS_TITLE, lines=_findings(check)))
    if check.schedule:
        parts.append(Section(title=texts.SCHEDULE_TITLE, lines=_schedule(check.schedule, check.seq_len)))
    if check.shape is not None and (estimate := check.estimate()) is not None:
        # the laws' section shares the calculator's rendering (pydantic models): imported only where it is shown
        from effbatch.bot.rendering.guidance import shape_parts

        shape = check.shape
        parts.extend(shape_parts(estimate, shape.layers, shape.hidden, shape.steps, command))
    if check.memory is not None:
        from effbatch.bot.rendering.check_memory import check_memory_parts  # core.memory: only for a check with a model

        parts.extend(check_memory_parts(check.memory, command, chips=check.framework in texts.DEVICES_BY_FRAMEWORK))
    if check.read:
        parts.append(Section(title=texts.READ_TITLE, lines=reads(check)))
    parts.append(Note(_note(check, name)))
    choices = (Choice(texts.SHARE, SHARE_ACTION, share),) if share else ()
    document = Document(
        title=_title(check, name),
        summary=_summary(check, name),
        visibility=visibility,
        parts=tuple(parts),
        choices=choices,
    )
    return Answer(AnswerKind.CHECK, document)


def _title(check: Check, name: texts.Name) -> str:
    """The heading follows the worst finding: refused, silently changed (both numbers), else the batch."""
    if check.refused:
        return texts.TITLE_FAILED.format(framework=name.title)
    if check.global_batch is not None and check.intended is not None:
        return texts.TITLE_DIFFERS.format(
            framework=name.title, batch=number(check.global_batch), intended=number(check.intended)
        )
    if check.global_batch is not None and not check.ok:
        return texts.TITLE_CHANGED.format(framework=name.title, batch=number(check.global_batch))
    if check.global_batch is not None:
        return texts.TITLE_OK.format(framework=name.title, batch=number(check.global_batch))
    return texts.TITLE_UNKNOWN.format(framework=name.title)


def _note(check: Check, name: texts.Name) -> str:
    """Whose rules; with T what it assumes: packed sequences, or for a rollout that L is only the longest."""
    note = texts.NOTE.format(framework=name.rules_of)
    if not check.tokens_per_step:
        return note
    return f"{note} {texts.NOTE_TOKENS_RL if check.rl is not None else texts.NOTE_TOKENS}"


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
    names = [str(n) for n in ctx.get("names", [ctx.get("name", "")])]
    fields["name"] = _source_name(names[0] if names else "")
    fields["in_name"] = _in_sources(names)
    fields["line"] = texts.UNREADABLE_LINE.format(line=ctx["line"]) if ctx.get("line") else ""
    fields["frameworks"] = texts.framework_list()[1]
    fields["how"] = texts.NOTHING_HOW_SLACK if slack else texts.NOTHING_HOW_CLI
    if error.kind is ProblemKind.UNSAFE:
        fields["detail"] = texts.UNSAFE_DETAILS.get(str(ctx.get("detail")), str(ctx.get("detail"))).format(**fields)
    if error.kind is ProblemKind.NOT_THIS_FRAMEWORK:
        forced = texts.FRAMEWORKS[str(ctx["framework"])]
        fields |= {
            "subject": forced.subject,
            "rules_of": forced.rules_of,
            "looks_for": texts.LOOKS_FOR[ctx["framework"]],
        }
    if error.kind is ProblemKind.WORLD_SIZE_NEEDED:
        fields |= _world_needed(str(ctx.get("framework")), slack)
    if error.kind is ProblemKind.TOO_LARGE:
        fields["max"] = byte_size(ctx["max"])
    if error.kind is ProblemKind.BAD_VALUE:
        fields["value"] = quote(str(ctx.get("value", "")))
    if error.kind is ProblemKind.UNKNOWN_SETTING:
        fields["why"] = _setting_unknown(ctx)
    if error.kind is ProblemKind.BAD_SETTING:
        fields["type"] = texts.SETTING_TYPES.get(str(ctx.get("type")), str(ctx.get("type")))
        fields["value"] = str(ctx.get("value", ""))
    if error.kind is ProblemKind.UNKNOWN_GPU:
        fields["gpu"] = quote(str(ctx.get("gpu", "")))
        fields["gpus"] = list_de(str(ctx.get("gpus", "")).split(", "))  # all of them, as the calculator names them
    if error.kind is ProblemKind.BAD_VALUE and "needs" in ctx:
        fields |= _unresolved(str(ctx["needs"]), slack)
    if error.kind is ProblemKind.UNREADABLE:
        # a reader that names the reason without its limit still gets a sentence with the number in it
        fields.setdefault("max", number(_READER_LIMITS.get(str(ctx.get("detail")), 0)))
    return _problem_template(error).format_map(fields)


def _setting_unknown(ctx: dict[str, Any]) -> str:
    """Why a ``--set`` name is not read, with the names the scripts do read."""
    files, known = str(ctx.get("files", "")), [str(name) for name in ctx.get("known", [])]
    if not files:
        return texts.SETTING_NO_SCRIPT
    setting = str(ctx.get("setting", ""))
    if not known:
        return texts.SETTING_UNKNOWN_NONE.format(setting=setting, files=files)
    return texts.SETTING_UNKNOWN.format(setting=setting, files=files, known=list_de(known, limit=MAX_LISTED))


def _world_needed(framework_id: str, slack: bool) -> dict[str, str]:
    """Whose world size is missing, what it counts (a TPU slice's chips) and how to give it."""
    framework = texts.FRAMEWORKS.get(framework_id)
    chips = framework_id in texts.DEVICES_BY_FRAMEWORK
    if chips:
        how = texts.WORLD_HOW_CHIPS_SLACK if slack else texts.WORLD_HOW_CHIPS_CLI
    else:
        how = texts.WORLD_HOW_SLACK if slack else texts.WORLD_HOW_CLI
    return {
        "framework": texts.accusative(framework.subject) if framework else "",
        "devices": texts.DEVICES_BY_FRAMEWORK.get(framework_id, texts.DEVICES),
        "launchers": texts.WORLD_LAUNCHERS_CHIPS if chips else texts.WORLD_LAUNCHERS,
        "how": how,
    }


def _unresolved(needs_text: str, slack: bool) -> dict[str, str]:
    """What a script's value depends on, and how to give it: a flag (``--set bs=8``) or a variable."""
    needs = [need.strip() for need in needs_text.split(",")]
    name = needs[0].rsplit(".", 1)[-1].lstrip("-$") or "wert"
    if needs[0].startswith("$"):
        how = texts.UNRESOLVED_HOW_ENV_SLACK if slack else texts.UNRESOLVED_HOW_ENV_CLI
    else:
        how = texts.UNRESOLVED_HOW_SLACK if slack else texts.UNRESOLVED_HOW_CLI
    return {"needs": list_de(f"`{need}`" for need in needs), "how": how.format(name=name)}


def _problem_template(error: CheckError) -> str:
    ctx = error.ctx
    if error.kind is ProblemKind.EMPTY and not ctx.get("name"):
        return texts.EMPTY_COMMAND
    if error.kind is ProblemKind.UNREADABLE:
        return texts.UNREADABLE_REASONS.get(str(ctx.get("detail")), texts.PROBLEMS[error.kind])
    if error.kind is ProblemKind.BAD_VALUE and "needs" in ctx:
        return texts.UNRESOLVED_SCRIPT
    if error.kind is ProblemKind.BAD_VALUE and ("$" in str(ctx.get("value", "")) or ctx.get("runtime")):
        return texts.UNRESOLVED
    if error.kind is ProblemKind.BAD_VALUE and "max" in ctx:
        return texts.TOO_BIG
    return texts.PROBLEMS[error.kind]


def _source_name(name: str) -> str:
    """A source as the subject of a sentence: „Der eingefügte Text“, „Codeblock 2“, „Die Datei „x.yaml““."""
    if name in ("", texts.PASTED):
        return texts.PASTED_SUBJECT
    if name.startswith(texts.BLOCK):
        return name
    return texts.FILE_SUBJECT.format(name=quote(name))


def _in_sources(names: list[str]) -> str:
    """„Im eingefügten Text“, „In Codeblock 2“, „In der Datei „x.yaml““; several: „In den Dateien „a“ und „b““."""
    if len(names) == 1 and names[0] in ("", texts.PASTED):
        return texts.IN_PASTED
    if len(names) == 1:
        name = names[0]
        if name.startswith(texts.BLOCK):
            return texts.IN_SEVERAL.format(names=name)
        return texts.IN_FILE.format(name=quote(name, keep_end=True))
    if all(name and name != texts.PASTED and not name.startswith(texts.BLOCK) for name in names):
        return texts.IN_FILES.format(names=list_de((quote(n, keep_end=True) for n in names), limit=MAX_LISTED))
    shown = (n if n.startswith(texts.BLOCK) else quote(n or texts.PASTED, keep_end=True) for n in names)
    return texts.IN_SEVERAL.format(names=list_de(shown, limit=MAX_LISTED))


#: The readers' limits, by the reason that names them (``core.configs.read.bounds``).
_READER_LIMITS = {"nesting": MAX_NESTING, "long_number": MAX_DIGITS}


def formula(step: Step) -> str:
    operands = [number(v) for v in step.operands]
    return texts.FORMULAS[step.derivation].format(*operands, r=number(step.result))


def finding_text(check: Check, finding: Finding) -> str:
    """The finding in German, the framework's own message quoted, the fix in the config's own syntax."""
    fields = {k: size(v) if k.endswith("_bytes") else _shown(v) for k, v in finding.fields().items()}
    if "file" in fields:  # a script named in a sentence: its name, the path is in the annotation
        fields["file"] = str(finding.fields()["file"]).rsplit("/", 1)[-1]
    text = _template(finding).format_map(fields)
    if finding.message:
        # the quote is inline code: a backtick of the framework's own (accelerate's `DataLoader`) would end it early
        message = _bounded_quote(finding.message.replace("\n", " ").replace("`", "'"))
        # the rule's framework says it (accelerate's refusal inside a Hugging Face Trainer run)
        speaker = texts.FRAMEWORKS.get(finding.code.split("/", 1)[0], texts.FRAMEWORKS[check.framework])
        quoted = texts.QUOTED_ASSERT if message.startswith("assert ") else texts.QUOTED  # LitGPT's bare asserts
        text += " " + quoted.format(framework=speaker.title, of=speaker.rules_of, message=message)
        text += "" if message.rstrip().endswith((".", "!", "?")) else "."  # one full stop, never two
    if finding.fix is not None:
        text += " " + fix_text(finding.fix, check.framework)
    if finding.unpinned is not None:
        text = _unpinned(finding.unpinned, text)
    return text


def _template(finding: Finding) -> str:
    """The finding's row, or its wording for the number of variants a script's branches have („beide“)."""
    values = finding.fields()
    count, refused = values.get("count"), values.get("refused")
    keys = [f"{finding.code}/{count}/{refused}", f"{finding.code}/{count}"]
    keys += [f"{finding.code}/all"] if refused is not None and refused == count else []
    return next((script_texts.COUNTED[k] for k in keys if k in script_texts.COUNTED), texts.FINDINGS[finding.code])


def _unpinned(since: Since, text: str) -> str:
    """A finding of some releases only, where no file pins the release: both sides said."""
    name = texts.FRAMEWORKS[since.package].title if since.package in texts.FRAMEWORKS else since.package
    # the change once: not again where the finding itself names it („TRL-PR #4847“)
    change = texts.UNPINNED_CHANGE.format(change=since.change) if since.change and since.change not in text else ""
    if since.since is not None:
        head = texts.UNPINNED_SINCE.format(framework=name, version=since.since, change=change)
        tail = texts.UNPINNED_OLDER
    else:
        head = texts.UNPINNED_UNTIL.format(framework=name, version=since.until, change=change)
        tail = texts.UNPINNED_NEWER
    return f"{head}{text} {tail.format(package=since.package)}"


def _findings(check: Check) -> tuple[Bullet | str, ...]:
    """Each finding a bullet, the first ``MAX_FINDINGS_SHOWN`` of them; the rest counted."""
    ordered = check.ordered()
    shown = ordered if len(ordered) <= MAX_FINDINGS_SHOWN + 1 else ordered[:MAX_FINDINGS_SHOWN]  # never „1 weitere“
    lines: list[Bullet | str] = [Bullet(_marked(f, finding_text(check, f))) for f in shown]
    if len(shown) < len(ordered):
        lines.append(texts.FINDINGS_MORE.format(count=len(ordered) - MAX_FINDINGS_SHOWN))
    return tuple(lines)


def _bounded_quote(message: str) -> str:
    """The framework's message with a long list in it shortened (its first items, the count, its last part) and
    the whole cut to ``MAX_QUOTED`` characters: nanotron names every unknown key, 110 of them."""
    parts = message.split(", ")
    if len(parts) > MAX_QUOTED_PARTS:
        rest = len(parts) - MAX_LISTED - 1
        message = ", ".join(parts[:MAX_LISTED]) + texts.QUOTED_MORE.format(count=rest) + parts[-1]
    return message if len(message) <= MAX_QUOTED else message[: MAX_QUOTED - 1] + "…"


def fix_text(fix: Fix, framework: str = "") -> str:
    """„Passend wäre: `global_train_batch_size: 1008` oder …“, or GPU counts (chips for MaxText's TPU slices)."""
    if fix.syntax is Syntax.WORLD:
        devices = texts.DEVICES_BY_FRAMEWORK.get(framework, texts.DEVICES)
        return texts.FIX_WORLD.format(fix=texts.FIX_OR.join(number(v) for v in fix.values[:MAX_FIXES]), devices=devices)
    shown = texts.FIX_OR.join(f"`{written}`" for written in fix.written()[:MAX_FIXES])
    if fix.section:
        shown = texts.FIX_SECTION.format(fix=shown, section=fix.section)
    return texts.FIX.format(fix=shown)


def _marked(finding: Finding, text: str) -> str:
    """'✖ Fehler: …' – the level in words and as a sign, for people (JSON has it as a field)."""
    level = finding.level
    return texts.FINDING_LINE.format(mark=texts.LEVEL_MARKS[level], level=texts.LEVELS[level], text=text)


def check_json(check: Check) -> dict[str, Any]:
    """``effbatch check --json``: built in core, the findings worded here (schema in schema/)."""
    return check.as_json(lambda finding: finding_text(check, finding).replace("`", ""))


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
    names = {**texts.FIELDS, **texts.FIELDS_BY_FRAMEWORK.get(check.framework, {})}
    if check.rl is not None:  # L is the longest prompt and answer: T only a bound
        names["tokens"] = texts.FIELD_TOKENS_RL
    return Fields(tuple(Field(names[key], number(value)) for key, value in values.items() if value is not None))


def _rollout_fields(rollout: Rollout) -> Fields:
    """P, n, P · n and k of a reinforcement-learning run; lengths and the token bound where the config fixes them."""
    steps = rollout.optimizer_steps
    values = {
        "prompts": number(rollout.prompts) if rollout.prompts is not None else None,
        "samples": number(rollout.samples) if rollout.samples is not None else None,
        "sequences": number(rollout.sequences) if rollout.sequences is not None else None,
        "steps": None if steps is None else number(int(steps)) if float(steps).is_integer() else decimal(steps),
        "prompt_len": number(rollout.prompt_len) if rollout.prompt_len is not None else None,
        "response_len": number(rollout.response_len) if rollout.response_len is not None else None,
        "token_bound": number(rollout.token_bound) if rollout.token_bound is not None else None,
    }
    return Fields(tuple(Field(texts.RL_FIELDS[key], value) for key, value in values.items() if value is not None))


def _summary(check: Check, name: texts.Name) -> str:
    framework = name.title
    errors = sum(f.level is Level.ERROR for f in check.findings)
    if check.refused:
        return texts.SUMMARY_FAILED.format(framework=framework, count=errors)
    if check.global_batch is not None and check.intended is not None:
        return texts.SUMMARY_DIFFERS.format(
            framework=framework, batch=number(check.global_batch), intended=number(check.intended)
        )
    if check.global_batch is None:
        return texts.SUMMARY_UNKNOWN.format(framework=framework)
    warnings = sum(f.level is Level.WARNING for f in check.findings)
    findings = texts.WARNINGS[warnings == 1].format(count=warnings) if warnings else texts.NO_FINDINGS
    tokens = check.tokens_per_step
    reading = (rounded(tokens) or number(tokens)) if tokens else None
    shown = texts.SUMMARY_TOKENS.format(tokens=reading) if reading else ""
    if check.rl is not None and check.rl.sequences is not None and check.rl.optimizer_steps is not None:
        steps = check.rl.optimizer_steps
        shown += texts.SUMMARY_ROLLOUT.format(
            sequences=number(check.rl.sequences),
            steps=number(int(steps)) if float(steps).is_integer() else decimal(steps),
        )
    return texts.SUMMARY_OK.format(
        framework=framework, batch=number(check.global_batch), tokens=shown, findings=findings
    )


def _schedule(phases: tuple[Phase, ...], seq_len: int | None) -> tuple[str, ...]:
    whole = len(phases) <= MAX_PHASES_SHOWN + 1  # never „1 weitere“: one more is shown instead
    shown = phases if whole else (*phases[: MAX_PHASES_SHOWN - 1], phases[-1])
    lines = []
    for phase in shown:
        until = ""
        if phase.samples is not None:
            tokens = texts.SCHEDULE_TOKENS.format(tokens=number(phase.samples * seq_len)) if seq_len else ""
            until = texts.SCHEDULE_UNTIL.format(
                samples=number(phase.samples), steps=number(phase.optimizer_steps or 0), tokens=tokens
            )
        lines.append(
            texts.SCHEDULE_PHASE.format(start=number(phase.start), batch=number(phase.global_batch), until=until)
        )
    if not whole:
        lines.insert(-1, texts.SCHEDULE_MORE.format(count=len(phases) - MAX_PHASES_SHOWN))
    return tuple(lines)


def _shortened(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return texts.READ_TRUE if value else texts.READ_FALSE
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):  # MaxText's per_device_batch_size: 0,25, not 0.25
        return decimal(value, "#,##0.######")
    return _listed(str(value))


def _listed(text: str) -> str:
    """A context's text as a finding names it: a list joined in core („a, b, c, …“) shortened to a few items and
    „und 107 weitere“, any text to ``MAX_VALUE_SHOWN`` characters."""
    items = text.split(", ")
    if len(items) > MAX_LISTED + 1:
        text = list_de(items, limit=MAX_LISTED)
    return text if len(text) <= MAX_VALUE_SHOWN else text[: MAX_VALUE_SHOWN - 1] + "…"


# --- a check asked for in text: /effbatch prüfe …, the message shortcut -------------------------


@dataclass(frozen=True)
class CheckReply:
    """The answer; ``needs_world`` names the framework when only the world size is missing (a form can ask)."""

    answer: Answer
    needs_world: str | None = None
    #: Nodes × GPUs per node to start the form from: what the config names, else one node of eight.
    world_guess: tuple[int, int] = (1, 8)


def pasted_sources(text: str) -> list[Source]:
    """The pasted text's sources, named in German."""
    return sources_of(text, texts.PASTED, texts.BLOCK)


def check_reply(
    request: CheckRequest,
    visibility: Visibility,
    share: Callable[[str], str | None] | None = None,
    runner: CheckRunner = check_config,
) -> CheckReply:
    """The answer to a check request, checked by ``runner`` (in a check process in the bot); ``share`` turns the
    config text into a share button's value (Slack)."""
    shown = Visibility.EPHEMERAL if request.private else visibility
    request = replace(request, text=readable(request.text))  # a lone surrogate from Slack's JSON: any text is checked
    if not request.text.strip():
        return CheckReply(problem_answer(CheckError(ProblemKind.EMPTY, name=""), slack=True))
    try:
        check = runner(pasted_sources(request.text), request.world, gpu=request.gpu)
    except CheckAborted as stopped:
        return CheckReply(aborted_answer(stopped))
    except CheckError as error:
        answer = problem_answer(error, slack=True)
        framework = error.ctx.get("framework")
        if error.kind is not ProblemKind.WORLD_SIZE_NEEDED or not isinstance(framework, str):
            return CheckReply(answer)
        return CheckReply(answer, framework, (error.ctx.get("nodes") or 1, error.ctx.get("per_node") or 8))
    value = share(request.text) if share else None
    return CheckReply(check_answer(check, shown, value))
