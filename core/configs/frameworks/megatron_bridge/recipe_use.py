"""A script that uses one of NeMo 2's library recipes and changes it before it runs:

``recipe = llm.llama3_8b.pretrain_recipe(dir=…, num_nodes=1, num_gpus_per_node=8)``, then
``recipe.trainer.strategy.tensor_model_parallel_size = 2``, ``recipe.data.global_batch_size = 16`` …, then
``run.run(recipe, …)``.

- What the script assigns (its first assignment of each attribute) wins; else what it passes to the recipe call
  (``num_nodes``, ``num_gpus_per_node``; the Qwen and Nemotron recipes also take ``tensor_parallelism``,
  ``global_batch_size`` …); else the library recipe's own default: ``trainer()``'s parameters and the
  ``run.Config(MockDataModule, …)`` of ``pretrain_recipe()`` (``nemo/collections/llm/recipes/<model>.py``), read at
  NVIDIA/NeMo ``COMMIT`` into ``PRETRAIN``. A recipe not in the table (and every ``finetune_recipe``, whose data
  module differs by model) leaves what the script does not set unknown: said, never guessed. A part the script
  replaces whole (``recipe.data = run.Config(llm.PreTrainingDataModule, global_batch_size=…)``) gives only what its
  new call passes.
- The world is ``recipe.trainer.num_nodes × recipe.trainer.devices`` (the recipe passes ``num_nodes`` and
  ``num_gpus_per_node`` to them, ``trainer()`` in each recipe).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from effbatch.core.configs.base.source import Parsed
from effbatch.core.configs.base.values import Reading, whole
from effbatch.core.configs.read.python import sites
from effbatch.core.configs.read.python.sites import Call, Script, Value

#: NVIDIA/NeMo's commit the defaults were read at (2025-09-20).
COMMIT = "8cfedd7203462cb251a914e700e5605444277561"
_RECIPE_CALL = re.compile(r"llm\.(\w{1,80})\.(pretrain_recipe|finetune_recipe)")
_USED = re.compile(r"\bllm\.\w{1,80}\.(?:pretrain|finetune)_recipe\(")


@dataclass(frozen=True)
class Defaults:
    """What ``<model>.pretrain_recipe()`` sets when the script changes nothing; ``source`` gives the lines."""

    source: str
    nodes: int
    gpus: int
    tp: int
    pp: int
    cp: int
    vpp: int | None
    gbs: int
    micro: int
    seq_len: int


_R = "nemo/collections/llm/recipes"
#: ``pretrain_recipe()`` by recipe module: lines of trainer() (or pretrain_recipe's parameters) and the data module.
PRETRAIN: Mapping[str, Defaults] = {
    "llama3_8b": Defaults(f"{_R}/llama3_8b.py:60-68,148-152,190", 1, 8, 1, 1, 2, None, 512, 1, 8192),
    "llama3_70b": Defaults(f"{_R}/llama3_70b.py:61-69,146-150,192", 1, 8, 4, 4, 2, 5, 512, 1, 8192),
    "llama31_8b": Defaults(f"{_R}/llama31_8b.py:65-73,150-154,195", 1, 8, 1, 1, 2, None, 512, 1, 8192),
    "llama31_70b": Defaults(f"{_R}/llama31_70b.py:65-73,150-154,195", 1, 8, 4, 4, 2, 5, 512, 1, 8192),
    "llama31_405b": Defaults(f"{_R}/llama31_405b.py:65-75,154-158,199", 1, 8, 8, 8, 4, 2, 512, 1, 8192),
    "llama32_1b": Defaults(f"{_R}/llama32_1b.py:60-68,143-147,186", 1, 8, 1, 1, 1, None, 512, 1, 8192),
    "llama32_3b": Defaults(f"{_R}/llama32_3b.py:60-68,143-147,186", 1, 8, 1, 1, 1, None, 512, 1, 8192),
    "llama2_7b": Defaults(f"{_R}/llama2_7b.py:60-68,146-150,188", 1, 8, 2, 1, 1, None, 512, 1, 4096),
    "mistral_7b": Defaults(f"{_R}/mistral_7b.py:139-140,170-178,181", 1, 8, 1, 1, 2, None, 512, 1, 4096),
    "mixtral_8x7b": Defaults(f"{_R}/mixtral_8x7b.py:59-68,144-148,184", 8, 8, 1, 4, 1, 8, 512, 1, 4096),
    "nemotron4_15b": Defaults(f"{_R}/nemotron4_15b.py:56-89,163", 1, 8, 4, 1, 1, None, 32, 2, 4096),
    "qwen2_7b": Defaults(f"{_R}/qwen2_7b.py:54-86,159", 1, 8, 2, 1, 1, None, 32, 2, 4096),
    "qwen2_72b": Defaults(f"{_R}/qwen2_72b.py:54-86,159", 4, 8, 8, 4, 1, None, 32, 2, 4096),
    "qwen25_7b": Defaults(f"{_R}/qwen25_7b.py:54-86,159", 1, 8, 2, 1, 1, None, 32, 2, 4096),
    "qwen25_72b": Defaults(f"{_R}/qwen25_72b.py:54-86,159", 4, 8, 8, 4, 1, None, 32, 2, 4096),
}
#: Each setting: the attribute a script assigns under the recipe, and the recipe call's keyword for it.
SETTINGS: Mapping[str, tuple[str, str]] = {
    "nodes": ("trainer.num_nodes", "num_nodes"),
    "gpus": ("trainer.devices", "num_gpus_per_node"),
    "tp": ("trainer.strategy.tensor_model_parallel_size", "tensor_parallelism"),
    "pp": ("trainer.strategy.pipeline_model_parallel_size", "pipeline_parallelism"),
    "cp": ("trainer.strategy.context_parallel_size", "context_parallelism"),
    "vpp": ("trainer.strategy.virtual_pipeline_model_parallel_size", "virtual_pipeline_parallelism"),
    "gbs": ("data.global_batch_size", "global_batch_size"),
    "micro": ("data.micro_batch_size", "micro_batch_size"),
    "seq_len": ("data.seq_length", "seq_length"),
}

#: Parts a script may replace whole; what it then leaves unset is not the recipe's default any more.
REPLACEABLE = ("data", "trainer.strategy", "trainer")


@dataclass(frozen=True)
class Use:
    """The recipe used (``llama3_8b.pretrain_recipe``), its settings as the script leaves them (``vpp`` None: not
    interleaved), the attributes neither the script nor ``PRETRAIN`` gives, and the call's line."""

    recipe: str
    values: Mapping[str, int | None]
    unknown: tuple[str, ...]
    line: int


def used(text: str) -> bool:
    """``llm.<model>.pretrain_recipe(`` or ``finetune_recipe(`` in the text."""
    return bool(_USED.search(text))


def recipe_calls(script: Script) -> list[Call]:
    """The script's calls of a library recipe, the first first."""
    return [c for c in script.calls if _RECIPE_CALL.fullmatch(c.callee)]


def read(reading: Reading, parsed: Parsed, script: Script, call: Call) -> Use:
    """Each setting as the script leaves it: assigned, passed to the call, the recipe's default, or unknown."""
    match = _RECIPE_CALL.fullmatch(call.callee)
    model, kind = (match.group(1), match.group(2)) if match else ("", "")
    defaults = PRETRAIN.get(model) if kind == "pretrain_recipe" else None
    prefix = f"{_target(script, call)}."
    written = script.assigned.get(call.function, {})
    assigned = {k.removeprefix(prefix): v for k, v in written.items() if k.startswith(prefix)}
    known = {**script.constants, **script.parameters.get(call.function, {})}
    values: dict[str, int | None] = {}
    unknown: list[str] = []
    replaced = _replaced(script, call.function, assigned)
    for setting, (attribute, keyword) in SETTINGS.items():
        owner = next((p for p in REPLACEABLE if attribute.startswith(f"{p}.") and p in replaced), None)
        value = assigned.get(attribute)
        if owner is not None:  # recipe.data = run.Config(PreTrainingDataModule, …): its keywords, no defaults
            value = value or replaced[owner].get(attribute.removeprefix(f"{owner}."))
            if value is None:
                unknown.append(attribute)
                continue
        value = value or call.keywords.get(keyword)
        if value is not None:
            key = attribute if attribute in assigned else keyword
            values[setting] = _number(reading, parsed, key, sites.resolve(value, known))
        elif defaults is not None:
            values[setting] = getattr(defaults, setting)
            reading.note(attribute, values[setting], f"{defaults.source} (NVIDIA/NeMo {COMMIT[:8]})")
        else:
            unknown.append(attribute)
    return Use(f"{model}.{kind}", values, tuple(unknown), call.line)


def _replaced(script: Script, function: str, assigned: Mapping[str, Value]) -> dict[str, dict[str, Value]]:
    """Parts of the recipe the script replaces whole (``recipe.data = run.Config(PreTrainingDataModule, …)``): the
    keywords of the call on that line with the most of them (none where the new value is no call)."""
    replaced: dict[str, dict[str, Value]] = {}
    for part in REPLACEABLE:
        if part in assigned:
            line = assigned[part].line
            calls = [c.keywords for c in script.calls if c.function == function and c.line == line]
            replaced[part] = max(calls, key=len, default={})
    return replaced


def _target(script: Script, call: Call) -> str:
    """The name the recipe is assigned to: the plain name assigned on the call's line (``recipe`` by default)."""
    names = script.assigned.get(call.function, {})
    return next((k for k, v in names.items() if v.line == call.line and "." not in k), "recipe")


def _number(reading: Reading, parsed: Parsed, key: str, value: Value) -> int | None:
    """A whole number as written; None where the script writes ``None`` (no virtual pipeline)."""
    if value.number is None and value.written == "None":
        reading.note(key, "None", f"{parsed.source.name}:{value.line}")
        return None
    return whole_value(reading, parsed, key, value)


def whole_value(reading: Reading, parsed: Parsed, key: str, value: Value) -> int:
    """A value noted where it is written and taken as a whole number (``CheckError`` where it is not one)."""
    where = f"{parsed.source.name}:{value.line}"
    shown = value.number if value.number is not None else value.written
    reading.note(key, shown, where)
    return whole(shown, key, where)
