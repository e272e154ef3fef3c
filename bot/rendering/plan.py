"""„Plan“: the fastest layouts that fit, said in German, and the memory answer's „Was hilft“ from the same search.

Computed once into a document (fields, one section a layout, why the obvious choice is slower or what
would fit, the assumptions as small print); Block Kit and the terminal lay it out alike.
"""

from __future__ import annotations

from effbatch.bot.document import (
    Answer,
    AnswerKind,
    Bullet,
    Document,
    Field,
    Fields,
    Formula,
    Line,
    Note,
    Part,
    Section,
    Visibility,
)
from effbatch.bot.rendering.formatting import german, launch_shown, number, percent, reading, seconds, size
from effbatch.bot.texts import memory as memory_texts
from effbatch.bot.texts import plan as texts
from effbatch.bot.texts.glossary import COMMAND
from effbatch.core.memory.step import StepPrediction
from effbatch.core.memory.time import DEFAULT_MFU
from effbatch.core.model import PlanRequest
from effbatch.core.plan_command import PlanIncompleteError, goal_of
from effbatch.core.planner import MARGIN, Candidate, Goal, Layout, Planned, PlanRefusedError, search


def plan_answer(request: PlanRequest, visibility: Visibility, command: str = COMMAND) -> Answer:
    """The answer to ``plane …``: the plan, or what it lacks, or why the input cannot be planned."""
    try:
        planned = search(goal_of(request))
    except (PlanIncompleteError, PlanRefusedError) as error:
        title, lines = _refused(error, command)
        return _refusal(title, lines)
    return Answer(AnswerKind.PLAN, plan_document(planned, visibility, command))


def plan_error(error: PlanIncompleteError | PlanRefusedError, command: str = COMMAND) -> str:
    """What a plan lacks or why it cannot be made, as one German text (``--json``'s ``error``)."""
    _, lines = _refused(error, command)
    return " ".join((line.text if isinstance(line, Bullet) else str(line)).replace("`", "") for line in lines)


def _refused(error: PlanIncompleteError | PlanRefusedError, command: str) -> tuple[str, tuple[Line, ...]]:
    if isinstance(error, PlanIncompleteError):
        needs = "; ".join(texts.NEEDED[need.value] for need in error.needed)
        return texts.INCOMPLETE_TITLE, (
            Bullet(texts.INCOMPLETE.format(missing=needs)),
            texts.EXAMPLE.format(command=command),
        )
    reasons = tuple(Bullet(texts.REFUSED[r.kind.value].format_map(dict(r.ctx))) for r in error.refusals)
    return texts.REFUSED_TITLE, reasons


def _refusal(title: str, lines: tuple[Line, ...]) -> Answer:
    first = lines[0].text if isinstance(lines[0], Bullet) else str(lines[0])
    document = Document(title, f"{title}: {first}", Visibility.EPHEMERAL, (Section(lines=lines),))
    return Answer(AnswerKind.INPUT_ERROR, document)


def plan_document(planned: Planned, visibility: Visibility, command: str = COMMAND) -> Document:
    """The plan: the fastest three, why the obvious choice is slower, or what would fit; the assumptions."""
    goal = planned.goal
    parts: list[Part] = [_fields(goal)]
    for rank, candidate in enumerate(planned.fastest, start=1):
        parts.append(_entry(goal, rank, candidate, command))
    if planned.fastest and planned.obvious is not None:
        parts.append(
            Section(
                title=texts.OBVIOUS_TITLE, lines=_obvious(planned.fastest[0], planned.obvious, _words(planned.goal))
            )
        )
    if planned.shortfall is not None:
        parts.append(Section(title=texts.NOTHING_TITLE, lines=shortfall_lines(planned, command), warning=True))
    parts += _notes(planned)
    title = texts.TITLE.format(
        what=_what(goal), gpus=number(goal.gpus), gpu=_gpu(goal), batch=number(goal.global_batch)
    )
    return Document(title=title, summary=_summary(planned), visibility=visibility, parts=tuple(parts))


def _what(goal: Goal) -> str:
    return goal.model.title or goal.model.name or texts.MODEL_FIELD


def _words(goal: Goal) -> dict[str, str]:
    """GPU or chip: the memory answer's words for the accelerator planned on (a TPU's devices are chips)."""
    return dict(memory_texts.DEVICE_WORDS[goal.gpu is not None and goal.gpu.chip])


def _gpu(goal: Goal) -> str:
    return goal.gpu.title if goal.gpu else size(goal.capacity)


def _summary(planned: Planned) -> str:
    goal = planned.goal
    if not planned.fastest:
        return texts.SUMMARY_NOTHING.format(gpus=number(goal.gpus), gpu=_gpu(goal))
    first = planned.fastest[0]
    if first.step is None:
        return texts.SUMMARY_NO_TIME.format(layout=layout_text(first.layout))
    return texts.SUMMARY.format(layout=layout_text(first.layout), seconds=seconds(first.step.step_seconds))


def _fields(goal: Goal) -> Fields:
    fields = [
        Field(texts.MODEL_FIELD, _what(goal)),
        Field(_words(goal)["devices"], number(goal.gpus)),
        Field(_words(goal)["accelerator"], _gpu(goal)),
        Field(texts.BATCH_FIELD, number(goal.global_batch)),
    ]
    if goal.seq_len is not None:
        fields.append(Field(texts.SEQ_LEN_FIELD, number(goal.seq_len)))
    if goal.budget is not None:
        fields.append(Field(texts.BUDGET_FIELD, reading(goal.budget)))
    return Fields(tuple(fields))


def layout_text(layout: Layout) -> str:
    """TP 8 · PP 4 (VPP 2) · CP 1 · ZeRO 1, selektive Neuberechnung."""
    return texts.LAYOUT.format(
        tp=layout.tp,
        pp=layout.pp,
        vpp=texts.LAYOUT_VPP.format(vpp=layout.vpp) if layout.vpp else "",
        cp=layout.cp,
        ep=texts.LAYOUT_EP.format(ep=layout.ep) if layout.ep > 1 else "",
        zero=layout.zero,
        recompute=texts.RECOMPUTE[layout.recompute.value],
    )


def _entry(goal: Goal, rank: int, candidate: Candidate, command: str) -> Section:
    setup = candidate.setup
    batch = setup.micro_batch * (setup.accumulation or 1) * setup.data_parallel
    lines: list[Line] = [
        Formula(
            texts.BATCH.format(
                micro=number(setup.micro_batch),
                accumulation=number(setup.accumulation or 1),
                data_parallel=number(setup.data_parallel),
                batch=number(batch),
            )
        ),
        Bullet(
            texts.MEMORY.format(
                total=size(candidate.fit.total),
                capacity=size(candidate.fit.capacity),
                free=size(candidate.fit.free),
                **_words(goal),
            )
        ),
    ]
    if candidate.step is not None:
        lines.append(Bullet(_step(candidate.step)))
    if candidate.train_days is not None and candidate.budget:
        days, hours = german(candidate.train_days, 1, keep_zeros=False), number(round(candidate.gpu_hours or 0))
        lines.append(
            Bullet(texts.BUDGET.format(budget=reading(candidate.budget), days=days, hours=hours, **_words(goal)))
        )
    if (keys := command_keys(goal, candidate)) is not None:
        lines.append(texts.TYPE_IT.format(command=command, keys=keys))
    return Section(title=texts.ENTRY_TITLE.format(rank=rank, layout=layout_text(candidate.layout)), lines=tuple(lines))


def _step(step: StepPrediction) -> str:
    shown = [
        texts.STEP_PART.format(part=texts.PARTS[part.value], seconds=seconds(value))
        for part, value in step.seconds.items()
        if value > 0
    ]
    return texts.STEP.format(
        seconds=seconds(step.step_seconds),
        parts=", ".join(shown),
        mfu=percent(step.mfu),
        rate=reading(step.tokens_per_second),
    )


def layout_keys(candidate: Candidate) -> str:
    """The layout as keys to type: ``tp=8 pp=4 vpp=2 zero=1 recompute=selective b=1 a=16``."""
    layout, setup = candidate.layout, candidate.setup
    keys = [f"tp={layout.tp}", f"pp={layout.pp}"]
    keys += [f"vpp={layout.vpp}"] if layout.vpp else []
    keys += [f"cp={layout.cp}"] if layout.cp > 1 else []
    keys += [f"ep={layout.ep}"] if layout.ep > 1 else []
    keys += [texts.SEQUENCE_PARALLEL_KEY] if setup.sequence_parallel else []
    keys += [f"zero={layout.zero}", f"recompute={layout.recompute.value}"]
    return " ".join([*keys, f"b={setup.micro_batch}", f"a={setup.accumulation or 1}"])


def command_keys(goal: Goal, candidate: Candidate) -> str | None:
    """The whole command answering ``candidate`` alone (None where the model or the GPU type has no name)."""
    if not goal.model.name or goal.gpu is None or goal.seq_len is None:
        return None
    budget = f" budget={_tokens(goal.budget)}" if goal.budget else ""
    return f"{goal.model.name} gpus={goal.gpus} gpu={goal.gpu.name} {layout_keys(candidate)} L={goal.seq_len}{budget}"


def _tokens(count: int) -> str:
    """A token count as typed: 15T, 300B, else the whole number."""
    for suffix, unit in (("T", 1000**4), ("B", 1000**3), ("M", 1000**2)):
        if count % unit == 0:
            return f"{count // unit}{suffix}"
    return str(count)


def _obvious(fastest: Candidate, obvious: Candidate, words: dict[str, str]) -> tuple[Line, ...]:
    """Why the simplest layout that fits is not first: its step against the fastest, part by part."""
    micro = number(obvious.setup.micro_batch)
    if obvious.step is None or fastest.step is None:
        return (texts.OBVIOUS_NO_TIME.format(layout=layout_text(obvious.layout), micro=micro),)
    if obvious.layout == fastest.layout:
        return (texts.OBVIOUS_IS_FASTEST.format(layout=layout_text(obvious.layout), micro=micro),)
    slower = obvious.step.step_seconds / fastest.step.step_seconds - 1
    said = texts.OBVIOUS_SLOWER.format(
        layout=layout_text(obvious.layout),
        micro=micro,
        seconds=seconds(obvious.step.step_seconds),
        percent=percent(slower),
        **words,
    )
    costs = _costlier_parts(fastest.step, obvious.step)
    return (said, texts.OBVIOUS_COSTS.format(parts=", ".join(costs)) if costs else texts.OBVIOUS_SAME_PARTS)


def _costlier_parts(fastest: StepPrediction, obvious: StepPrediction) -> list[str]:
    """The parts the obvious layout spends more on, the largest difference first (at most three)."""
    more = {part: value - fastest.seconds.get(part, 0.0) for part, value in obvious.seconds.items()}
    ranked = sorted((p for p, d in more.items() if d > 0.005), key=lambda p: -more[p])[:3]
    return [texts.OBVIOUS_COST.format(part=texts.PARTS[p.value], seconds=seconds(more[p])) for p in ranked]


def shortfall_lines(planned: Planned, command: str = COMMAND) -> tuple[Line, ...]:
    """Nothing fits: what would – the fewest GPUs of the card, a card with enough memory – or why B cannot split."""
    goal, short = planned.goal, planned.shortfall
    if short is None:
        return ()
    gpus, batch = number(goal.gpus), number(goal.global_batch)
    if not short.batch_splits:
        return (texts.NOTHING_BATCH.format(batch=batch, gpus=gpus),)
    lines: list[Line] = [
        texts.NOTHING.format(
            gpus=gpus, gpu=_gpu(goal), capacity=size(goal.capacity), reserve=percent(MARGIN), batch=batch
        )
    ]
    if short.fewest_gpus is not None:
        keys = _fewest_keys(goal, short.fewest_gpus)
        lines.append(Bullet(texts.FEWEST_GPUS.format(gpus=number(short.fewest_gpus), command=command, keys=keys)))
    else:
        from effbatch.core.planner.shortfall import MAX_DOUBLINGS

        lines.append(Bullet(texts.NO_GPUS.format(gpus=number(goal.gpus * 2**MAX_DOUBLINGS), batch=batch)))
    if short.memory_needed is not None:
        lines.append(Bullet(texts.MEMORY_NEEDED.format(size=size(short.memory_needed))))
    return tuple(lines)


def _fewest_keys(goal: Goal, gpus: int) -> str:
    model = goal.model.name or ""
    gpu = f" gpu={goal.gpu.name}" if goal.gpu else ""
    seq_len = f" L={goal.seq_len}" if goal.seq_len else ""
    return f"plane {model} gpus={gpus}{gpu} B={goal.global_batch}{seq_len}".replace("  ", " ")


def _notes(planned: Planned) -> tuple[Note, ...]:
    notes = [
        Note(texts.SEARCH_NOTE.format(layouts=number(planned.layouts), predicted=number(planned.predicted))),
        Note(texts.RESERVE_NOTE.format(reserve=percent(MARGIN), **_words(planned.goal))),
    ]
    steps = [c.step for c in planned.fastest if c.step is not None]
    if steps:
        notes += [Note(line) for line in _assumed(steps, planned.goal)]
    if planned.goal.gpu is None:
        notes.append(Note(texts.NO_TIME_NOTE))
    notes.append(Note(memory_texts.RULES_NOTE[planned.goal.base.rules.value]))
    return tuple(notes)


def advice_lines(planned: Planned, batch_given: bool, command: str = COMMAND) -> tuple[Line, ...]:
    """„Was hilft“: whole combinations that fit with B held (fastest first), or what would fit when none does."""
    if not planned.fastest:
        return shortfall_lines(planned, command)
    lines: list[Line] = []
    for candidate in planned.fastest:
        time = texts.ADVICE_TIME.format(seconds=seconds(candidate.step.step_seconds)) if candidate.step else ""
        lines.append(
            Bullet(texts.ADVICE_LINE.format(keys=layout_keys(candidate), total=size(candidate.fit.total), time=time))
        )
    held = texts.ADVICE_HELD if batch_given else texts.ADVICE_HELD_NO_A
    lines.append(held.format(batch=number(planned.goal.global_batch)))
    return tuple(lines)


def _assumed(steps: list[StepPrediction], goal: Goal) -> list[str]:
    """What the time model took without it being given, with the fastest layout's numbers, worded as in the
    time answer."""
    fastest = steps[0]
    shown = {
        "mfu": percent(DEFAULT_MFU),
        "matmul": percent(fastest.matmul_efficiency or 0),
        "net": german(fastest.net_gbps or 0, 0, keep_zeros=False),
        "gpu": goal.gpu.title if goal.gpu is not None else "",
        "device": memory_texts.DEVICE_WORDS[goal.gpu is not None and goal.gpu.chip]["device"],
        **launch_shown(),
    }
    assumed = dict.fromkeys(a for step in steps for a in step.assumed)
    return [memory_texts.STEP_ASSUMED[a.value].format(**shown) for a in assumed if a.value in memory_texts.STEP_ASSUMED]
