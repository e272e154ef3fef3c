"""The „Einordnung“ beside a plan, the list of published runs, a setup compared with one. Pure.

The laws and the runs come from ``core.guidance`` and ``core.runs``; this module only says them.
"""

from __future__ import annotations

from effbatch.bot.document import Answer, AnswerKind, Bullet, Document, Formula, Line, Note, Part, Section, Visibility
from effbatch.bot.rendering.formatting import decimal, number, quote, reading, scientific, significant
from effbatch.bot.texts import guidance as texts
from effbatch.bot.texts.glossary import COMMAND, list_de
from effbatch.core.guidance import BatchRange, Guidance, ShapeEstimate, batch_range, guidance, plan_guidance
from effbatch.core.model import Plan
from effbatch.core.parser import GuidanceCommand
from effbatch.core.runs import RUNS, Phase, PublishedRun, filter_runs

#: Below these N and D are surely typos (7 parameters, 2 tokens): the answer asks whether 7B or 2T was meant.
TINY = 1000
#: A budget typed below this was more likely meant in T (2 → 2T), above it in B (300 → 300B).
BUDGET_IN_T_BELOW = 100
#: How N and D are written back into a command: the largest unit that divides them.
_UNITS = (("T", 10**12), ("B", 10**9), ("M", 10**6), ("k", 10**3))


def guidance_parts(plan: Plan, command: str = COMMAND) -> tuple[Part, ...]:
    """„Einordnung“ when ``params=`` and ``budget=`` are given; a hint when only ``params=`` is."""
    request, outcome = plan.request, plan.outcome
    if request.params is None or outcome is None:
        return ()
    found = plan_guidance(request.params, request.budget, outcome.tokens_per_step)
    if found is None:
        return (Section(title=texts.TITLE, lines=(texts.NEEDS_BUDGET.format(command=command),)),)
    return (Section(title=texts.TITLE, lines=_law_lines(found, command)), Note(texts.ESTIMATES))


def shape_parts(
    estimate: ShapeEstimate, layers: int, hidden: int, steps: int, command: str = COMMAND
) -> tuple[Part, ...]:
    """For a config check: N and D as formulas from the shape and length read, then the same „Einordnung“."""
    found = estimate.guidance
    per_step = found.tokens_per_step or 0
    lines: list[Line] = [
        Formula(
            texts.SHAPE_PARAMS.format(layers=number(layers), hidden=number(hidden), params=reading(found.params)),
            texts.SHAPE_PARAMS_NOTE.format(embedding=reading(estimate.embedding_params))
            if estimate.embedding_params
            else texts.SHAPE_PARAMS_NO_VOCAB,
        ),
        Formula(
            texts.SHAPE_TOKENS.format(steps=number(steps), per_step=number(per_step), tokens=reading(found.tokens))
        ),
        texts.SHAPE_ESTIMATED,
        *_law_lines(found, command, params_given=False),
    ]
    return (Section(title=texts.TITLE, lines=tuple(lines)), Note(texts.ESTIMATES))


def laws_answer(asked: GuidanceCommand, visibility: Visibility, command: str = COMMAND) -> Answer:
    """Only N and D (and L): the batch range between the two laws, in tokens and sequences, then the laws."""
    found = guidance(asked.params, asked.budget)
    found_range = batch_range(found, asked.seq_len)
    low, high = reading(found_range.low_tokens), reading(found_range.high_tokens)
    shown = _range_sequences(found_range)
    sequences = (
        texts.LAWS_SUMMARY_SEQUENCES.format(seq_len=number(asked.seq_len), low=shown[0], high=shown[1])
        if shown and asked.seq_len
        else ""
    )
    document = Document(
        title=texts.LAWS_TITLE.format(params=reading(asked.params), tokens=reading(asked.budget)),
        summary=texts.LAWS_SUMMARY.format(low=low, high=high, sequences=sequences),
        visibility=visibility,
        parts=(
            Section(title=texts.RANGE_TITLE, lines=_range_lines(found, found_range, command)),
            Section(title=texts.TITLE, lines=_law_lines(found, command, ratio=False)),
            Note(texts.ESTIMATES),
        ),
    )
    return Answer(AnswerKind.GUIDANCE, document)


def _range_sequences(found_range: BatchRange) -> tuple[str, str] | None:
    sequences = found_range.sequences
    return (number(sequences[0]), number(sequences[1])) if sequences else None


def _range_lines(found: Guidance, found_range: BatchRange, command: str) -> tuple[Line, ...]:
    """T between the estimates; with L, B in sequences and a power of two inside; what to type next."""
    typed = {"command": command, "params": _typed(found.params), "budget": _typed(found.tokens)}
    step, deep = reading(found.step_law.batch_tokens), reading(found.deepseek.batch_tokens)
    low, high = reading(found_range.low_tokens), reading(found_range.high_tokens)
    lines: list[Line] = [texts.RANGE_TOKENS.format(low=low, high=high, step=step, deepseek=deep)]
    shown, seq_len = _range_sequences(found_range), found_range.seq_len
    if shown is None or seq_len is None:
        lines.append(texts.RANGE_NEEDS_SEQ_LEN.format(**typed))
    else:
        remark = texts.RANGE_SEQUENCES_REMARK.format(seq_len=number(seq_len))
        lines.append(Formula(texts.RANGE_SEQUENCES.format(low=shown[0], high=shown[1]), remark))
        if (power := found_range.power_of_two) is not None:
            lines.append(texts.RANGE_POWER.format(sequences=number(power), tokens=reading(power * seq_len)))
    lines.append(texts.RANGE_NEXT.format(**typed))
    return tuple(lines)


def _typed(value: int) -> str:
    """7.000.000.000 → '7B', 2 · 10¹² → '2T': N and D as a command takes them back."""
    return next((f"{value // size}{unit}" for unit, size in _UNITS if value % size == 0), str(value))


def _tiny(found: Guidance) -> tuple[str, ...]:
    """`params=7`, `budget=2`: surely meant as 7B and 2T (or 300B); asked, never changed."""
    hints = []
    if found.params < TINY:
        hints.append(texts.TINY_PARAMS.format(value=found.params, shown=number(found.params)))
    if found.tokens < TINY:
        unit = "T" if found.tokens < BUDGET_IN_T_BELOW else "B"
        hints.append(texts.TINY_BUDGET.format(value=found.tokens, shown=number(found.tokens), unit=unit))
    return tuple(hints)


def _law_lines(found: Guidance, command: str, *, params_given: bool = True, ratio: bool = True) -> tuple[Line, ...]:
    step, deep = found.step_law, found.deepseek
    lines: list[Line] = [
        *_tiny(found),
        texts.INTRO.format(params=reading(found.params), tokens=reading(found.tokens)),
        Formula(texts.STEP_LAW_BATCH.format(tokens=number(found.tokens), batch=reading(step.batch_tokens))),
        Formula(texts.STEP_LAW_LR.format(lr=significant(step.lr))),
        *((texts.STEP_LAW_N,) if params_given else ()),
        _flops_line(found),
        Formula(texts.DEEPSEEK_COMPUTE.format(**_compute(found))),
        Formula(texts.DEEPSEEK_BATCH.format(batch=reading(deep.batch_tokens))),
        Formula(texts.DEEPSEEK_LR.format(lr=significant(deep.lr))),
    ]
    if found.ratio is not None and found.tokens_per_step is not None:
        lines.append(texts.RATIO.format(tokens=reading(found.tokens_per_step), ratio=decimal(found.ratio, "0.0#")))
    elif ratio:
        lines.append(texts.RATIO_NEEDS_SEQ_LEN)
    lines.append(texts.STEP_LAW_OUTSIDE if step.extrapolated else texts.STEP_LAW_INSIDE)
    outside = texts.DEEPSEEK_OUTSIDE if deep.extrapolated else texts.DEEPSEEK_INSIDE
    lines.append(outside.format(compute=scientific(found.compute)))
    if found.runs:
        lines.append(texts.RUNS_NEAR.format(command=command, name=found.runs[0].name))
        lines += [Bullet(_near(run)) for run in found.runs]
    return tuple(lines)


def _flops_line(found: Guidance) -> Formula:
    """Which M DeepSeek's law got: from the shape (its numbers filled in), or 6 · N, said as such."""
    flops = scientific(found.flops_per_token)
    shape = found.shape
    if shape is None:
        text = texts.DEEPSEEK_FLOPS_ESTIMATED.format(params=number(found.params), flops=flops)
        return Formula(text, texts.DEEPSEEK_FLOPS_ESTIMATED_NOTE)
    numbers = {"layers": number(shape.layers), "hidden": number(shape.hidden), "seq_len": number(shape.seq_len)}
    return Formula(texts.DEEPSEEK_FLOPS.format(flops=flops, **numbers), texts.DEEPSEEK_FLOPS_NOTE)


def _compute(found: Guidance) -> dict[str, str]:
    flops = scientific(found.flops_per_token)
    return {"flops": flops, "tokens": scientific(found.tokens), "compute": scientific(found.compute)}


def _near(run: PublishedRun) -> str:
    final = run.final
    return texts.RUN_NEAR.format(
        title=run.title,
        batch=reading(final.tokens_per_step),
        sequences=number(final.sequences or 0),
        seq_len=number(final.seq_len),
        lr=_lr(run),
    )


def _lr(run: PublishedRun) -> str:
    return significant(run.lr) if run.lr is not None else texts.NO_LR


# --- the list of runs -----------------------------------------------------------------------


def runs_answer(query: str | None, visibility: Visibility, command: str = COMMAND) -> Answer:
    """Every published run (or those matching ``query``), one line each, grouped by family.

    The typed filter is only quoted in the text, never in the title (a Slack header is not escaped).
    """
    found = filter_runs(query)
    if not found:
        families = list_de(dict.fromkeys(run.family for run in RUNS))
        none = texts.RUNS_NONE.format(query=quote(query or ""), families=families)
        document = Document(
            title=texts.RUNS_TITLE,
            summary=none,
            visibility=Visibility.EPHEMERAL,
            parts=(Section(lines=(none,)), Note(texts.RUNS_USAGE.format(command=command))),
        )
        return Answer(AnswerKind.RUNS, document)
    sections: list[Part] = []
    if query:
        shown = texts.RUNS_FILTER.format(query=quote(query), count=len(found), total=len(RUNS))
        sections.append(Section(lines=(shown,)))
    sections += [
        Section(title=family, lines=tuple(Bullet(run_line(run)) for run in found if run.family == family))
        for family in dict.fromkeys(run.family for run in found)
    ]
    document = Document(
        title=texts.RUNS_TITLE,
        summary=texts.RUNS_SUMMARY.format(count=len(found)),
        visibility=visibility,
        parts=(*sections, Note(texts.RUNS_USAGE.format(command=command))),
    )
    return Answer(AnswerKind.RUNS, document)


def run_line(run: PublishedRun) -> str:
    """'`llama2-7b` Llama 2 7B: 7 Mrd. Parameter, 2 Bio. Tokens, 4,2 Mio. Tokens je Schritt (…), Lernrate 0,0003'."""
    final = run.final
    active = texts.RUN_ACTIVE.format(active=reading(run.active_params)) if run.active_params is not None else ""
    return texts.RUN_LINE.format(
        name=run.name,
        title=run.title,
        params=reading(run.params),
        active=active,
        tokens=reading(run.tokens),
        batch=reading(final.tokens_per_step),
        sequences=number(final.sequences or 0),
        seq_len=number(final.seq_len),
        lr=_lr(run),
        schedule=schedule(run),
    )


def schedule(run: PublishedRun) -> str:
    """'; Batch-Größen-Plan …: 393.216 → linear bis 4,2 Mio. nach 20 Mrd. Tokens', or nothing for a constant batch."""
    first = run.phases[0]
    if len(run.phases) == 1:
        return texts.RAMP_UNKNOWN.format(start=reading(first.start_tokens)) if first.start_tokens else ""
    parts = [texts.PHASE_START.format(batch=reading(run.phases[0].tokens_per_step))]
    for before, phase in zip(run.phases, run.phases[1:], strict=False):
        parts.append(_phase(before, phase))
    return texts.SCHEDULE.format(phases=" → ".join(parts))


def _phase(before: Phase, phase: Phase) -> str:
    if phase.start_tokens is None:  # GPT-3: "over the first 4-12 billion tokens, depending on the model size"
        return texts.PHASE_RAMP_UNKNOWN.format(batch=reading(phase.tokens_per_step))
    template = texts.PHASE_RAMP if before.ramp else texts.PHASE_STEP
    return template.format(batch=reading(phase.tokens_per_step), start=reading(phase.start_tokens))
