"""The Hugging Face Trainer's arguments in a YAML or JSON file, or as flags of a launch line.

Its arithmetic is ``_shared.hf_trainer`` (``get_total_train_batch_size``, DeepSpeed's "auto", accelerate's
launch), which TRL and LLaMA-Factory reach too; this module recognises the Trainer's own files and reads the
sequence length (``max_seq_length``, ``max_length``, ``model_max_length``).
"""

from __future__ import annotations

from dataclasses import replace

from effbatch.core.configs.base.results import Check, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.base.world import program_flags
from effbatch.core.configs.frameworks._shared import parser_fields
from effbatch.core.configs.frameworks._shared.hf_trainer import (
    AUTO_FILLED,
    FLAGS,
    MISMATCH_RULE,
    PER_DEVICE,
    TOTAL,
    trainer_batch,
    training_arguments,
)

ID = "huggingface"
#: The Trainer's own argument classes (TRL's configs are TRL's runs).
TRAINER_CLASSES = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments"})

SEQ_LEN_KEYS = ("max_seq_length", "max_length", "model_max_length", "block_size")


#: What ``HfArgumentParser`` checks flags and keys against: TrainingArguments' fields (Seq2Seq's too, so that
#: a Seq2Seq script's keys pass); a key that is a field in no release may be the script's own dataclass's.
PARSED = [("transformers", "TrainingArguments"), ("transformers", "Seq2SeqTrainingArguments")]


@context
class Argument:
    argument: str
    known: str
    pinned: str


#: A field of TrainingArguments in some releases, none the pins allow: the parser refuses it at start-up.
NOT_TAKEN = Rule("huggingface/argument-not-taken", Effect.REFUSED, Argument)
#: ... in some of the releases the pins allow, not in others: the run's release decides.
BY_RELEASE = Rule("huggingface/argument-by-release", Effect.PITFALL, Argument)
#: ``--fsdp`` with ``--deepspeed``: ``Trainer.__init__`` raises "Using --fsdp xxx together with --deepspeed is not
#: possible, deactivate one of those flags." (transformers trainer.py, 4.28.1 line 439 to 5.17.0 line 461).
FSDP_WITH_DEEPSPEED = Rule("huggingface/fsdp-with-deepspeed", Effect.REFUSED, Nothing)
FSDP_DEEPSPEED_MESSAGE = "Using --fsdp xxx together with --deepspeed is not possible, deactivate one of those flags."
RULES = (TOTAL, AUTO_FILLED, MISMATCH_RULE, NOT_TAKEN, BY_RELEASE, FSDP_WITH_DEEPSPEED)


def detect(parsed: Parsed) -> bool:
    """TrainingArguments in a YAML or JSON file, as flags of a launch line, or built by a Python script from
    ``transformers`` (``TrainingArguments(…)``, ``HfArgumentParser((…, TrainingArguments))``)."""
    if parsed.format is Format.SHELL:
        return parsed.script is not None and bool(set(FLAGS) & _words(parsed))
    if parsed.format is Format.PYTHON:
        instance = training_arguments(parsed, TRAINER_CLASSES)
        return instance is not None and instance.kind.startswith("transformers.")
    return parsed.format in (Format.YAML, Format.JSON) and PER_DEVICE in parsed.data


def _words(parsed: Parsed) -> set[str]:
    script = parsed.script
    if script is None:
        return set()
    defined = [*script.arrays.values(), *(value.split() for value in script.variables.values())]
    return {word.split("=", 1)[0] for group in [*(c.words for c in script.commands), *defined] for word in group}


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    reading = Reading(ID, pins)
    strict_arguments(reading, sources, pins)
    batch = trainer_batch(reading, sources, world)
    if _given(batch.arguments.values.get("fsdp")) and _given(batch.arguments.values.get("deepspeed")):
        reading.add(FSDP_WITH_DEEPSPEED(Nothing(), message=FSDP_DEEPSPEED_MESSAGE))
    seq_len = next((v for key in SEQ_LEN_KEYS if (v := batch.number(reading, key, default=0))), None)
    return batch.finish(reading, seq_len)


def _given(value: object) -> bool:
    """Whether an argument is set as the Trainer tests it: ``args.fsdp`` (options as a string or a list, ``True``
    in 5.x; ``False``/``"false"`` none) and ``args.deepspeed`` (a path or a dict)."""
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "none")
    return bool(value)


def strict_arguments(reading: Reading, sources: list[Parsed], pins: Pins) -> None:
    """What ``HfArgumentParser`` refuses at the pinned release: a launch line's flags and a config's keys (where the
    script hands them to a strict parse call, or no script is among the sources), and ``TrainingArguments(…)``'s
    keywords (Python refuses them); a key the script's own dataclasses define is theirs."""
    strict = parser_fields.strict(sources)
    own = frozenset(
        key
        for parsed in sources
        if parsed.python is not None
        for instance in parsed.python.instances
        if instance.kind.rsplit(".", 1)[-1] not in TRAINER_CLASSES
        for key in instance.fields
    )
    for parsed in sources:
        if parsed.format is Format.SHELL and strict:
            found = program_flags(parsed, FLAGS)
            _report(reading, parser_fields.flags_refused(found, PARSED, pins, known_only=True, skip=own))
        elif parsed.format in (Format.YAML, Format.JSON) and PER_DEVICE in parsed.data and strict:
            keys = [str(key) for key in parsed.data]
            _report(reading, parser_fields.keys_refused(keys, PARSED, pins, known_only=True, skip=own))
        elif parsed.python is not None:
            for call in parsed.python.called(*TRAINER_CLASSES):
                refusal = parser_fields.keys_refused(
                    call.keywords, [("transformers", call.name)], pins, known_only=True
                )
                key = refusal.absent[0].key if refusal.absent else ""
                message = parser_fields.KEYWORD_UNEXPECTED.format(cls=call.name, key=key)
                _report(reading, replace(refusal, absent=refusal.absent[:1], message=message))


def _report(reading: Reading, refusal: parser_fields.Refusal) -> None:
    """The refused arguments as one finding quoting the parser, each one some releases refuse as a warning."""
    if refusal.absent:
        names = ", ".join(verdict.key for verdict in refusal.absent)
        known = "; ".join(f"{v.key}: {v.known}" if len(refusal.absent) > 1 else v.known for v in refusal.absent)
        reading.add(NOT_TAKEN(Argument(names, known, refusal.absent[0].pinned), message=refusal.message))
    for verdict in refusal.mixed:
        reading.add(BY_RELEASE(Argument(verdict.key, verdict.known, verdict.pinned)))
