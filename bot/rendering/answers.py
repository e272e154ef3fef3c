"""From command text to the answer's document: parse, compute, say it. Pure.

One composition per kind of answer: a plan (B and T, with whatever was derived), a
target that whole numbers do not reach (the nearest options), a comparison; errors in
``problems``, the help in ``help``.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation

from effbatch.bot.document import (
    Answer,
    AnswerKind,
    Bullet,
    Columns,
    Divider,
    Document,
    Field,
    Fields,
    Formula,
    Note,
    Part,
    Section,
    Visibility,
)
from effbatch.bot.rendering import formulas
from effbatch.bot.rendering.formatting import byte_size, decimal, factor, number, readable, rounded, significant
from effbatch.bot.rendering.guidance import guidance_parts, laws_answer, runs_answer, schedule
from effbatch.bot.rendering.help import help_answer
from effbatch.bot.rendering.problems import error_answer
from effbatch.bot.rendering.whatif import comparison_choices, plan_choices
from effbatch.bot.texts import answers as texts
from effbatch.bot.texts import guidance as guidance_texts
from effbatch.bot.texts import memory as memory_texts
from effbatch.bot.texts.glossary import COMMAND, label, list_de
from effbatch.core import (
    FACTORS,
    Argument,
    CompareCommand,
    Comparison,
    GuidanceCommand,
    HelpRequest,
    InputError,
    Outcome,
    Plan,
    PlanCommand,
    RunComparison,
    RunComparisonCommand,
    RunsRequest,
    compare,
    compare_run,
    parse_command,
    plan,
)
from effbatch.core.memory import GPUS
from effbatch.core.model import BinaryTarget, PlanRequest, Solution
from effbatch.core.rules import memory_only
from effbatch.core.runs import PublishedRun
from effbatch.core.scaling_command import ScalingCommand


def answer_command(text: str, default_visibility: Visibility, *, command: str = COMMAND) -> Answer:
    """The answer to ``text``: its kind and its document (``prüfe …`` checks a pasted config).

    ``command`` is the surface's spelling of the command (``effbatch`` in a terminal), chosen here, as the
    document is built. Any text is answered: lone surrogates (valid in Slack's JSON) become U+FFFD first.
    """
    text = readable(text)
    if text.lstrip()[:5].casefold() in _CHECK_STARTS:
        # Only a check reads configs (YAML, 22 frameworks): imported when the command may be one.
        from effbatch.bot.rendering.checks import check_reply
        from effbatch.core.check_command import check_request, is_check

        if is_check(text):
            return check_reply(check_request(text), default_visibility).answer
    try:
        match parsed := parse_command(text):
            case HelpRequest(keys=keys, topic=topic):
                return help_answer(default_visibility, keys=keys, topic=topic, command=command)
            case PlanCommand(request=request, private=private, planner=True):
                from effbatch.bot.rendering.plan import plan_answer

                return plan_answer(request, _visibility(private, default_visibility), command)
            case PlanCommand(request=request, private=private):
                return _plan_answer(request, _visibility(private, default_visibility), command)
            case CompareCommand(before=before, after=after, lr=lr, private=private):
                shown = comparison_document(compare(before, after, lr), _visibility(private, default_visibility))
                return Answer(AnswerKind.COMPARISON, shown)
            case RunsRequest(query=query, private=private):
                return runs_answer(query, _visibility(private, default_visibility), command)
            case GuidanceCommand(private=private):
                return laws_answer(parsed, _visibility(private, default_visibility), command)
            case ScalingCommand(request=request, private=private):
                return _scaling_answer(request, _visibility(private, default_visibility))
            case RunComparisonCommand(before=before, run=run, lr=lr, private=private):
                document = run_comparison_document(
                    compare_run(before, run, lr), _visibility(private, default_visibility)
                )
                return Answer(AnswerKind.COMPARISON, document)
    except InputError as error:
        return error_answer(error, command)


def _scaling_answer(request: PlanRequest, visibility: Visibility) -> Answer:
    """The data-parallel table (its module and the time model loaded when a scaling question is asked)."""
    from effbatch.bot.rendering.scaling import scaling_reply

    return scaling_reply(request, visibility).answer


def _plan_answer(request: PlanRequest, visibility: Visibility, command: str) -> Answer:
    """One setup: the memory alone where B's factors are missing, else B (solved, or the nearest options)."""
    if memory_only(request):  # the memory and time model and its renderer load where memory is asked
        from effbatch.bot.rendering.memory import memory_document
        from effbatch.core.training import assess

        if (found := assess(request, None)) is not None:
            return Answer(AnswerKind.MEMORY, memory_document(request, found, visibility, command))
    result = plan(request)
    kind = AnswerKind.CALCULATION if result.solution is None else AnswerKind.SOLVE
    if not result.exact:
        kind = AnswerKind.OPTIONS
    return Answer(kind, plan_document(result, visibility, command))


#: How every check word begins (prüfe, pruefe, prüfen, check); anything else is no check.
_CHECK_STARTS = frozenset({"prüfe", "pruef", "check"})


def _visibility(private: bool, default: Visibility) -> Visibility:
    return Visibility.EPHEMERAL if private else default


# --- plans --------------------------------------------------------------------------------


def plan_document(plan: Plan, visibility: Visibility, command: str = COMMAND) -> Document:
    """The answer to one setup: B (and T) with every derived value broken down, and what-if choices."""
    if plan.outcome is None:
        return _unreachable_document(plan, visibility)
    outcome = plan.outcome
    parts: list[Part] = [_input_fields(plan)]
    if plan.solution is not None:
        parts.append(_solution_section(plan, plan.solution))
    elif plan.target is not None and not plan.request.rollout_given:
        met = texts.TARGET_MET_TITLE.format(symbol=plan.target.argument.symbol, value=number(plan.target.value))
        parts.append(Section(title=met, lines=(texts.TARGET_MET,)))
    batch = texts.SEQUENCES.format(formula=formulas.batch(outcome))
    parts += [
        Section(title=texts.GLOBAL_BATCH_TITLE, lines=(Formula(batch),)),
        *_rollout_sections(outcome),
        _token_section(outcome, command),
        *_derived_sections(outcome),
        *guidance_parts(plan, command),
        *_memory(plan, outcome, command),
        *_notes(plan.request.model_parallel_given, outcome.tokens_per_step is not None),
    ]
    return Document(
        title=texts.RESULT_TITLE.format(batch=number(outcome.global_batch)),
        summary=_summary(outcome),
        visibility=visibility,
        parts=tuple(parts),
        choices=plan_choices(plan),
    )


def _memory(plan: Plan, outcome: Outcome, command: str) -> tuple[Part, ...]:
    """„Speicher je GPU“ and „Trainingszeit“ where the model or a memory key is given."""
    if plan.request.training is None:
        return ()
    from effbatch.bot.rendering.memory import memory_parts
    from effbatch.core.training import assess

    if (found := assess(plan.request, outcome)) is None:
        return ()
    if found.time is None:
        return memory_parts(found, command)
    from effbatch.bot.rendering.scaling import scaling_brief  # the time model: where a time is answered

    parts = memory_parts(found, command)
    notes = next((i for i, part in enumerate(parts) if isinstance(part, Note)), len(parts))  # before the small print
    return (*parts[:notes], *scaling_brief(plan.request, command), *parts[notes:])


def _notes(parallel: bool, tokens: bool, *first: str) -> tuple[Note, ...]:
    """The small print that applies: what d counts (where GPUs or degrees were given), packed sequences (with T)."""
    lines = [*first, *((texts.PARALLEL_NOTE,) if parallel else ()), *((texts.PACKED_NOTE,) if tokens else ())]
    return (Note(" ".join(lines)),) if lines else ()


def _summary(outcome: Outcome) -> str:
    """The notification: 'Effektive Batch-Größe: 2.048 Sequenzen, ≈ 8,4 Mio. Tokens je Optimierer-Schritt'."""
    batch = number(outcome.global_batch)
    if outcome.tokens_per_step is None:
        return texts.SUMMARY.format(batch=batch)
    reading = rounded(outcome.tokens_per_step)
    tokens = texts.SUMMARY_ROUNDED.format(reading=reading) if reading else number(outcome.tokens_per_step)
    return texts.SUMMARY_TOKENS.format(batch=batch, tokens=tokens)


def _input_fields(plan: Plan) -> Fields:
    """The values as understood: given, derived from the GPUs, or solved for (not shown while it has no value)."""
    request, reference = plan.request, plan.reference
    solved = plan.solution.argument if plan.solution else None
    fields = []
    for argument in (*FACTORS, Argument.SEQ_LEN):
        value = getattr(reference.setup, argument.value) if reference else request.value(argument)
        if value is None or (argument is solved and not plan.exact):
            continue
        mark = ""
        if argument is solved:
            mark = texts.SOLVED_MARK
        elif argument is Argument.DATA_PARALLEL and request.gpus is not None:
            mark = texts.DERIVED_MARK
        fields.append(Field(label(argument), number(value), mark))
    parallelism = reference.parallelism if reference else None
    if parallelism is not None:
        fields.append(Field(_devices_label(request), number(parallelism.gpus)))
        shown = formulas.degrees((parallelism.tp, parallelism.pp, parallelism.cp, parallelism.sp))
        fields.append(Field(texts.MODEL_PARALLEL_FIELD, shown))
    if plan.target is not None and not request.rollout_given:
        fields.append(Field(label(plan.target.argument), number(plan.target.value)))
    rollout = (Argument.PROMPTS, Argument.SAMPLES, Argument.MINI, Argument.EPOCHS)
    fields += [Field(label(a), number(v)) for a in rollout if (v := request.value(a)) is not None]
    if request.budget is not None:
        fields.append(Field(label(Argument.BUDGET), number(request.budget)))
    if request.activation_per_sample is not None:
        fields.append(Field(label(Argument.ACTIVATION), byte_size(request.activation_per_sample)))
    return Fields(tuple(fields))


def _devices_label(request: PlanRequest) -> str:
    """„GPUs gesamt“, or „Chips gesamt“ where the accelerator asked about is a TPU."""
    training = request.training
    chips = training is not None and training.gpu is not None and GPUS[training.gpu].chip
    return memory_texts.DEVICE_WORDS[chips]["counted"] if chips else label(Argument.GPUS)


def _rollout_sections(outcome: Outcome) -> tuple[Section, ...]:
    """A rollout: P · n sequences, B = mini · n, and k = P / mini · epochs optimizer steps."""
    rollout = outcome.rollout
    if rollout is None:
        return ()
    values = {
        "prompts": number(rollout.prompts),
        "samples": number(rollout.samples),
        "sequences": number(rollout.sequences),
        "mini": number(rollout.mini),
        "batch": number(rollout.mini_sequences),
        "epochs": number(rollout.epochs),
        "steps": number(rollout.optimizer_steps),
    }
    formulas_shown = tuple(Formula(line.format(**values), remark) for line, remark in texts.ROLLOUT_LINES)
    return (Section(title=texts.ROLLOUT_TITLE, lines=(*formulas_shown, texts.ROLLOUT_NOTE)),)


def _token_section(outcome: Outcome, command: str) -> Section:
    formula = formulas.tokens(outcome)
    if formula is None or outcome.tokens_per_step is None:
        return Section(title=texts.TOKENS_HINT_TITLE, lines=(texts.TOKENS_HINT.format(command=command),))
    reading = rounded(outcome.tokens_per_step)
    remark = texts.TOKENS_ROUNDED.format(reading=reading) if reading else ""
    return Section(title=texts.TOKENS_TITLE, lines=(Formula(texts.TOKENS.format(formula=formula), remark),))


def _solution_section(plan: Plan, solution: Solution) -> Section:
    title = texts.SOLVED_TITLE.format(label=label(solution.argument))
    return Section(title=title, lines=(Formula(formulas.solution(plan, solution)),))


def _derived_sections(outcome: Outcome) -> list[Section]:
    """GPUs ↔ d, optimizer steps for a budget, activation memory: each where it applies."""
    sections = []
    if outcome.parallelism is not None:
        title = texts.GPUS_TITLE if outcome.parallelism.gpus_given else texts.GPUS_DERIVED_TITLE
        formula = formulas.data_parallel(outcome.parallelism, outcome.setup.data_parallel)
        sections.append(Section(title=title, lines=(Formula(formula),)))
    if (steps := formulas.optimizer_steps(outcome)) is not None and outcome.budget is not None:
        reading = rounded(outcome.budget)
        remark = texts.BUDGET_READING.format(reading=reading) if reading else ""
        sections.append(Section(title=texts.BUDGET_TITLE, lines=(Formula(steps, remark),)))
    if (memory := formulas.activation(outcome)) is not None:
        sections.append(Section(title=texts.ACTIVATION_TITLE, lines=(Formula(memory), _activation_note(outcome))))
    return sections


def _unreachable_document(plan: Plan, visibility: Visibility) -> Document:
    """A target whole numbers miss: the division, then the nearest feasible values below and above."""
    solution = plan.solution
    if solution is None:
        msg = "only a solved-for factor can miss its target"
        raise ValueError(msg)
    solved, target = solution.argument, solution.target
    explanation = texts.UNREACHABLE_EXPLANATION_ONE if len(plan.options) == 1 else texts.UNREACHABLE_EXPLANATION
    lines: list[str | Bullet] = [
        explanation.format(symbol=solved.symbol, quotient=formulas.quotient(solution.quotient))
    ]
    lines += [Bullet(_option_line(option, solved)) for option in plan.options]
    if smaller := _smaller_factors(plan, solution):
        lines.append(smaller)
    if plan.binary is not None:
        lines.append(_binary_hint(plan.binary, target.argument.key, solved.symbol))
    shown = f"{target.argument.symbol} = {number(target.value)}"
    choices = [
        texts.UNREACHABLE_CHOICE.format(
            symbol=solved.symbol, value=number(getattr(o.setup, solved.value)), batch=number(o.global_batch)
        )
        for o in plan.options
    ]
    tokens = any(o.tokens_per_step is not None for o in plan.options)
    return Document(
        title=texts.UNREACHABLE_TITLE.format(symbol=target.argument.symbol, value=number(target.value)),
        summary=texts.UNREACHABLE_SUMMARY.format(target=shown, choices=list_de(choices, texts.OR)),
        visibility=visibility,
        parts=(
            _input_fields(plan),
            _solution_section(plan, solution),
            Section(lines=tuple(lines)),
            *_notes(plan.request.model_parallel_given, tokens),
        ),
        choices=plan_choices(plan),
    )


def _binary_hint(binary: BinaryTarget, key: str, symbol: str) -> str:
    """The target read as a binary size (``T=8M`` meant 8 Mi): the value it gives and what it solves to."""
    return texts.BINARY_HINT.format(
        key=key, binary=binary.text, value=number(binary.value), symbol=symbol, solved=number(binary.solved)
    )


def _option_line(option: Outcome, solved: Argument) -> str:
    """One nearest feasible value: ``a = 1`` → B = 512 (, T = …, … Schritte)."""
    line = texts.OPTION.format(
        symbol=solved.symbol, value=number(getattr(option.setup, solved.value)), batch=number(option.global_batch)
    )
    if option.tokens_per_step is not None:
        line += texts.OPTION_TOKENS.format(tokens=number(option.tokens_per_step))
    if option.optimizer_steps is not None:
        line += texts.OPTION_STEPS.format(steps=number(option.optimizer_steps))
    return line


def _activation_note(outcome: Outcome) -> str:
    """Why accumulation costs no memory – unless a pipeline keeps several micro-batches in flight."""
    pp = outcome.parallelism.pp if outcome.parallelism else 1
    in_flight = min(pp, outcome.setup.accumulation)
    if in_flight <= 1:
        return texts.ACTIVATION_NOTE
    return texts.ACTIVATION_NOTE_PIPELINE.format(pp=number(pp), in_flight=number(in_flight))


#: One option at least this many times the target: the factors given are too large for it.
FAR_OFF = 2


def _smaller_factors(plan: Plan, solution: Solution) -> str | None:
    """``b=8 d=64 B=100``: a = 1 already gives 512; the largest smaller b or d that stays below the target."""
    if len(plan.options) != 1 or solution.argument not in FACTORS:
        return None
    option, target = plan.options[0], solution.target
    wanted = target.value // target.per_sequence  # the target as a number of sequences
    if option.global_batch < FAR_OFF * max(wanted, 1):
        return None
    given = {a: getattr(option.setup, a.value) for a in FACTORS if a is not solution.argument}
    shown = []
    for argument, value in given.items():
        others = math.prod(v for a, v in given.items() if a is not argument)
        smaller = wanted // others
        if 1 <= smaller < value:
            shown.append(
                texts.SMALLER_OPTION.format(
                    symbol=argument.symbol, value=number(smaller), batch=number(smaller * others)
                )
            )
    return texts.SMALLER_FACTORS.format(options=list_de(shown, texts.OR)) if shown else None


# --- comparisons ------------------------------------------------------------------------------


def _side_column(title: str, plan: Plan, outcome: Outcome) -> Section:
    setup = outcome.setup
    values = ", ".join(
        f"{a.symbol} = {number(v)}" for a in (*FACTORS, Argument.SEQ_LEN) if (v := getattr(setup, a.value)) is not None
    )
    lines = [values, f"B = {number(outcome.global_batch)}"]
    if (rollout := outcome.rollout) is not None:
        shown = (rollout.prompts, rollout.samples, rollout.mini, rollout.optimizer_steps)
        lines.append(texts.ROLLOUT_COLUMN.format(*(number(v) for v in shown)))
    if outcome.tokens_per_step is not None:
        lines.append(f"T = {number(outcome.tokens_per_step)}")
    if plan.solution is not None:
        lines.append(f"{plan.solution.argument.symbol} {texts.SOLVED_MARK}")
    return Section(title=title, lines=tuple(lines))


def _derived_formulas(plan: Plan, outcome: Outcome) -> tuple[Formula, ...]:
    """Every value of one side that was derived rather than given, as its formula."""
    found = []
    if outcome.parallelism is not None:
        found.append(formulas.data_parallel(outcome.parallelism, outcome.setup.data_parallel))
    if plan.solution is not None:
        found.append(formulas.solution(plan, plan.solution))
    found += [f for f in (formulas.optimizer_steps(outcome), formulas.activation(outcome)) if f is not None]
    return tuple(Formula(f) for f in found)


def comparison_document(comparison: Comparison, visibility: Visibility) -> Document:
    """Both setups, k = B₂ / B₁ and the learning-rate rules, with a warmup warning from k ≥ 8 on."""
    before, after = comparison.before, comparison.after
    k, sqrt_k = formulas.quotient(comparison.factor), factor(comparison.sqrt_factor)
    sides = ((texts.BEFORE, comparison.before_plan, before), (texts.AFTER, comparison.after_plan, after))
    parts: list[Part] = [Columns(tuple(_side_column(title, side, outcome) for title, side, outcome in sides))]
    for title, side_plan, outcome in sides:
        if derived := _derived_formulas(side_plan, outcome):
            parts.append(Section(title=texts.DERIVED_TITLE.format(side=title), lines=derived))
    k_formula = formulas.factor(comparison.factor, before.global_batch, after.global_batch)
    parts.append(Section(title=texts.FACTOR_TITLE, lines=(Formula(k_formula),)))
    parts += _learning_rate_sections(comparison, factor(comparison.factor), sqrt_k)
    if comparison.factor >= 8:
        parts.append(Section(title=texts.WARMUP_TITLE, lines=(texts.WARMUP_WARNING,), warning=True))
    parallel = any(side.request.model_parallel_given for _, side, _ in sides)
    tokens = before.tokens_per_step is not None or after.tokens_per_step is not None
    parts += [Divider(), *_notes(parallel, tokens, texts.RULES_OF_THUMB)]
    numbers = {"factor": k, "before": number(before.global_batch), "after": number(after.global_batch)}
    return Document(
        title=texts.COMPARISON_TITLE.format(**numbers),
        summary=texts.COMPARISON_SUMMARY.format(**numbers, sqrt=sqrt_k),
        visibility=visibility,
        parts=tuple(parts),
        choices=comparison_choices(comparison),
    )


def _learning_rate_sections(comparison: Comparison, k: str, sqrt_k: str) -> tuple[Section, ...]:
    """The two scaling rules, with the new learning rates where one was given (else a hint how)."""
    if comparison.factor == 1:
        return (Section(title=texts.LR_TITLE, lines=(texts.LR_UNCHANGED,)),)
    rates = comparison.lr
    if rates is None:
        pairs = ((texts.LR_LINEAR, k), (texts.LR_SQRT, sqrt_k))
        rules = [texts.LR_RULE.format(rule=rule, factor=factor) for rule, factor in pairs]
        return (Section(title=texts.LR_TITLE, lines=(*(Bullet(rule) for rule in rules), texts.LR_HINT)),)
    base = significant(rates.base)
    rules = [
        _scaled(texts.LR_LINEAR, base, k, significant(rates.linear)),
        _scaled(texts.LR_SQRT, base, sqrt_k, significant(rates.sqrt)),
    ]
    return (Section(title=texts.LR_TITLE, lines=tuple(Bullet(rule) for rule in rules)),)


def _scaled(rule: str, base: str, factor_shown: str, scaled: str) -> str:
    """„0,0003 × 8 = 0,0024“, but „0,0003 × 0,354 ≈ 0,000106“: „=“ only where the shown numbers multiply exactly."""

    def value(shown: str) -> Decimal:
        return Decimal(shown.replace(".", "").replace(",", "."))

    try:
        exact = value(base) * value(factor_shown) == value(scaled)
    except InvalidOperation:  # a factor shown cut short („0,03…“) is no exact number
        exact = False
    equals = texts.EXACT if exact else texts.ROUNDED
    return texts.LR_RULE_SCALED.format(rule=rule, base=base, factor=factor_shown, equals=equals, scaled=scaled)


# --- a setup compared with a published run ----------------------------------------------------


def run_comparison_document(compared: RunComparison, visibility: Visibility) -> Document:
    """Like a comparison, with the run's last phase as the second setup, its schedule, learning rate and source."""
    comparison, run = compared.comparison, compared.run
    before, after = comparison.before, comparison.after
    k = formulas.quotient(comparison.factor)
    lr = significant(run.lr) if run.lr is not None else guidance_texts.NO_LR
    mine = guidance_texts.RUN_BEFORE
    parts: list[Part] = [Columns((_side_column(mine, comparison.before_plan, before), _run_column(compared, lr)))]
    if derived := _derived_formulas(comparison.before_plan, before):
        parts.append(Section(title=texts.DERIVED_TITLE.format(side=mine), lines=derived))
    parts.append(_run_factor_section(comparison))
    parts += _learning_rate_sections(comparison, k, factor(comparison.sqrt_factor))  # as beside a setup: 0,707
    run_section = [guidance_texts.RUN_LR.format(title=run.title, lr=lr), *_schedule_line(run)]
    parts.append(Section(title=guidance_texts.RUN_TITLE, lines=tuple(run_section)))
    if comparison.factor >= 8:
        parts.append(Section(title=texts.WARMUP_TITLE, lines=(texts.WARMUP_WARNING,), warning=True))
    source = Note(guidance_texts.RUN_SOURCE.format(source=run.source))
    parts += [Divider(), source, *_notes(False, True, texts.RULES_OF_THUMB)]
    numbers = {"title": run.title, "factor": k, "before": number(before.global_batch)}
    numbers["after"] = number(after.global_batch)
    return Document(
        title=guidance_texts.RUN_COMPARISON_TITLE.format(**numbers),
        summary=guidance_texts.RUN_COMPARISON_SUMMARY.format(**numbers, lr=lr),
        visibility=visibility,
        parts=tuple(parts),
    )


def _run_column(compared: RunComparison, lr: str) -> Section:
    """The run's last phase: B, T, L and its peak learning rate."""
    after, run = compared.comparison.after, compared.run
    lines = [f"B = {number(after.global_batch)}", f"T = {number(after.tokens_per_step or 0)}"]
    lines += [f"L = {number(run.seq_len)}", guidance_texts.RUN_SIDE_LR.format(lr=lr)]
    return Section(title=guidance_texts.RUN_COLUMN.format(title=run.title), lines=tuple(lines))


def _run_factor_section(comparison: Comparison) -> Section:
    """k = B₂ / B₁, and the tokens per step beside it (sequence lengths may differ)."""
    before, after = comparison.before, comparison.after
    lines: list[str | Formula] = [Formula(formulas.factor(comparison.factor, before.global_batch, after.global_batch))]
    if before.tokens_per_step and after.tokens_per_step:
        ratio = decimal(after.tokens_per_step / before.tokens_per_step)
        shown = {"before": number(before.tokens_per_step), "after": number(after.tokens_per_step)}
        lines.append(guidance_texts.TOKENS_FACTOR.format(**shown, factor=ratio))
    return Section(title=texts.FACTOR_TITLE, lines=tuple(lines))


def _schedule_line(run: PublishedRun) -> tuple[str, ...]:
    shown = schedule(run)
    return (shown.removeprefix("; "),) if shown else ()
