"""NeMo's (Megatron-based) YAML: the trainer gives the world size, the model Megatron's batch arithmetic.

``trainer.devices`` × ``trainer.num_nodes`` processes; ``model.micro_batch_size``,
``model.global_batch_size``, ``model.tensor_model_parallel_size``, ``pipeline_model_parallel_size``,
``context_parallel_size``; the sequence length from ``model.encoder_seq_length`` (or
``model.seq_length``, ``model.data.seq_length``). The checks are Megatron core's
(``num_microbatches_calculator.py``), which NeMo calls with these values.

NeMo 1's training scripts start through ``@hydra_runner`` (``nemo/core/config/hydra_runner.py``, Hydra's
``main``): the YAML is the one ``--config-name`` names, composed with the configs of its ``defaults:`` list and
the launch line's overrides (``++model.global_batch_size=256``) as Hydra composes it (``_shared/hydra.py``). A value
still ``???`` when NeMo reads it is OmegaConf's ``MissingMandatoryValue``; an override Hydra cannot apply stops the
run before NeMo starts (``ConfigCompositionException``). A launch line whose YAML is not among the files gives its
overrides over NeMo's defaults, and says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from effbatch.core.configs.base.results import Check, Derivation, ModelShape, World
from effbatch.core.configs.base.rules import Effect, Rule, context
from effbatch.core.configs.base.script import Command
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, lookup
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.frameworks._shared.hydra import (
    MISSING,
    Composed,
    Override,
    compose,
    overrides,
    resolved,
    stem,
)
from effbatch.core.configs.frameworks._shared.megatron_core import (
    DEFAULT_GBS,
    Default,
    Divisor,
    ModelParallel,
    microbatches,
    model_parallel,
    nemo_yaml,
)
from effbatch.core.configs.frameworks._shared.memory_facts import megatron_facts, nemo_arguments

ID = "nemo"
SEQ_LEN_KEYS = ("model.encoder_seq_length", "model.seq_length", "model.data.seq_length")
#: NeMo 1's config sections a launch line's Hydra overrides name.
SECTIONS = frozenset({"model", "trainer", "exp_manager"})
#: Overrides only NeMo 1's Hydra scripts take (Megatron-Bridge has its batch under ``train.``).
OVERRIDE_KEYS = frozenset({"model.global_batch_size", "model.micro_batch_size"})
DEGREES = ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size")
#: What NeMo reads of the config for the batch: a ``???`` in one of these stops it.
READ_KEYS = (
    "trainer.devices",
    "trainer.num_nodes",
    "model.micro_batch_size",
    "model.global_batch_size",
    *(f"model.{key}" for key in DEGREES),
    *SEQ_LEN_KEYS,
)


@context
class Mandatory:
    key: str
    where: str
    #: The configs the defaults lists name that are not among the files (``Llama3-base``), or ``-``.
    unfound: str


@context
class NotGiven:
    #: The configs the defaults lists name that are not among the files.
    unfound: str


@context
class ConfigNotGiven:
    where: str
    #: The script the line runs (``megatron_gpt_pretraining.py``).
    script: str
    #: The config ``--config-name`` names, else ``-`` (the script's own ``config_name``).
    config: str


@context
class HydraOverride:
    override: str
    where: str


GBS = Rule("nemo/global-batch-size-divisible", Effect.REFUSED, Divisor)
NEMO_WORLD = Rule("nemo/world-size-divisible", Effect.REFUSED, ModelParallel)
MANDATORY = Rule("nemo/missing-mandatory-value", Effect.REFUSED, Mandatory)
NO_KEY = Rule("nemo/hydra-override-no-key", Effect.REFUSED, HydraOverride)
APPEND_EXISTS = Rule("nemo/hydra-append-exists", Effect.REFUSED, HydraOverride)
NOT_GIVEN = Rule("nemo/defaults-not-given", Effect.PITFALL, NotGiven)
CONFIG_NOT_GIVEN = Rule("nemo/config-not-given", Effect.PITFALL, ConfigNotGiven)
RULES = (GBS, NEMO_WORLD, MANDATORY, NO_KEY, APPEND_EXISTS, NOT_GIVEN, CONFIG_NOT_GIVEN)


def detect(parsed: Parsed) -> bool:
    """A NeMo YAML: a ``trainer`` section and a ``model`` section with Megatron's batch keys; a launch line that
    passes a NeMo training script ``model.global_batch_size=``/``model.micro_batch_size=`` as Hydra overrides; or
    a script that starts through NeMo 1's ``@hydra_runner`` (``from nemo.core.config import hydra_runner``)."""
    if parsed.format is Format.PYTHON:
        return _hydra_runner(parsed)
    if parsed.format is Format.SHELL and parsed.script is not None:
        launch = _launch([parsed])
        keys = [o.key for o in launch.given] if launch is not None else []
        # NeMo-Aligner's scripts (trainer.dpo.*, trainer.ppo.* …) run a loop of their own: not NeMo's rule
        return bool(OVERRIDE_KEYS & set(keys)) and not any(k.startswith("trainer.") and k.count(".") > 1 for k in keys)
    return parsed.format is Format.YAML and nemo_yaml(parsed.data)


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    reading = Reading(ID, pins)
    parsed = _config(reading, sources)
    if parsed is None:
        return reading.finish(world)
    micro = reading.value(parsed, "model.micro_batch_size") or 1
    gbs = reading.value(parsed, "model.global_batch_size")
    tp, pp, cp = (reading.value(parsed, f"model.{key}") or 1 for key in DEGREES)
    seq_len = next((v for path in SEQ_LEN_KEYS if (v := reading.value(parsed, path)) is not None), None)
    world = None if world is not None and world.single else world  # plain python: Lightning starts the processes
    world = reading.world(world or _trainer_world(reading, parsed))
    data_parallel = model_parallel(reading, world.size, tp, pp, cp, NEMO_WORLD)
    if data_parallel is None:
        return reading.finish(world, micro_batch=micro, seq_len=seq_len)
    if gbs is None:
        gbs = micro * data_parallel
        reading.add(DEFAULT_GBS(Default(gbs)))
    accumulation = microbatches(reading, parsed, gbs, micro, data_parallel, GBS, "model.global_batch_size")
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=gbs if accumulation is not None else None,  # refused: no batch, so no T = B · L either
        seq_len=seq_len,
        shape=_shape(reading, parsed),
        memory=megatron_facts(
            nemo_arguments(parsed.data), parsed.at("model.num_layers"), fix(parsed, "model.micro_batch_size", 1)
        ),
    )


def _shape(reading: Reading, parsed: Parsed) -> ModelShape | None:
    """``model.num_layers``, ``model.hidden_size`` and ``trainer.max_steps``, for the batch-size laws."""
    layers, hidden = reading.value(parsed, "model.num_layers"), reading.value(parsed, "model.hidden_size")
    steps = reading.value(parsed, "trainer.max_steps", minimum=None)
    if layers is None or hidden is None or steps is None or steps < 1:
        return None
    return ModelShape(layers, hidden, steps)


def _trainer_world(reading: Reading, parsed: Parsed) -> World | None:
    devices, nodes = lookup(parsed.data, "trainer.devices"), lookup(parsed.data, "trainer.num_nodes") or 1
    if not isinstance(devices, int) or devices < 1 or not isinstance(nodes, int) or nodes < 1:
        return None  # -1 or "auto": as many as the machine has, unknown here
    devices_at, nodes_at = parsed.at("trainer.devices"), parsed.at("trainer.num_nodes")
    reading.note("trainer.devices", devices, devices_at, over=parsed.overridden.get("trainer.devices"))
    reading.note("trainer.num_nodes", nodes, nodes_at, over=parsed.overridden.get("trainer.num_nodes"))
    reading.step(Derivation.WORLD, (nodes, devices), nodes * devices)
    # each factor where the composed config took it from (a launch override, a defaults file)
    return World(nodes * devices, f"trainer.num_nodes {nodes} × trainer.devices {devices}, {nodes_at} · {devices_at}")


def _config(reading: Reading, sources: list[Parsed]) -> Parsed | None:
    """The config NeMo runs with: the primary YAML composed by Hydra with its defaults and the launch line's
    overrides; None (with findings) where Hydra refuses an override or a value NeMo reads is still ``???``."""
    launch = _launch(sources)
    name, given = (launch.name, launch.given) if launch is not None else (None, [])
    name = name or next((found for p in sources if (found := _runner_config(p, launch)) is not None), None)
    primary = _primary(sources, name)
    if primary is None:
        return _launch_alone(reading, launch) if launch is not None else sources[0]
    composed = compose(primary, sources, given)
    _interpolated(composed)
    parsed = Parsed(
        primary.source,
        Format.YAML,
        composed.data,
        places=composed.places,
        vias=primary.vias,
        overridden=composed.overridden,
    )
    for override, exists in composed.refused:
        reading.add((APPEND_EXISTS if exists else NO_KEY)(HydraOverride(override.word, override.where)))
    named = ", ".join(dict.fromkeys(composed.unfound))
    for key in READ_KEYS:
        if lookup(parsed.data, key) == MISSING:
            reading.add(MANDATORY(Mandatory(key, parsed.at(key), named or "-")))
    if reading.findings:
        return None
    if named:
        reading.add(NOT_GIVEN(NotGiven(named)))
    return parsed


def _interpolated(composed: Composed) -> None:
    """The values NeMo reads with OmegaConf's plain interpolations followed (``${model.encoder_seq_length}``)."""
    for key in READ_KEYS:
        value, source = resolved(composed.data, key)
        if source != key and value is not None:
            *parents, leaf = key.split(".")
            node = composed.data
            for part in parents:
                node = node[part]
            node[leaf] = value
            composed.places[key] = composed.places.get(source, composed.places.get(key, ""))


def _launch_alone(reading: Reading, launch: _Launch) -> Parsed:
    """A launch line whose config YAML is not among the files: its overrides on what NeMo defaults to (the YAML's
    own values unknown, said); whether Hydra would refuse one is not decidable without that YAML."""
    given = [replace(o, prefix="++") for o in launch.given if o.prefix != "~"]
    composed = compose(None, [], given)
    script = PurePosixPath(launch.script).name
    reading.add(CONFIG_NOT_GIVEN(ConfigNotGiven(launch.where, script, stem(launch.name) if launch.name else "-")))
    return Parsed(launch.holder.source, Format.YAML, composed.data, places=composed.places)


def _primary(sources: list[Parsed], name: str | None) -> Parsed | None:
    """The YAML ``--config-name`` names (none where it names one not among the files); else the NeMo YAML no
    other YAML's defaults list names."""
    yamls = [p for p in sources if p.format is Format.YAML]
    if name is not None and "$" not in name:
        return next((p for p in yamls if stem(p.source.name) == stem(name)), None)
    listed = {stem(str(option)) for p in yamls for entry in _defaults(p) for option in _options(entry)}
    candidates = [p for p in yamls if detect(p) or _defaults(p)]
    return next((p for p in candidates if stem(p.source.name) not in listed), next(iter(candidates), None))


def _options(entry: object) -> list[object]:
    """The configs a defaults entry names: ``base``, or the option(s) of ``group: option``."""
    if isinstance(entry, dict):
        return [item for value in entry.values() for item in (value if isinstance(value, list) else [value])]
    return [entry]


def _defaults(parsed: Parsed) -> list[object]:
    listed = parsed.data.get("defaults")
    return listed if isinstance(listed, list) else []


_CONFIG_NAME = re.compile(r"@hydra_runner\((?:[^()]|\([^()]*\))*?config_name\s*=\s*[\"']([^\"']+)[\"']")


def _hydra_runner(parsed: Parsed) -> bool:
    """A script that imports NeMo 1's ``hydra_runner`` (``nemo.core.config``), the decorator its mains start by."""
    names = parsed.python.names.values() if parsed.python is not None else ()
    paths = (str(getattr(given.value, "path", "")) for given in names)
    return any(path.startswith("nemo.core.config") and path.endswith("hydra_runner") for path in paths)


def _runner_config(parsed: Parsed, launch: _Launch | None) -> str | None:
    """The ``config_name`` of the ``@hydra_runner`` of the script the launch line runs (or of the one script given)."""
    if parsed.format is not Format.PYTHON or not _hydra_runner(parsed):
        return None
    if launch is not None and PurePosixPath(launch.script).name != PurePosixPath(parsed.source.name).name:
        return None
    match = _CONFIG_NAME.search(parsed.source.text)
    return match.group(1) if match else None


@dataclass(frozen=True)
class _Launch:
    """The launch line of a Hydra script: where it is, the script it runs, ``--config-name`` and the overrides."""

    holder: Parsed
    where: str
    script: str
    name: str | None
    given: list[Override]


def _launch(sources: list[Parsed]) -> _Launch | None:
    """The launch line that runs a Python training script with NeMo's Hydra arguments."""
    for parsed in sources:
        for command in parsed.script.commands if parsed.script is not None else []:
            found = _hydra_words(parsed, command)
            if found is not None:
                return found
    return None


def _hydra_words(parsed: Parsed, command: Command) -> _Launch | None:
    """What follows the Python script (``train.py``, ``-m package.train``) on a command: Hydra's arguments, where
    they name the config or NeMo's sections."""
    words = command.words
    index = next((i + 1 for i, word in enumerate(words) if word.endswith(".py")), None)
    if index is None and "-m" in words[:-1]:
        index = words.index("-m") + 2
    if index is None or index > len(words):
        return None
    where = f"{parsed.source.name}:{command.line}"
    name, given = overrides(words[index:], where)
    if name is None and not any(o.key.split(".")[0] in SECTIONS for o in given):
        return None
    return _Launch(parsed, where, words[index - 1], name, given)
