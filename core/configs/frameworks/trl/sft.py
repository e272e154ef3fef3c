"""TRL's SFT: the Hugging Face Trainer's rule with SFTConfig's own keys (see the package's docstring)."""

from __future__ import annotations

import re
from typing import Any

from effbatch.core.configs.base.results import Check, World
from effbatch.core.configs.base.rules import Effect, Fix, Nothing, Rule, Syntax, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading, lookup, whole
from effbatch.core.configs.base.versions import Pins, Since, holds
from effbatch.core.configs.base.words import split_launch
from effbatch.core.configs.base.world import main_command, program_flags
from effbatch.core.configs.frameworks._shared import accelerate_launch, hf_trainer, parser_fields
from effbatch.core.configs.frameworks.trl.grpo import ID, where_key

#: Keys only SFTConfig and TRL's scripts write (a plain TrainingArguments YAML has none of them).
SFT_KEYS = {
    "packing_strategy",
    "padding_free",
    "eval_packing",
    "dataset_text_field",
    "completion_only_loss",
    "assistant_only_loss",
    "dataset_kwargs",
    "model_init_kwargs",
    "chat_template_path",
    "activation_offloading",
    "accelerate_config",
    "dataset_mixture",
    "dataset_train_split",
}
#: Keys of the Hugging Face example scripts (run_clm …), which write dataset_name and model_name_or_path too.
HF_SCRIPT_KEYS = {"dataset_config_name", "block_size", "max_seq_length", "train_file"}
SFT_MARKERS = ("--config", "--per_device_train_batch_size", "--max_length", "--packing", "--accelerate_config")
#: trl/accelerate_configs/*.yaml: processes each starts (single_gpu is distributed_type NO: one process).
NAMED_CONFIGS = {"single_gpu": 1, "multi_gpu": 8, "fsdp1": 8, "fsdp2": 8, "zero1": 8, "zero2": 8, "zero3": 8}
SFT_LENGTH = 1024
PADDING_FREE = (
    "When `padding_free=True` without packing, `max_length` is not enforced. Either enable packing (e.g., "
    "`packing=True, packing_strategy='bfd'`), provide already truncated inputs, or set `max_length=None`."
)
ENV = "`env` field should be a dict in the YAML file."
#: The batch keys SFTConfig (TrainingArguments) has; another ``*batch_size*`` key is a typo ``trl sft`` hands to
#: ``accelerate launch``, whose parser refuses it (run: fixtures/05_typo_key.yaml).
BATCH_FIELDS = {"per_device_train_batch_size", "per_device_eval_batch_size", "auto_find_batch_size"}
UNRECOGNIZED = "Accelerate launch command: error: unrecognized arguments: --{key}"
#: Keys ``trl sft`` hands to ``accelerate launch``; a script run another way has no field for them.
LAUNCH_KEYS = ("accelerate_config", "num_processes", "num_machines", "config_file", "machine_rank")
SCRIPT_UNKNOWN = (
    "Unknown arguments from config file: {remaining}. Please remove them, add them to the dataclass, or set "
    "`fail_with_unknown_args=False`."
)
UNKNOWN_CONFIG = (
    "Accelerate config {name} is neither a file nor a valid config in the `trl` package. Please provide a valid "
    "config name or a path to a config file."
)


#: DeepSpeed's Ulysses adapter (deepspeed/runtime/sequence_parallel/ulysses_sp.py:666-671, 0.19.8) on a batch of
#: TRL's padded collator, which gave no position_ids before TRL 1.11.0 (#6812).
POSITION_IDS = (
    "Ulysses SP requires `position_ids` in every dataloader batch so that each token retains its correct global"
    " position after sequence sharding. For non-packed sequences: position_ids = torch.arange(seq_len) per sample."
    " For packed sequences: position_ids must reset at document boundaries. Ensure your data collator includes"
    " position_ids in its output."
)
#: SFTTrainer.__init__ from TRL 1.15.0 (sft_trainer.py:1174-1187 at 1.16.0).
ULYSSES_LOSS = (
    "`loss_type='dft'`, `compute_loss_func` and `label_smoothing_factor` are not supported with DeepSpeed sequence"
    " parallelism (Ulysses/ALST): the loss is the model's own negative log-likelihood, reduced across ranks by"
    " `Trainer`."
)
SP_FLAG = "--parallelism_config_sp_size"


@context
class Ulysses:
    sp: int


@context
class Named:
    name: str
    processes: int


@context
class Length:
    max_length: int


@context
class ConfigName:
    name: str


@context
class Unknown:
    key: str


@context
class Keys:
    keys: str


SFT_PADDING_FREE = Rule("trl/sft-padding-free-without-packing", Effect.REFUSED, Nothing)
SFT_ENV = Rule("trl/sft-env-not-a-mapping", Effect.REFUSED, Nothing)
SFT_UNKNOWN_CONFIG = Rule("trl/sft-accelerate-config-unknown", Effect.REFUSED, ConfigName)
SFT_NAMED_CONFIG = Rule("trl/sft-accelerate-config", Effect.NOTE, Named)
SFT_PACKING = Rule("trl/sft-packing", Effect.NOTE, Length)
SFT_DEFAULT_LENGTH = Rule("trl/sft-max-length-default", Effect.NOTE, Length)
#: ``max_seq_length``: SFTConfig's name for ``max_length`` until 0.16, accepted with a warning until 0.19 (TRL-PR
#: #2895 renamed it; 0.20.0 removed the old name).
OLD_NAME = Since("trl", until="0.20.0", change="#2895")
SFT_OLD_LENGTH = Rule("trl/sft-max-seq-length", Effect.NOTE, Length, OLD_NAME)
SFT_UNKNOWN_KEY = Rule("trl/sft-unknown-batch-key", Effect.REFUSED, Unknown)
SFT_SCRIPT_UNKNOWN = Rule("trl/sft-unknown-keys-in-script", Effect.REFUSED, Keys)
SFT_POSITION_IDS = Rule(
    "trl/sft-ulysses-position-ids", Effect.REFUSED, Ulysses, Since("trl", until="1.11.0", change="#6812")
)
SFT_ULYSSES_LOSS = Rule("trl/sft-ulysses-loss", Effect.REFUSED, Ulysses, Since("trl", since="1.15.0"))
#: The dataclasses ``trl sft`` and TRL's sft.py hand to TrlParser (trl/scripts/sft.py; the script arguments under
#: their older names too), SFTConfig bringing TrainingArguments' fields at the transformers release.
PARSED = [
    ("trl", name)
    for name in ("SFTConfig", "ModelConfig", "ScriptArguments", "SFTScriptArguments", "SftScriptArguments")
]


@context
class Argument:
    argument: str
    known: str
    pinned: str


#: A key SFTConfig (or the script's dataclasses) had in some releases, none the pins allow.
SFT_KEY_NOT_TAKEN = Rule("trl/sft-key-not-taken", Effect.REFUSED, Argument)
#: ... some releases the pins allow, and others not.
SFT_KEY_BY_RELEASE = Rule("trl/sft-key-by-release", Effect.PITFALL, Argument)
SFT_RULES = (
    SFT_KEY_NOT_TAKEN,
    SFT_KEY_BY_RELEASE,
    SFT_POSITION_IDS,
    SFT_ULYSSES_LOSS,
    SFT_PADDING_FREE,
    SFT_ENV,
    SFT_UNKNOWN_CONFIG,
    SFT_NAMED_CONFIG,
    SFT_PACKING,
    SFT_DEFAULT_LENGTH,
    SFT_OLD_LENGTH,
    SFT_UNKNOWN_KEY,
    SFT_SCRIPT_UNKNOWN,
)


def detect_sft(parsed: Parsed) -> bool:
    """An SFT YAML by SFTConfig's own keys (or TRL's script keys without the HF examples'), or ``trl sft`` /
    one of TRL's sft*.py scripts on a launch line."""
    if parsed.format in (Format.YAML, Format.JSON):
        keys = set(parsed.data)
        script = {"dataset_name", "model_name_or_path"} <= keys and not HF_SCRIPT_KEYS & keys
        return bool(SFT_KEYS & keys) or script
    if parsed.format is Format.SHELL and parsed.script is not None:
        return any(_trl_sft(command.words) for command in parsed.script.commands)
    if parsed.format is Format.PYTHON:
        return hf_trainer.training_arguments(parsed, SFT_CLASSES) is not None
    return False


def _trl_sft(words: tuple[str, ...]) -> bool:
    if any(word.rsplit("/", 1)[-1] == "trl" and words[i + 1 : i + 2] == ("sft",) for i, word in enumerate(words)):
        return True
    name = (split_launch(words).program or "").rsplit("/", 1)[-1]
    return name.endswith(".py") and name.startswith("sft")


def sft(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    """The Trainer's batch with the SFT YAML's arguments; the world from the keys ``trl sft`` hands to accelerate."""
    reading = Reading(ID, pins)
    config = next((p for p in sources if p.format in (Format.YAML, Format.JSON) and detect_sft(p)), None)
    config = config or _named_config(sources)
    values = _sft_values(sources, config)
    if "env" in values and not isinstance(values["env"][0], dict):
        reading.add(SFT_ENV(Nothing(), message=ENV))
    by_script = any(_sft_script(p) for p in sources)
    if by_script and config is not None:
        _unknown_in_script(reading, config)
    if config is not None and any(_trl_cli(p) for p in sources):
        _keys_by_release(reading, config, pins)
    for key in sorted(k for k in values if "batch_size" in k and k not in BATCH_FIELDS and not by_script):
        fixed = Fix("per_device_train_batch_size", (whole(values[key][0], key, values[key][1]),), Syntax.YAML)
        reading.add(SFT_UNKNOWN_KEY(Unknown(key), message=UNRECOGNIZED.format(key=key), fix=fixed))
    world = world or (None if by_script else _sft_world(reading, values))
    if any(finding.effect is Effect.REFUSED for finding in reading.findings):
        return reading.finish(world)
    batch = hf_trainer.trainer_batch(reading, sources, world, config)
    _ulysses(reading, sources, values)
    seq_len = _max_length(reading, values)
    packing = _truthy(values.get("packing"))
    if _truthy(values.get("padding_free")) and not packing and seq_len is not None:
        reading.add(SFT_PADDING_FREE(Nothing(), message=PADDING_FREE))
    elif packing and seq_len is not None:
        reading.add(SFT_PACKING(Length(seq_len)))
    return batch.finish(reading, seq_len)


def _ulysses(reading: Reading, sources: list[Parsed], values: dict[str, tuple[Any, str]]) -> None:
    """ALST/Ulysses (accelerate's ``sp_size`` > 1, backend DeepSpeed, the only one): before TRL 1.11 the padded
    collator gives no position_ids, which DeepSpeed's adapter refuses on the first batch (padding-free batches carry
    them: ``padding_free``, or packing with the default ``bfd``); from 1.15 SFTTrainer refuses the DFT loss and
    label smoothing with it."""
    sp = _sp_size(sources)
    if sp < 2:
        return
    packing = _truthy(values.get("packing")) and str(values.get("packing_strategy", ("bfd", ""))[0]) == "bfd"
    if not (_truthy(values.get("padding_free")) or packing):
        reading.add(SFT_POSITION_IDS(Ulysses(sp), message=POSITION_IDS))
    loss = str(values.get("loss_type", ("nll", ""))[0])
    smoothing = values.get("label_smoothing_factor", (0, ""))[0]
    if loss == "dft" or str(smoothing) not in ("0", "0.0", "None", "null"):
        reading.add(SFT_ULYSSES_LOSS(Ulysses(sp), message=ULYSSES_LOSS))


def _sp_size(sources: list[Parsed]) -> int:
    """``parallelism_config_sp_size`` of an accelerate config or launch line, or ``ParallelismConfig(sp_size=…)``."""
    for parsed in sources:
        found: Any = None
        if parsed.format in (Format.YAML, Format.JSON):
            found = lookup(parsed.data, "parallelism_config.parallelism_config_sp_size")
        elif parsed.format is Format.SHELL and (command := main_command(parsed)) is not None:
            found = command[1].launcher_options.get(SP_FLAG)  # ``accelerate launch --parallelism_config_sp_size 2``
        elif (instance := hf_trainer.training_arguments(parsed, frozenset({"ParallelismConfig"}))) is not None:
            found = instance.fields["sp_size"].value if "sp_size" in instance.fields else None
        else:
            continue
        if found is not None and str(found).isdigit():
            return int(found)
    return 1


def _sft_script(parsed: Parsed) -> bool:
    """A launch line that runs an SFT script (``accelerate launch … sft.py``, ``python sft.py``), not ``trl sft``."""
    commands = parsed.script.commands if parsed.format is Format.SHELL and parsed.script is not None else []
    return any(_trl_sft(c.words) and not any(w.rsplit("/", 1)[-1] == "trl" for w in c.words) for c in commands)


def _unknown_in_script(reading: Reading, config: Parsed) -> None:
    """TrlParser (``fail_with_unknown_args``) refuses what ``trl sft`` would hand to accelerate: its launcher keys
    and misspelt batch keys in the YAML (trl/scripts/utils.py:353-357, ``set_defaults_with_config``)."""
    unknown = [k for k in config.data if k in LAUNCH_KEYS or ("batch_size" in k and k not in BATCH_FIELDS)]
    if unknown:
        remaining = [item for key in unknown for item in (f"--{key}", str(config.data[key]))]
        message = SCRIPT_UNKNOWN.format(remaining=remaining)
        reading.add(SFT_SCRIPT_UNKNOWN(Keys(", ".join(unknown)), message=message))


def _trl_cli(parsed: Parsed) -> bool:
    """A ``trl sft`` line: its parser takes TRL's own dataclasses, not a repository's subclasses of them."""
    commands = parsed.script.commands if parsed.format is Format.SHELL and parsed.script is not None else []
    return any(
        w.rsplit("/", 1)[-1] == "trl" and c.words[i + 1 : i + 2] == ("sft",)
        for c in commands
        for i, w in enumerate(c.words)
    )


def _keys_by_release(reading: Reading, config: Parsed, pins: Pins) -> None:
    """A key that is a field of TRL's dataclasses only in some releases: ``trl sft`` (its TrlParser leaves it over)
    hands it to ``accelerate launch``, which refuses it. Only for a ``trl sft`` line (a script's own subclasses of
    SFTConfig add fields the tables do not know) and where a file pins TRL: before 0.9 there is no SFTConfig, and
    nearly every key of a config for today's TRL is missing in some old release (a warning on each says nothing)."""
    if not pins.get("trl"):
        return
    keys = [
        str(k) for k in config.data if k not in LAUNCH_KEYS and not ("batch_size" in str(k) and k not in BATCH_FIELDS)
    ]
    refusal = parser_fields.keys_refused(keys, PARSED, pins, known_only=True)
    if refusal.absent:
        names = [verdict.key for verdict in refusal.absent]
        message = UNRECOGNIZED.format(key=names[0])
        known = "; ".join(f"{v.key}: {v.known}" if len(names) > 1 else v.known for v in refusal.absent)
        reading.add(SFT_KEY_NOT_TAKEN(Argument(", ".join(names), known, refusal.absent[0].pinned), message=message))
    for verdict in refusal.mixed:
        reading.add(SFT_KEY_BY_RELEASE(Argument(verdict.key, verdict.known, verdict.pinned)))


def _truthy(value: tuple[Any, str] | None) -> bool:
    return value is not None and value[0] in (True, "true", "True")


def _named_config(sources: list[Parsed]) -> Parsed | None:
    """The YAML a launch line hands the SFT script as ``--config`` (TrlParser reads it), where no key marks it."""
    for parsed in sources:
        if parsed.format is not Format.SHELL:
            continue
        named = program_flags(parsed, ("--config",)).get("--config") or []
        wanted = str(named[0]).rsplit("/", 1)[-1] if named else ""
        found = (p for p in sources if p.format is Format.YAML and p.source.name.rsplit("/", 1)[-1] == wanted)
        if wanted and (config := next(found, None)) is not None:
            return config
    return None


def _sft_values(sources: list[Parsed], config: Parsed | None) -> dict[str, tuple[Any, str]]:
    """SFT's arguments as written: the YAML's, then the flags of ``trl sft`` (which win), then the ``SFTConfig(…)``
    a script builds, each with where."""
    values = {str(key): (value, where_key(config, str(key))) for key, value in config.data.items()} if config else {}
    for parsed in sources:
        if parsed.format is Format.SHELL:
            for flag, words in program_flags(parsed, SFT_MARKERS).items():
                value = words[0] if len(words) == 1 else " ".join(words) if words else True
                values[flag.removeprefix("--").replace("-", "_")] = (value, parsed.where(flag))
        elif (instance := hf_trainer.training_arguments(parsed, SFT_CLASSES)) is not None:
            name = parsed.source.name
            values |= {key: (given.value, given.where(name)) for key, given in instance.fields.items()}
    return values


#: TRL's SFT arguments as a script builds them.
SFT_CLASSES = frozenset({"SFTConfig"})


def _sft_world(reading: Reading, values: dict[str, tuple[Any, str]]) -> World | None:
    """``num_processes``/``num_machines`` or ``accelerate_config`` as ``trl sft`` forwards them to accelerate."""
    if "num_processes" in values:
        processes, where = values["num_processes"]
        reading.note("num_processes", processes, where)
        machines = (
            whole(values["num_machines"][0], "num_machines", values["num_machines"][1])
            if "num_machines" in values
            else 1
        )
        return accelerate_launch.processes_world(
            reading, whole(processes, "num_processes", where), machines, None, where
        )
    if "accelerate_config" not in values:
        return None
    name, where = str(values["accelerate_config"][0]), values["accelerate_config"][1]
    reading.note("accelerate_config", name, where)
    if name in NAMED_CONFIGS:
        reading.add(SFT_NAMED_CONFIG(Named(name, NAMED_CONFIGS[name])))
        return World(NAMED_CONFIGS[name], f"accelerate_config {name}, {where}")
    if not re.search(r"[/.]", name):  # a path is read where the accelerate config is given beside it
        reading.add(SFT_UNKNOWN_CONFIG(ConfigName(name), message=UNKNOWN_CONFIG.format(name=name)))
    return None


def _max_length(reading: Reading, values: dict[str, tuple[Any, str]]) -> int | None:
    """``max_length``: SFTConfig's 1024 where absent, none where null; ``max_seq_length`` where a TRL before 0.20
    reads that older name."""
    if "max_length" not in values and "max_seq_length" in values and holds(OLD_NAME, reading.pins) is not False:
        value, where = values["max_seq_length"]
        reading.note("max_seq_length", value, where)
        length = whole(value, "max_seq_length", where)
        reading.add(SFT_OLD_LENGTH(Length(length)))
        return length
    if "max_length" not in values:
        reading.add(SFT_DEFAULT_LENGTH(Length(SFT_LENGTH)))
        return SFT_LENGTH
    value, where = values["max_length"]
    reading.note("max_length", value, where)
    return None if value in (None, "None", "null") else whole(value, "max_length", where)
