"""The scaling answer (``… skalierung``) said once: the document with its text chart, and the chart's data.

``scaling_reply`` computes the table once (``core.scaling.scale``) and words it: the document for the terminal
and for Slack where no picture can be sent (its text chart of unicode bars), the same document without the
text chart for Slack where the picture follows in the thread, and the ``Chart`` the PNG is drawn from
(``bot.rendering.chart``) – all from the same rows, numbers formatted here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from effbatch.bot.document import Answer, AnswerKind, Document, Field, Fields, Formula, Note, Part, Section, Visibility
from effbatch.bot.rendering.formatting import german, launch_shown, number, percent, reading, seconds
from effbatch.bot.rendering.formulas import degrees
from effbatch.bot.texts import scaling as texts
from effbatch.bot.texts.memory import DEVICE_WORDS, STEP_ASSUMED
from effbatch.core.errors import InputError
from effbatch.core.memory.scaling import Batch, Predictor, ScalingRow, Stop
from effbatch.core.memory.step import predict
from effbatch.core.memory.time import DEFAULT_MFU
from effbatch.core.model import PlanRequest
from effbatch.core.parser import command_text
from effbatch.core.scaling import ScalingAnswer, scale
from effbatch.core.scaling_command import missing_for_scaling

#: Characters of the widest bar (efficiency 100 %), and the eighths a cell is drawn in.
BAR_WIDTH = 10
_EIGHTHS = " ▏▎▍▌▋▊▉"


@dataclass(frozen=True)
class Series:
    """One line of a chart: its label and a value for each x."""

    label: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Chart:
    """What the picture shows, labels in German: throughput (and the linear ideal) on the left axis, efficiency on
    the right, over the GPUs; vertical marks (the set-up, where it stops paying); ``alt`` describes it."""

    title: str
    alt: str
    x_label: str
    x: tuple[int, ...]
    left_label: str
    left: tuple[Series, ...]
    right_label: str
    right: Series
    marks: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class ScalingReply:
    """The answer with its text chart, the same without it (the picture in its place), and the picture's data."""

    answer: Answer
    without_table: Document
    chart: Chart


def scaling_reply(request: PlanRequest, visibility: Visibility, predictor: Predictor = predict) -> ScalingReply:
    """The scaling answer to ``request`` (``InputError`` where the table cannot be computed)."""
    found = scale(request, predictor)
    document = scaling_document(found, visibility)
    parts = tuple(p for p in document.parts if not (isinstance(p, Section) and p.title == texts.TABLE_TITLE))
    return ScalingReply(Answer(AnswerKind.SCALING, document), replace(document, parts=parts), scaling_chart(found))


def scaling_brief(request: PlanRequest, command: str) -> tuple[Section, ...]:
    """A time answer's short scaling section: where more GPUs stop paying, and the command for the whole table;
    nothing where the table lacks a key (or the set-up cannot be scaled)."""
    if missing_for_scaling(request):
        return ()
    try:
        found = scale(request)
    except InputError:
        return ()
    shown = f"{command} {command_text(request)} skalierung"
    return (Section(title=texts.BRIEF_TITLE, lines=(_stop_line(found), texts.BRIEF_MORE.format(command=shown))),)


def scaling_document(found: ScalingAnswer, visibility: Visibility) -> Document:
    """Fields, where more GPUs stop paying, the text chart, and what was held and assumed."""
    what, gpu = _what(found), _gpu(found)
    parts: list[Part] = [
        _fields(found, what, gpu),
        Section(title=texts.STOP_TITLE.format(**_words(found)), lines=(_stop_line(found),)),
        Section(title=texts.TABLE_TITLE, lines=text_chart(found)),
        *_notes(found),
    ]
    return Document(
        title=texts.TITLE.format(what=what, gpu=gpu),
        summary=_summary(found, what),
        visibility=visibility,
        parts=tuple(parts),
    )


def _what(found: ScalingAnswer) -> str:
    model = found.model
    return model.title if model is not None and model.title else f"{reading(found.params)} Parameter"


def _gpu(found: ScalingAnswer) -> str:
    return found.gpu.title or found.gpu.name


def _words(found: ScalingAnswer) -> dict[str, str]:
    """„GPU“/„GPUs“, or „Chip“/„Chips“ where the accelerator is a TPU."""
    return dict(DEVICE_WORDS[found.gpu.chip])


def _fields(found: ScalingAnswer, what: str, gpu: str) -> Fields:
    setup, table = found.setup, found.table
    if table.held_batch is not None:
        batch = texts.BATCH_HELD.format(batch=number(table.held_batch))
    else:
        batch = texts.BATCH_GROWS.format(accumulation=number(setup.accumulation or 1))
    fields = [
        Field(texts.FIELD_MODEL, what),
        Field(_words(found)["accelerator"], gpu),
        Field(texts.FIELD_MICRO, texts.MICRO_HELD.format(micro=number(setup.micro_batch))),
        Field(texts.FIELD_BATCH, batch),
        Field(texts.FIELD_SEQ_LEN, number(setup.seq_len or 0)),
        Field(texts.FIELD_SETUP, _setup_value(found)),
    ]
    parallel = (setup.tp, setup.pp, setup.cp, setup.sp)
    if any(degree > 1 for degree in parallel):
        fields.append(Field(texts.FIELD_PARALLEL, texts.PARALLEL_VALUE.format(degrees=degrees(parallel))))
    return Fields(tuple(fields))


def _setup_value(found: ScalingAnswer) -> str:
    gpus, d = number(found.setup.gpus), number(found.table.setup_replicas)
    return texts.SETUP_VALUE.format(d=d, gpus=gpus, **_words(found))


def _stop_line(found: ScalingAnswer) -> str:
    table, row, said = found.table, found.table.stop, _words(found)
    if row is None:
        last = table.rows[-1]
        return texts.NO_STOP.format(gpus=number(last.gpus), d=number(last.data_parallel), **said)
    shown = {"gpus": number(row.gpus), "d": number(row.data_parallel), **said}
    if table.stop_reason is Stop.CRITICAL_BATCH and table.critical_tokens is not None:
        return texts.STOP_CRITICAL.format(
            **shown, tokens=reading(row.tokens_per_step), critical=reading(table.critical_tokens)
        )
    return texts.STOP_COMMUNICATION.format(
        **shown, part=texts.PARTS[row.bound_by.value], step=seconds(row.step_seconds), efficiency=_percent(row)
    )


def _summary(found: ScalingAnswer, what: str) -> str:
    table, row, said = found.table, found.table.stop, _words(found)
    if row is None:
        low = min(r.efficiency for r in table.rows)
        last = number(table.rows[-1].gpus)
        return texts.SUMMARY_THROUGH.format(what=what, gpus=last, efficiency=_share(low), **said)
    before = max((r for r in table.rows if r.gpus < row.gpus), key=lambda r: r.gpus)
    if table.stop_reason is Stop.CRITICAL_BATCH:
        reason = texts.REASON_CRITICAL
    else:
        reason = texts.REASON_COMMUNICATION.format(part=texts.PARTS[row.bound_by.value])
    return texts.SUMMARY_STOP.format(what=what, gpus=number(before.gpus), reason=reason, **said)


def text_chart(found: ScalingAnswer) -> tuple[Formula, ...]:
    """The table as monospace lines: GPUs, a, B (* where grown), step time, tokens/s, an efficiency bar, marks."""
    table = found.table
    head = (
        f"{_words(found)['devices']:>7} {texts.HEAD_ACCUMULATION:>5} {texts.HEAD_BATCH:>7} {texts.HEAD_STEP:>10} "
        f"{texts.HEAD_RATE:>11}  {texts.HEAD_EFFICIENCY}"
    )
    lines = [Formula(head)]
    for row in table.rows:
        batch = number(row.global_batch) + (texts.GROWN_MARK if row.batch is Batch.GROWN else " ")
        mark = texts.SETUP_MARK if row.data_parallel == table.setup_replicas else ""
        mark = texts.STOP_MARK if row is table.stop else mark
        line = (
            f"{number(row.gpus):>7} {number(row.accumulation):>5} {batch:>7} {seconds(row.step_seconds):>10} "
            f"{reading(row.tokens_per_second):>11}  {bar(row.efficiency)} {_percent(row):>6} {mark}"
        )
        lines.append(Formula(line.rstrip()))
    return tuple(lines)


def bar(share: float) -> str:
    """A bar of ``BAR_WIDTH`` cells for a share of 0–1, in eighths of a cell."""
    eighths = max(0, min(BAR_WIDTH * 8, round(share * BAR_WIDTH * 8)))
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(BAR_WIDTH)


def _notes(found: ScalingAnswer) -> tuple[Note, ...]:
    table, setup = found.table, found.setup
    if table.held_batch is not None:
        held = texts.HELD_NOTE_BATCH.format(micro=number(setup.micro_batch), batch=number(table.held_batch))
        if (grows := table.batch_grows_from) is not None:
            held += texts.HELD_NOTE_GROWS.format(gpus=number(grows.gpus), **_words(found))
    else:
        held = texts.HELD_NOTE_ACCUMULATION.format(
            micro=number(setup.micro_batch), accumulation=number(setup.accumulation or 1)
        )
    if found.critical is not None and found.request.budget is not None:
        critical = texts.CRITICAL_NOTE.format(
            budget=reading(found.request.budget), critical=reading(found.critical.high_tokens)
        )
    else:
        critical = texts.NO_CRITICAL_NOTE
    efficiency = texts.EFFICIENCY_NOTE.format(**_words(found))
    return tuple(Note(text) for text in (held, critical, efficiency, _assumed(found)) if text)


def _assumed(found: ScalingAnswer) -> str:
    """What the step model took without it being given, each with its number, worded as in the time answer."""
    table = found.table
    shown = {
        "mfu": f"{german(DEFAULT_MFU * 100, 1, keep_zeros=False)}\u00a0%",
        "matmul": percent(table.matmul_efficiency or 0),
        "net": german(table.net_gbps or 0, 0, keep_zeros=False),
        "gpu": _gpu(found),
        "device": _words(found)["device"],
        **launch_shown(),
    }
    return " ".join(STEP_ASSUMED[a.value].format(**shown) for a in table.assumed if a.value in STEP_ASSUMED)


def scaling_chart(found: ScalingAnswer) -> Chart:
    """The picture's data: tokens/s and the linear ideal over the GPUs, efficiency beside them, the marks."""
    rows, table = found.table.rows, found.table
    what, gpu = _what(found), _gpu(found)
    single = rows[0].tokens_per_second
    marks = [(table.setup_row.gpus, texts.CHART_SETUP)]
    if table.stop is not None:
        marks.append((table.stop.gpus, texts.CHART_STOP))
    return Chart(
        title=texts.CHART_TITLE.format(what=what, gpu=gpu),
        alt=texts.CHART_ALT.format(what=what, gpu=gpu, **_words(found)),
        x_label=_words(found)["devices"],
        x=tuple(row.gpus for row in rows),
        left_label=texts.CHART_RATE,
        left=(
            Series(texts.CHART_RATE, tuple(row.tokens_per_second for row in rows)),
            Series(texts.CHART_IDEAL, tuple(single * row.data_parallel for row in rows)),
        ),
        right_label=texts.CHART_EFFICIENCY,
        right=Series(texts.CHART_EFFICIENCY, tuple(row.efficiency for row in rows)),
        marks=tuple(marks),
    )


def _percent(row: ScalingRow) -> str:
    return _share(row.efficiency)


def _share(share: float) -> str:
    return f"{german(share * 100, 0)}\u00a0%"
