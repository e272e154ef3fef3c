"""„Speicher je GPU“ and „Trainingszeit“: the assessment from ``core.training`` said in German. Pure.

Computed once into sections (and, for a question without B, a whole document); Block Kit and the
terminal lay them out alike.
"""

from __future__ import annotations

from effbatch.bot.document import Bullet, Document, Field, Fields, Formula, Line, Note, Part, Section, Visibility
from effbatch.bot.rendering.formatting import (
    GIB,
    german,
    launch_shown,
    number,
    percent,
    reading,
    scientific,
    seconds,
    size,
)
from effbatch.bot.rendering.formulas import degrees
from effbatch.bot.rendering.plan import advice_lines
from effbatch.bot.texts import memory as texts
from effbatch.bot.texts.glossary import COMMAND, label, list_de
from effbatch.core import Argument, PlanRequest
from effbatch.core.memory import capacity
from effbatch.core.memory.estimate import MemoryEstimate
from effbatch.core.memory.fit import Fit
from effbatch.core.memory.setup import Offload, Optimizer, Recompute, Rules, Setup
from effbatch.core.memory.time import Breakdown, MfuSource, TimeEstimate
from effbatch.core.training import Assessment, missing_for_batch


def flops(value: float) -> str:
    return scientific(value, fixed=True)


def step_duration(value: float) -> str:
    """A step's time to three significant digits: 0,42 s, 19,2 s; from a minute on with minutes: 121 s (≈ 2 min)."""
    if value < 60:
        return seconds(value)
    shown = seconds(value).removesuffix("\u00a0s")
    return texts.SECONDS_LONG.format(value=shown, minutes=number(round(value / 60)))


def duration(value: float) -> str:
    """A training's time in the unit people think in: minutes or hours below a day, years from one on."""
    minutes, hours, days = value / 60, value / 3600, value / 86_400
    if minutes < 1:
        return step_duration(value)
    if hours < 1:
        return texts.MINUTES.format(value=number(round(minutes)))
    if days < 1:
        return texts.HOURS.format(value=german(hours, 1, keep_zeros=False))
    if days < 365:
        shown = german(days, 1, keep_zeros=False)
        return texts.ONE_DAY if shown == "1" else texts.DAYS.format(value=shown)
    years = german(days / 365.25, 1 if days < 3652.5 else 0, keep_zeros=False)
    return texts.ONE_YEAR if years == "1" else texts.YEARS.format(value=years)


def gpu_hours(hours: float) -> str:
    """GPU-hours: whole from ten on, one decimal below (0,4 for eight minutes on three GPUs)."""
    return number(round(hours)) if hours >= 10 else german(hours, 1, keep_zeros=False)


def memory_parts(found: Assessment, command: str = COMMAND) -> tuple[Part, ...]:
    """The memory section, what helps when it does not fit, the time section and the small print."""
    title = texts.MEMORY_TITLE.format(what=_what(found), **words(found))
    parts: list[Part] = [Section(title=title, lines=_memory_lines(found))]
    if found.advice:
        parts.append(Section(title=texts.ADVICE_TITLE, lines=_advice_lines(found, command)))
    if (time := _time_section(found)) is not None:
        parts.append(time)
    parts += _notes(found)
    return tuple(parts)


def memory_document(
    request: PlanRequest, found: Assessment, visibility: Visibility, command: str = COMMAND
) -> Document:
    """A memory question without B (``params=7B zero=3 gpus=8``): the estimate alone, and how to add B."""
    total, what = size(found.memory.total), _what(found)
    parts: list[Part] = [_fields(request, found), *memory_parts(found, command)]
    missing = missing_for_batch(request)
    if missing:
        verb, with_them = texts.BATCH_HINT_VERB[min(len(missing), 2)]
        symbols = list_de(a.symbol for a in missing)
        parts.append(Note(texts.BATCH_HINT.format(verb=verb, missing=symbols, with_them=with_them)))
    return Document(
        title=texts.MEMORY_DOCUMENT_TITLE.format(total=total, **words(found)),
        summary=texts.MEMORY_SUMMARY.format(total=total, what=what, **words(found)),
        visibility=visibility,
        parts=tuple(parts),
    )


def words(found: Assessment) -> dict[str, str]:
    """GPU or chip: the words for the accelerator asked about (a TPU's devices are chips)."""
    return dict(texts.DEVICE_WORDS[found.gpu is not None and found.gpu.chip])


def _what(found: Assessment) -> str:
    if found.model is not None and found.model.title:
        return found.model.title
    return texts.PARAMS_WHAT.format(params=reading(found.params))


def _fields(request: PlanRequest, found: Assessment) -> Fields:
    """What the estimate is for; b and the GPUs the question left out are marked as assumed, not shown as input."""
    setup, model = found.setup, found.model
    gpus_given = request.gpus is not None or request.data_parallel is not None
    # a named model by its name; a shape typed whole has none, and its parameters are the next field
    fields = [Field(texts.MODEL_FIELD, model.title)] if model is not None and model.title else []
    fields.append(Field(texts.PARAMS_FIELD, reading(found.params)))
    if model is not None and not model.title:
        shape = texts.SHAPE_VALUE.format(
            layers=number(model.layers), hidden=number(model.hidden), heads=number(model.heads)
        )
        fields.append(Field(texts.SHAPE_FIELD, shape))
    fields.append(Field(words(found)["counted"], _given(number(setup.gpus), given=gpus_given)))
    fields.append(Field("TP · PP · CP · SP", degrees((setup.tp, setup.pp, setup.cp, setup.sp))))
    micro = _given(number(setup.micro_batch), given=request.micro_batch is not None)
    fields.append(Field(label(Argument.MICRO_BATCH), micro))
    if setup.seq_len:
        fields.append(Field(label(Argument.SEQ_LEN), number(setup.seq_len)))
    if found.gpu is not None:
        fields.append(Field(words(found)["accelerator"], found.gpu.title))
    return Fields(tuple(fields))


def _given(value: str, *, given: bool) -> str:
    return value if given else texts.ASSUMED.format(value=value)


def _memory_lines(found: Assessment) -> tuple[Line, ...]:
    memory, setup = found.memory, found.setup
    offload = setup.offload is not Offload.NONE
    lines = estimate_bullets(memory, setup, offload=offload, recompute_given=_recompute_given(setup))
    lines += total_lines(memory, setup, found.fit, _capacity_name(found), chips=words(found)["device"] != "GPU")
    if memory.cpu_per_node is not None:  # after the sum: not part of it
        lines.append(cpu_line(memory, offload=offload))
    if found.gpu is not None and found.capacity is not None and found.capacity != found.gpu.memory:
        usable = texts.USABLE_NOTE.format(
            gpu=found.gpu.title, capacity=size(found.capacity), datasheet=size(found.gpu.memory)
        )
        lines.append(usable)
    lines += _fit_lines(found)
    return tuple(lines)


def _recompute_given(setup: Setup) -> bool:
    """Recomputation said: typed, or a framework named whose own default the estimate follows."""
    return setup.recompute is not None or setup.framework is not None


def _capacity_name(found: Assessment) -> str:
    """Whose memory the sum is held against: the GPU's name, or ``gpu_mem`` as typed (GB said as converted)."""
    if found.gpu is not None:
        return found.gpu.title
    if found.capacity is not None and found.capacity % GIB:  # typed in GB: say where the odd GiB come from
        return texts.GPU_MEM_GB.format(gigabytes=german(found.capacity / 1e9, 1, keep_zeros=False))
    return texts.GPU_MEM


def total_lines(
    memory: MemoryEstimate, setup: Setup, fitted: Fit | None, gpu: str, *, chips: bool = False
) -> list[Line]:
    """The allocated peak, what PyTorch's counters miss (each assumed number said) and the sum against the GPU:
    a question's memory section and a checked config's say it alike."""
    lines: list[Line] = [Formula(texts.TOTAL.format(total=size(memory.total)))]
    base, per_group = capacity.CONTEXT_BYTES, capacity.NCCL_BYTES_PER_GROUP
    said = texts.DEVICE_WORDS[chips]
    on_device = texts.ON_DEVICE.format(
        on=said["on"],
        context_name=said["context_name"],
        total=size(memory.total),
        reserve=size(memory.reserve),
        share=percent(capacity.RESERVE_SHARE),
        context=size(memory.context),
        base=size(base),
        per_group=size(per_group),
        groups=number(capacity.communicators(setup)),
        userbuffers=texts.USERBUFFERS.format(value=size(memory.userbuffers)) if memory.userbuffers else "",
        device=size(memory.device_total),
    )
    lines.append(Formula(on_device))
    if fitted is not None:
        shown = texts.TOTAL_ON_GPU.format(
            on_lower=said["on_lower"], total=size(fitted.total), capacity=size(fitted.capacity), gpu=gpu
        )
        lines.append(Formula(shown))
    return lines


def estimate_bullets(memory: MemoryEstimate, setup: Setup, *, offload: bool, recompute_given: bool) -> list[Line]:
    """Weights, gradients, optimizer states, a gather buffer and the activations of the micro-batch, each a bullet:
    a question's memory section and a checked config's list them alike."""
    lines: list[Line] = []
    framework = memory.framework.value if memory.framework else None
    if framework is not None and memory.rules is Rules.EFFBATCH:
        name = texts.FRAMEWORK_NAMES[framework]
        dfa = setup.optimizer is Optimizer.DISTRIBUTED_FUSED_ADAM
        states = texts.DISTRIBUTED_FUSED_ADAM_STATES if dfa else texts.FRAMEWORK_STATES[framework]
        lines.append(texts.FRAMEWORK_LINE.format(framework=name, states=states))
    lines += [
        Bullet(texts.WEIGHTS.format(value=state_size(memory.weights, offload=offload))),
        Bullet(texts.GRADIENTS.format(value=state_size(memory.grads, offload=offload))),
        Bullet(texts.OPTIMIZER.format(value=state_size(memory.optimizer, offload=offload))),
    ]
    if memory.gather_buffer:
        lines.append(Bullet(texts.GATHER.format(value=size(memory.gather_buffer))))
    if memory.buffers and framework is not None:
        lines.append(
            Bullet(texts.BUFFERS.format(framework=texts.FRAMEWORK_NAMES[framework], value=size(memory.buffers)))
        )
    if memory.activations is not None:
        lines.append(Bullet(_activations(memory, setup, recompute_given=recompute_given)))
    if memory.overlap:
        lines.append(Bullet(texts.OVERLAP.format(value=size(memory.overlap))))
    return lines


def cpu_line(memory: MemoryEstimate, *, offload: bool) -> str:
    """The CPU memory a node needs, after the sum (not part of it), saying whether anything is offloaded."""
    return (texts.CPU if offload else texts.CPU_NO_OFFLOAD).format(value=size(memory.cpu_per_node or 0))


def recompute_key(recompute: Recompute | None, *, given: bool) -> str:
    """How the activations were counted: as typed, or FlashAttention assumed where nothing was said."""
    key = recompute.value if recompute else "none"
    return "assumed" if key == "selective" and not given else key


def state_size(value: int, *, offload: bool) -> str:
    """A model state's bytes on the GPU; offloaded away entirely: 0 in the CPU's memory, not a bare „0 MiB“."""
    return texts.IN_CPU if offload and not value else size(value)


def _activations(memory: MemoryEstimate, setup: Setup, *, recompute_given: bool) -> str:
    """The activations with the micro-batch, L, the recomputation and the attention kernel counted (and the logits);
    FlashAttention assumed where nothing was said names the kernel with it."""
    key = recompute_key(memory.recompute, given=recompute_given)
    given = {
        "micro": number(setup.micro_batch),
        "seq_len": number(setup.seq_len or 0),
        "recompute": texts.RECOMPUTE_NAMES[key],
    }
    assumed = key == "assumed" and setup.attention is None
    if memory.rules in (Rules.MEGATRON, Rules.KORTHIKANTI) or assumed:  # their formulas decide the scores, or said
        detail = texts.ACTIVATIONS_DETAIL.format(**given)
    else:
        kernel = texts.ATTENTION_NAMES[memory.attention.value if memory.attention else "flash"]
        detail = texts.ACTIVATIONS_KERNEL_DETAIL.format(**given, attention=kernel)
    shown = f"{texts.ACTIVATIONS.format(value=size(memory.activations or 0))} {detail}"
    if memory.logits:
        shown += f", {texts.LOGITS.format(value=size(memory.logits))}"
    if memory.kv_cache:
        shown += f", {texts.KV_CACHE.format(value=size(memory.kv_cache))}"
    return shown


def _fit_lines(found: Assessment) -> list[Line]:
    lines: list[Line] = []
    if found.memory.activations is None:
        lines.append(texts.NO_ACTIVATIONS_PARAMS if found.model is None else texts.NO_ACTIVATIONS_SEQ_LEN)
    return lines + fit_lines(found.fit)


def fit_lines(fitted: Fit | None) -> list[Line]:
    """Whether the run fits the GPU and the largest micro-batch that does; nothing without a GPU to hold it against.
    A question's memory section and a checked config's say it alike."""
    if fitted is None:
        return []
    largest = fitted.largest_micro_batch
    if fitted.fits:
        if largest is None:
            return [texts.FITS_NO_ACTIVATIONS.format(free=size(fitted.free))]
        template = texts.FITS_AT_BOUND if fitted.at_bound else texts.FITS
        return [template.format(free=size(fitted.free), largest=number(largest))]
    verdict = texts.DOES_NOT_FIT.format(missing=size(-fitted.free))
    if largest is not None:
        verdict += texts.LARGEST.format(largest=number(largest)) if largest else texts.NONE_FITS
    return [verdict]


def _advice_lines(found: Assessment, command: str) -> tuple[Line, ...]:
    """Whole combinations that fit with B held, from the planner's search (never one change at a time)."""
    if found.advice is None:
        return ()
    setup = found.setup
    held = found.advice.goal.global_batch != setup.micro_batch * setup.data_parallel or setup.accumulation is not None
    return advice_lines(found.advice, held, command)


def _time_section(found: Assessment) -> Section | None:
    time = found.time
    if time is None and not found.tokens_per_step:
        return None
    lines: list[Line] = [Formula(_per_token_formula(found))]
    if found.tokens_per_step:
        per_step = found.flops_per_token * found.tokens_per_step
        lines.append(
            Formula(
                texts.FLOPS_PER_STEP.format(
                    per_token=flops(found.flops_per_token), tokens=number(found.tokens_per_step), flops=flops(per_step)
                )
            )
        )
    if time is not None:
        lines += _time_lines(found)
    return Section(title=texts.TIME_TITLE, lines=tuple(lines))


def _per_token_formula(found: Assessment) -> str:
    shown = flops(found.flops_per_token)
    if found.model is None or found.setup.seq_len is None:
        return texts.FLOPS_PER_TOKEN_PARAMS.format(params=reading(found.params), flops=shown)
    if found.setup.rules in (Rules.KORTHIKANTI, Rules.MEGATRON):
        return texts.FLOPS_PER_TOKEN_KORTHIKANTI.format(flops=shown)
    if found.model.q_dim != found.model.hidden:
        return texts.FLOPS_PER_TOKEN_SHAPE_ATTENTION.format(flops=shown)
    return texts.FLOPS_PER_TOKEN_SHAPE.format(flops=shown)


def _time_lines(found: Assessment) -> list[Line]:
    time = found.time
    if time is None:
        return []
    peak = f"{german(time.peak_flops / 1e12, 1, keep_zeros=False)}\u00a0TFLOP/s"
    said = words(found)
    shown = {"gpus": number(time.gpus), "peak": peak, "mfu": percent(time.mfu), **said}
    lines: list[Line] = _step_lines(time, shown)
    rate = reading(time.tokens_per_second)
    lines.append(texts.THROUGHPUT.format(rate=rate, tflops=german(time.tflops_per_gpu, 1, keep_zeros=False), **said))
    if time.train_seconds is not None and time.budget is not None and time.total_flops is not None:
        hours = gpu_hours(time.gpu_hours or 0)
        budget = texts.BUDGET_TIME.format(
            budget=reading(time.budget),
            duration=duration(time.train_seconds),
            gpus=shown["gpus"],
            hours=hours,
            hours_word=texts.HOURS_WORD[hours == "1"],
            flops=flops(time.total_flops),
            **said,
        )
        lines.append(budget)
    if time.mfu_assumed:
        lines.append(texts.MFU_ASSUMED.format(mfu=shown["mfu"]))
    elif time.source is MfuSource.GIVEN:
        lines.append(texts.MFU_GIVEN.format(mfu=shown["mfu"]))
    if time.breakdown is not None:
        lines += _assumed_lines(found, time.breakdown)
    if found.gpu is not None and found.setup.rules is not None and time.peak_flops == found.gpu.peak_flops:
        lines.append(texts.PEAK_SOURCE.format(peak=peak, source=found.gpu.source, **said))
    else:
        lines.append(texts.PEAK_GIVEN.format(peak=peak, **said))
    return lines


def _step_lines(time: TimeEstimate, shown: dict[str, str]) -> list[Line]:
    """The step time: predicted part by part and the MFU that follows; forwards from the MFU assumed or given;
    or the MFU from the step time or throughput measured."""
    step, per_step = time.step_seconds, time.flops_per_step
    if time.breakdown is not None:
        return _breakdown_lines(time.breakdown, per_step, shown)
    lines: list[Line] = []
    if time.source is MfuSource.TOKENS_PER_SECOND:
        per_token, rate = flops(time.flops_per_token), reading(time.tokens_per_second)
        lines.append(Formula(texts.THROUGHPUT_GIVEN.format(per_token=per_token, rate=rate, **shown)))
    if step is None or per_step is None:
        return lines
    if time.source is MfuSource.STEP_TIME:  # the time as typed
        shown_time, template = texts.SECONDS.format(value=german(step, 2, keep_zeros=False)), texts.STEP_TIME_GIVEN
    else:
        shown_time, template = step_duration(step), texts.STEP_TIME
    lines.append(Formula(template.format(flops=flops(per_step), seconds=shown_time, **shown)))
    return lines


def _breakdown_lines(breakdown: Breakdown, per_step: float | None, shown: dict[str, str]) -> list[Line]:
    """The predicted step: its parts summed, a bullet each with its share, the MFU that follows, the bound."""
    costing = {part: s for part, s in breakdown.seconds.items() if s > 0}
    step = seconds(breakdown.step_seconds)
    parts = " + ".join(texts.STEP_PART.format(part=texts.STEP_PARTS[p], seconds=seconds(s)) for p, s in costing.items())
    lines: list[Line] = [Formula(texts.STEP_PREDICTED.format(parts=parts, seconds=step))]
    shares = breakdown.shares
    lines += [
        Bullet(texts.STEP_PART_LINE.format(part=texts.STEP_PARTS[p], seconds=seconds(s), share=percent(shares[p])))
        for p, s in costing.items()
    ]
    if per_step is not None:
        lines.append(Formula(texts.MFU_PREDICTED.format(flops=flops(per_step), seconds=step, **shown)))
    if breakdown.bound_by != "compute":
        lines.append(texts.STEP_BOUND.format(part=texts.STEP_PARTS[breakdown.bound_by]))
    return lines


def _assumed_lines(found: Assessment, breakdown: Breakdown) -> list[Line]:
    """Each number the prediction assumed, named where it stands."""
    gpu = found.gpu.title if found.gpu else ""
    matmul = percent(breakdown.matmul_efficiency or 0)
    net = german(breakdown.net_gbps or 0, 0, keep_zeros=False)
    device = words(found)["device"]
    return [
        texts.STEP_ASSUMED[a].format(matmul=matmul, net=net, gpu=gpu, mfu="", device=device, **launch_shown())
        for a in breakdown.assumed
    ]


def _notes(found: Assessment) -> tuple[Note, ...]:
    notes = [Note(texts.RULES_NOTE[found.memory.rules.value])]
    model = found.model
    if model is not None and not model.moe and found.setup.ep > 1:  # likely the wrong model, never silently
        notes.append(Note(texts.EP_DENSE.format(model=model.title or texts.EP_DENSE_SHAPE)))
    quirks = [texts.QUIRK_NOTES[q.value] for q in found.memory.quirks if q.value in texts.QUIRK_NOTES]
    if quirks:
        notes.append(Note(" ".join(quirks)))
    notes.append(Note(texts.CAPACITY_NOTE if found.capacity else texts.ESTIMATE_NOTE))
    return tuple(notes)
