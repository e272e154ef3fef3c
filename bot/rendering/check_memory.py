"""The memory per GPU of a checked run: its section and small print in German. Pure.

The same parts for Slack, the console and the CLI; ``command`` says how the reader names a GPU (``--gpu h100`` in
a terminal, ``/effbatch prüfe gpu=h100`` in Slack). Imported only for a check with a model.
"""

from __future__ import annotations

from effbatch.bot.document import Line, Note, Part, Section
from effbatch.bot.rendering.formatting import number
from effbatch.bot.rendering.memory import cpu_line, estimate_bullets, fit_lines, recompute_key, total_lines
from effbatch.bot.texts import memory as texts
from effbatch.core.configs import CheckMemory
from effbatch.core.memory import GPUS


def check_memory_parts(memory: CheckMemory, command: str, *, chips: bool = False) -> tuple[Part, ...]:
    """„Speicher je GPU (Schätzung nach …)“: weights, gradients, optimizer states, activations, the total against
    the GPU; then where the model came from and whose convention it follows. ``chips``: a framework that runs on
    TPUs (its devices are chips, its example accelerator a TPU) – as is any TPU named."""
    chips = memory.gpu.chip if memory.gpu is not None else chips
    device = texts.DEVICE_WORDS[chips]["device"]
    title = texts.CHECK_TITLE.format(
        rules=texts.CHECK_RULES[memory.setup.rules.value], what=_what(memory), device=device
    )
    return (
        Section(title=title, lines=(*_lines(memory, chips=chips), *_fit(memory))),
        Note(" ".join(_origin(memory, command, chips=chips))),
        Note(" ".join(_conventions(memory))),
    )


def _what(memory: CheckMemory) -> str:
    """The table model's name; a variant by its id (``meta-llama/Meta-Llama-3-8B-Instruct (Form von Llama 3.1 8B)``);
    a shape by its numbers."""
    model, written = memory.model, memory.facts.model
    if (
        model.title
        and written
        and _folded(written.rsplit("/", 1)[-1]) not in (_folded(model.title), _folded(model.name))
    ):
        return texts.CHECK_LIKE.format(shape=written, like=model.title)
    if model.title:
        return model.title
    shape = texts.CHECK_SHAPE.format(
        layers=number(model.layers), hidden=number(model.hidden), heads=number(model.heads)
    )
    return texts.CHECK_LIKE.format(shape=shape, like=memory.like) if memory.like else shape


def _folded(name: str) -> str:
    return "".join(c for c in name.casefold() if c.isalnum())


def _lines(memory: CheckMemory, *, chips: bool) -> list[Line]:
    found, offload = memory.estimate, memory.facts.offload != "none"
    lines = estimate_bullets(found, memory.setup, offload=offload, recompute_given=memory.facts.recompute is not None)
    gpu = memory.gpu.title if memory.gpu is not None else ""
    fitted = memory.fit if memory.gpu is not None else None
    lines += total_lines(found, memory.setup, fitted, gpu, chips=chips)
    if found.cpu_per_node is not None:  # after the sum: not part of it
        lines.append(cpu_line(found, offload=offload))
    return lines


def _fit(memory: CheckMemory) -> list[Line]:
    """Whether it fits and the largest micro-batch that does (the warning among the findings says what to do)."""
    lines: list[Line] = [texts.CHECK_NO_SEQ_LEN] if memory.estimate.activations is None else []
    return lines + fit_lines(memory.fit)


def _origin(memory: CheckMemory, command: str, *, chips: bool) -> list[str]:
    """Where the model came from, the split and precision read, the vocabulary, the GPU."""
    facts, setup = memory.facts, memory.setup
    degrees = " · ".join(number(v) for v in (setup.tp, setup.pp, setup.cp, setup.sp))
    parallel = texts.CHECK_PARALLEL.format(
        degrees=degrees,
        ep=texts.CHECK_EP.format(ep=number(setup.ep)) if setup.ep > 1 else "",
        zero=texts.CHECK_ZERO.format(zero=setup.zero) if setup.zero else "",
    )
    if setup.distributed_optimizer:
        parallel += texts.CHECK_DISTRIBUTED
    if facts.offload != "none":
        parallel += texts.CHECK_OFFLOAD_PARAMS if facts.offload == "params" else texts.CHECK_OFFLOAD
    said = [texts.CHECK_FROM.format(where=facts.where, parallel=parallel, precision=_precision(memory))]
    if memory.vocab == "table":
        said.append(texts.CHECK_VOCAB_TABLE.format(vocab=number(memory.model.vocab), like=memory.like))
    elif memory.vocab == "unknown":
        said.append(texts.CHECK_VOCAB_UNKNOWN)
    if memory.gpu is not None and memory.gpu_from == "config":
        said.append(texts.CHECK_GPU_CONFIG.format(gpu=memory.gpu.title))
    elif memory.gpu is None:
        gpus = ", ".join(GPUS)
        how = texts.CHECK_GPU_HOW_SLACK if command.startswith("/") else texts.CHECK_GPU_HOW_CLI
        how = how.format(command=command, gpus=gpus, example=texts.CHECK_EXAMPLE[chips])
        said.append((texts.CHECK_NO_CHIP if chips else texts.CHECK_NO_GPU).format(how=how))
    return said


def _precision(memory: CheckMemory) -> str:
    return texts.CHECK_PRECISION[memory.setup.dtype.value]


def _conventions(memory: CheckMemory) -> list[str]:
    found = memory.estimate
    said = [texts.CHECK_RULES_NOTE[found.rules.value]]
    if memory.facts.caveat:
        said.append(texts.CHECK_CAVEATS[memory.facts.caveat])
    elif memory.facts.recompute is None and recompute_key(found.recompute, given=False) == "assumed":
        said.append(texts.CHECK_FLASH_ASSUMED)
    for quirk in found.quirks:
        text = texts.CHECK_QUIRK_NOTES.get(quirk.value) or texts.QUIRK_NOTES.get(quirk.value)
        if text:
            said.append(text)
    said.append(texts.CAPACITY_NOTE if memory.fit is not None else texts.ESTIMATE_NOTE)
    return said
