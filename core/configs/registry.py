"""The frameworks effbatch reads, in the order detection tries them: the only place that knows the order.

The more specific first: a Hugging Face launch beside a DeepSpeed JSON is the Trainer's run, a NeMo YAML is not
a Lightning one, an accelerate config beside TrainingArguments is the Trainer's launch.

A framework's module is imported only when a question needs it: each entry keeps, as data, the formats its
``detect`` can hold for and, for YAML, JSON and TOML, the key names one of which such a file must spell for it
(``detect`` reads keys, and a key is written out in some source's text). A DeepSpeed JSON so imports DeepSpeed
alone; a launch script or a Python script, every framework that reads those. The marks only pass over what the
module's own ``detect`` would refuse: ``tests/test_registry.py`` holds them against every module's key tables
and against eager detection over every source the tests and the corpus have.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from effbatch.core.configs.base import CheckError, Format, Framework, Parsed, ProblemKind

_STRUCTURED = frozenset({Format.YAML, Format.JSON, Format.TOML})
_CODE = frozenset({Format.SHELL, Format.PYTHON})
SHELL, PYTHON, YAML, JSON, TOML = Format.SHELL, Format.PYTHON, Format.YAML, Format.JSON, Format.TOML


@dataclass(frozen=True)
class Entry:
    """A framework before its module is imported: its id (its module's name), what its ``detect`` looks at."""

    id: str
    #: The formats of the sources ``detect`` can say yes to.
    formats: frozenset[Format]
    #: For a YAML, JSON or TOML source: one of these key names stands in the sources' texts as a word of its own
    #: (``micro_batch_size:``, ``"micro_batch_size"``, ``train.micro_batch_size``), else ``detect`` says no.
    marks: tuple[str, ...] = ()
    #: Its ``detect`` knows a Python script by the call that decides the run (``deepspeed.initialize``, an
    #: ``Accelerator`` that prepares the script's own loop and no Trainer): among the scripts, it is tried first,
    #: before a framework that knows the script by arguments it merely parses (``TrainingArguments``, nanoGPT's names).
    decides_script: bool = False

    def may_detect(self, parsed: Sequence[Parsed], texts: str) -> bool:
        """Whether ``detect`` could say yes to one of ``parsed`` (``texts``: every source's text, joined)."""
        formats = {p.format for p in parsed} & self.formats
        return bool(formats & _CODE) or (bool(formats) and (not self.marks or self._marked(texts)))

    def _marked(self, texts: str) -> bool:
        # A substring search first (C speed); the word boundaries only where a mark occurs at all.
        return any(mark in texts for mark in self.marks) and _words(self.marks).search(texts) is not None


@cache
def _words(marks: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, marks)) + r")(?![\w-])")


_HF_TRAINER = ("per_device_train_batch_size",)
_TRL_KEYS = (
    *("num_generations", "generation_batch_size", "steps_per_generation", "num_iterations", "reward_funcs"),
    *("rloo_k", "dataset_name", "packing_strategy", "padding_free", "dataset_text_field", "completion_only_loss"),
    *("assistant_only_loss", "dataset_kwargs", "model_init_kwargs", "chat_template_path", "activation_offloading"),
    *("accelerate_config", "dataset_mixture", "dataset_train_split", "eval_packing"),
)
_DEEPSPEED_KEYS = (
    *("train_batch_size", "train_micro_batch_size_per_gpu", "zero_optimization", "zero_allow_untested_optimizer"),
    *("steps_per_print", "wall_clock_breakdown"),
)
_LLAMAFACTORY_KEYS = (
    *("finetuning_type", "template", "cutoff_len", "lora_target", "neat_packing", "dataset_dir"),
    *("model_class", "dist_config", "train_dataset"),
)
_NEMO_MODEL_KEYS = (
    *("micro_batch_size", "global_batch_size"),
    *("tensor_model_parallel_size", "pipeline_model_parallel_size"),
)

#: Every framework, in detection order.
ENTRIES: tuple[Entry, ...] = (
    Entry("megatron", frozenset({SHELL})),
    Entry("verl", frozenset({SHELL, YAML, JSON}), ("actor_rollout_ref",)),
    Entry("openrlhf", frozenset({SHELL})),
    Entry("llamafactory", frozenset({SHELL, YAML, JSON}), _LLAMAFACTORY_KEYS),
    Entry("trl", frozenset({SHELL, PYTHON, YAML, JSON}), _TRL_KEYS),
    Entry("huggingface", frozenset({SHELL, PYTHON, YAML, JSON}), _HF_TRAINER),
    Entry("nanotron", frozenset({YAML, JSON}), ("batch_accumulation_per_replica",)),
    Entry("llmfoundry", frozenset({YAML, JSON}), ("global_train_batch_size", "device_train_microbatch_size")),
    Entry("olmo", frozenset({YAML, JSON}), ("global_train_batch_size", "device_train_microbatch_size")),
    Entry("litgpt", frozenset({SHELL, YAML, JSON}), ("global_batch_size", "micro_batch_size")),
    Entry("torchtune", frozenset({YAML}), ("_component_",)),
    Entry("maxtext", frozenset({SHELL, YAML}), ("per_device_batch_size",)),
    Entry("nemo", frozenset({SHELL, PYTHON, YAML}), _NEMO_MODEL_KEYS),
    Entry("olmo_core", frozenset({PYTHON})),
    Entry("megatron_bridge", frozenset({PYTHON})),
    Entry("levanter", frozenset({YAML}), ("trainer",)),
    Entry("torchtitan", frozenset({TOML, PYTHON}), ("training",)),
    Entry("nanogpt", frozenset({SHELL, PYTHON})),
    Entry("axolotl", frozenset({YAML}), ("micro_batch_size",)),
    Entry("deepspeed", frozenset({YAML, JSON, PYTHON}), _DEEPSPEED_KEYS, decides_script=True),
    Entry("lightning", frozenset({PYTHON, YAML}), ("trainer",)),
    Entry("accelerate", frozenset({PYTHON, YAML, JSON}), ("distributed_type",), decides_script=True),
)
#: The ids, in detection order (``--framework``'s choices): no module imported.
IDS: tuple[str, ...] = tuple(entry.id for entry in ENTRIES)


@cache
def framework(framework_id: str) -> Framework:
    """The framework ``framework_id`` names, its module imported now (``KeyError`` for an unknown id)."""
    if framework_id not in IDS:
        raise KeyError(framework_id)
    module = importlib.import_module(f"{__package__}.frameworks.{framework_id}")
    return Framework(module.ID, module.detect, module.check, module.RULES)


def all_frameworks() -> tuple[Framework, ...]:
    """Every framework in detection order, every module imported (the rules' list, the docs)."""
    return tuple(framework(framework_id) for framework_id in IDS)


def detect(parsed: Sequence[Parsed]) -> Framework:
    """The first framework, in ``ENTRIES``' order, that one of the sources belongs to; a Python script among
    them decides first (the code that runs is the framework's, whatever flags the launch line passes it), and
    among the scripts the call that decides the run first (``decides_script``)."""
    texts = "\n".join(p.source.text for p in parsed)
    candidates = [entry for entry in ENTRIES if entry.may_detect(parsed, texts)]
    scripts = [source for source in parsed if source.format is Format.PYTHON]
    deciding, every = [e.id for e in candidates if e.decides_script], [e.id for e in candidates]
    for group, ids in ((scripts, deciding), (scripts, every), (parsed, every)):
        for framework_id in ids:
            found = framework(framework_id)
            if any(found.detect(source) for source in group):
                return found
    raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in parsed])
