"""What several frameworks' files say of the model and its memory, as ``MemoryFacts``.

- Megatron's arguments (``megatron/training/arguments.py``), as Megatron-LM's flags and NeMo's ``model`` section
  name them: ``num_layers``, ``hidden_size``, ``num_attention_heads``, ``num_query_groups`` (only with
  ``group_query_attention``), ``ffn_hidden_size`` (default 4h, with ``swiglu`` ``int(8h/3 / 64) · 64`` as
  ``validate_args`` sets it), ``kv_channels``, ``untie_embeddings_and_output_weights`` (tied by default),
  ``normalization`` (LayerNorm by default), ``add_bias_linear`` (on by default), ``add_qkv_bias``, the MoE flags,
  the vocabulary (``vocab_size``, or the tokenizer's where its type fixes it); and the set-up: TP, PP, CP, EP,
  the virtual stages, ``use_distributed_optimizer``, ``sequence_parallel``, ``recompute_granularity``,
  ``bf16``/``fp16``.
- A Hugging Face model id (``model_name_or_path``, ``base_model``, ``from_pretrained("…")``) and a DeepSpeed
  config's ZeRO stage, offloading and precision.

Values a script leaves to its run (``$HIDDEN`` unset) fix nothing: then there is no estimate, never an error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from effbatch.core.configs.base.memory import Architecture, MemoryFacts
from effbatch.core.configs.base.rules import Fix
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import lookup
from effbatch.core.configs.base.world import program_flags
from effbatch.core.configs.frameworks._shared.deepspeed_config import is_deepspeed_config

#: Vocabularies a Megatron tokenizer type fixes (``megatron/training/tokenizer``): GPT-2's BPE 50.257, Llama 2's
#: SentencePiece 32.000.
TOKENIZER_VOCAB = {"GPT2BPETokenizer": 50257, "Llama2Tokenizer": 32000}
#: ``--moe-layer-freq`` as a list of k dense layers, then MoE ones: ``([0]*3+[1]*58)``.
_LEADING_DENSE = re.compile(r"\(?\[0\]\s*\*\s*(\d+)\s*\+\s*\[1\]\s*\*\s*(\d+)\)?")


def number(value: Any) -> int | None:
    """A whole number of at least 1 as argparse or YAML gives it; None for anything else (``$X``, ``None``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1 <= value <= 10**12 else None
    if isinstance(value, str) and re.fullmatch(r"\d(?:_?\d){0,12}", value.strip()):
        found = int(value.strip())
        return found if found >= 1 else None
    return None


def switch(value: Any) -> bool:
    """A switch as given: a bare flag (True), a YAML boolean, ``"true"``."""
    return value is True or (isinstance(value, str) and value.strip().casefold() in ("true", "1", "yes"))


def megatron_arguments(found: Mapping[str, list[str]]) -> dict[str, Any]:
    """Flags as Megatron's ``args``: ``--num-layers 32`` → ``num_layers: "32"``, a bare switch → True."""
    return {
        flag[2:].replace("-", "_"): (values[0] if len(values) == 1 else " ".join(values) if values else True)
        for flag, values in found.items()
    }


def megatron_architecture(args: Mapping[str, Any]) -> Architecture | None:
    """The decoder Megatron builds from ``args``; None where a number is missing or the shape is not one
    ``core.memory`` counts (multi-latent attention, an interleaved MoE pattern)."""
    layers, hidden, heads = (number(args.get(k)) for k in ("num_layers", "hidden_size", "num_attention_heads"))
    if layers is None or hidden is None or heads is None or switch(args.get("multi_latent_attention")):
        return None
    swiglu = switch(args.get("swiglu"))
    ffn = number(args.get("ffn_hidden_size")) or (int(4 * hidden * 2 / 3 / 64) * 64 if swiglu else 4 * hidden)
    kv_heads = heads
    if switch(args.get("group_query_attention")):
        kv_heads = number(args.get("num_query_groups")) or 1  # Megatron's default is one group
    if args.get("attention_head_type") == "multiquery":  # bigcode's fork
        kv_heads = 1
    experts = number(args.get("num_experts")) or 0
    dense = _dense_layers(args.get("moe_layer_freq"), layers) if experts else 0
    if dense is None:
        return None
    return Architecture(
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        ffn=ffn,
        vocab=number(args.get("vocab_size")) or TOKENIZER_VOCAB.get(str(args.get("tokenizer_type"))),
        swiglu=swiglu,
        tied=not switch(args.get("untie_embeddings_and_output_weights")),
        layernorm=str(args.get("normalization", "LayerNorm")) == "LayerNorm" and not switch(args.get("RMSNorm")),
        bias=not switch(args.get("disable_bias_linear")) and args.get("add_bias_linear") is not False,
        qkv_bias=switch(args.get("add_qkv_bias")),
        head_dim=number(args.get("kv_channels")),
        experts=experts,
        topk=(number(args.get("moe_router_topk")) or 2) if experts else 0,
        moe_ffn=(number(args.get("moe_ffn_hidden_size")) or ffn) if experts else 0,
        shared_ffn=(number(args.get("moe_shared_expert_intermediate_size")) or 0) if experts else 0,
        dense_layers=dense,
    )


def _dense_layers(frequency: Any, layers: int) -> int | None:
    """Dense layers before the MoE ones: none for a frequency of 1 (every layer), k for ``[0]*k+[1]*n``."""
    if frequency is None or number(frequency) == 1:
        return 0
    found = _LEADING_DENSE.fullmatch(str(frequency).replace(" ", ""))
    if found is None or int(found.group(1)) + int(found.group(2)) != layers:
        return None
    return int(found.group(1))


def megatron_facts(args: Mapping[str, Any], where: str, micro_setting: Fix | None) -> MemoryFacts | None:
    """The model and the set-up Megatron's ``args`` fix, by Megatron-LM's convention."""
    architecture = megatron_architecture(args)
    if architecture is None:
        return None
    tp, pp, cp, ep = (
        number(args.get(f"{name}_model_parallel_size")) or 1 for name in ("tensor", "pipeline", "context", "expert")
    )
    per_stage = number(args.get("num_layers_per_virtual_pipeline_stage"))
    vpp = number(args.get("virtual_pipeline_model_parallel_size"))
    if vpp is None and per_stage and architecture.layers % (pp * per_stage) == 0 and pp > 1:
        vpp = architecture.layers // (pp * per_stage)
    return MemoryFacts(
        rules="megatron",
        where=where,
        architecture=architecture,
        tp=tp,
        pp=pp,
        cp=cp,
        ep=ep,
        etp=number(args.get("expert_tensor_parallel_size")),
        vpp=vpp if vpp and vpp > 1 else None,
        dtype="bf16" if switch(args.get("bf16")) else "fp16" if switch(args.get("fp16")) else "fp32",
        # Megatron-LLaMA's overlapped optimizer shards the states over d as the distributed optimizer does
        distributed_optimizer=any(
            switch(args.get(name)) for name in ("use_distributed_optimizer", "overlapped_distributed_optimizer")
        ),
        recompute=_recompute(args),
        sequence_parallel=switch(args.get("sequence_parallel")) and tp > 1,
        micro_setting=micro_setting,
        **_apex_optimizer(args),
    )


def _apex_optimizer(args: Mapping[str, Any]) -> dict[str, Any]:
    """NeMo's Apex DistributedFusedAdam (``nemo_arguments``' ``apex_optimizer``): its grad-sync and state dtypes as
    the YAML writes them (``bf16``, ``fp32``; others left to the optimizer's default) and ``fp8_params``."""
    if not switch(args.get("apex_optimizer")):
        return {}
    dtypes = {"bf16": "bf16", "bfloat16": "bf16", "fp32": "fp32", "float32": "fp32", "32": "fp32"}
    return {
        "optimizer": "distributed_fused_adam",
        "grad_sync": dtypes.get(str(args.get("grad_sync_dtype")).casefold()),
        "optim_dtype": dtypes.get(str(args.get("optim_dtype")).casefold()),
        "fp8_params": switch(args.get("fp8_params")),
    }


def _recompute(args: Mapping[str, Any]) -> str | None:
    """``--recompute-granularity``; ``--recompute-activations`` is selective; old releases' (and BigScience's)
    ``--checkpoint-activations`` is the whole layer."""
    granularity = args.get("recompute_granularity")
    if granularity in ("full", "selective"):
        return str(granularity)
    if switch(args.get("recompute_activations")):
        return "selective"
    if switch(args.get("checkpoint_activations")):
        return "full"
    return "none"


#: NeMo's gated activations (``nemo/collections/nlp/modules/common/megatron/mlp.py``): three matrices, as SwiGLU.
GATED = frozenset({"swiglu", "fast-swiglu", "geglu", "fast-geglu", "reglu", "fast-reglu"})
#: NeMo's ``model`` keys that are Megatron's argument of the same name.
SAME_AS_MEGATRON = (
    "num_layers",
    "hidden_size",
    "num_attention_heads",
    "ffn_hidden_size",
    "kv_channels",
    "tensor_model_parallel_size",
    "pipeline_model_parallel_size",
    "context_parallel_size",
    "expert_model_parallel_size",
    "expert_tensor_parallel_size",
    "virtual_pipeline_model_parallel_size",
    "sequence_parallel",
    "moe_router_topk",
    "moe_ffn_hidden_size",
)


def nemo_arguments(data: Mapping[str, Any]) -> dict[str, Any]:
    """NeMo 1's YAML as Megatron's ``args`` (``examples/nlp/language_modeling/conf/megatron_gpt_config.yaml``):
    ``activation``, ``share_embeddings_and_output_weights`` (True by default), ``normalization``, ``bias``,
    ``num_query_groups`` (None: every head), ``num_moe_experts``, ``optim.name: distributed_fused_adam``,
    ``activations_checkpoint_granularity``, ``tokenizer.type`` and ``trainer.precision``."""
    model = lookup(data, "model") or {}
    args: dict[str, Any] = {key: model[key] for key in SAME_AS_MEGATRON if key in model}
    groups = model.get("num_query_groups")
    args["group_query_attention"] = groups is not None and groups != model.get("num_attention_heads")
    args["num_query_groups"] = groups
    args["swiglu"] = str(model.get("activation", "gelu")).casefold() in GATED
    args["untie_embeddings_and_output_weights"] = model.get("share_embeddings_and_output_weights", True) is False
    args["normalization"] = "RMSNorm" if str(model.get("normalization", "")).casefold() == "rmsnorm" else "LayerNorm"
    args["add_bias_linear"] = model.get("bias", True) is not False
    args["num_experts"] = model.get("num_moe_experts")
    args["tokenizer_type"] = lookup(model, "tokenizer.type")
    args["use_distributed_optimizer"] = lookup(model, "optim.name") == "distributed_fused_adam"
    # NeMo then trains without Megatron-core's DDP and its fp32 grad buffer (megatron_gpt_model.py lines 519-549)
    args["apex_optimizer"] = args["use_distributed_optimizer"]
    args["grad_sync_dtype"] = lookup(model, "optim.grad_sync_dtype")
    args["optim_dtype"] = lookup(model, "optim.dtype")
    args["fp8_params"] = model.get("fp8_params", False)
    args["recompute_granularity"] = model.get("activations_checkpoint_granularity")
    precision = str(lookup(data, "trainer.precision") or "32").casefold()
    args["bf16"], args["fp16"] = precision.startswith("bf16"), precision.startswith("16")
    return args


# --- a Hugging Face model id and a DeepSpeed config ----------------------------------------------------------

#: Where a run names the checkpoint it trains: TrainingArguments' neighbours, LLaMA-Factory, axolotl, TRL.
MODEL_KEYS = ("model_name_or_path", "base_model", "model.name_or_path", "model_name")
MODEL_FLAGS = ("--model_name_or_path", "--model-name-or-path", "--model_name", "--base_model")


def hf_model(sources: list[Parsed]) -> tuple[str, str] | None:
    """The Hugging Face id a run trains and where it is written: a config's key, a launch flag, a script's
    ``from_pretrained("…")`` or its arguments' default."""
    for parsed in sources:
        if parsed.format in (Format.YAML, Format.JSON, Format.TOML):
            for key in MODEL_KEYS:
                value = lookup(parsed.data, key)
                if isinstance(value, str) and value.strip():
                    return value.strip(), parsed.where(key.rsplit(".", 1)[-1])
        elif parsed.format is Format.SHELL:
            found = program_flags(parsed, MODEL_FLAGS)
            for flag in MODEL_FLAGS:
                if len(found.get(flag, [])) == 1:
                    return found[flag][0], parsed.where(flag)
        elif parsed.format is Format.PYTHON and (named := _script_model(parsed)) is not None:
            return named
    return None


def _script_model(parsed: Parsed) -> tuple[str, str] | None:
    script = parsed.python
    if script is None:
        return None
    for instance in script.instances:
        given = instance.fields.get("model_name_or_path")
        if given is not None and isinstance(given.value, str):
            return given.value, given.where(parsed.source.name)
    for call in script.called("from_pretrained"):
        first = call.args[0] if call.args else None
        if first is not None and isinstance(first.value, str):
            return first.value, first.where(parsed.source.name)
    return None


#: Settings that train adapters or a quantized model instead of every weight: effbatch's estimate would count
#: full fine-tuning, so there is none (LoRA's frozen weights and small adapters are not modelled).
ADAPTER_SWITCHES = ("use_peft", "load_in_4bit", "load_in_8bit")
ADAPTER_KEYS = ("adapter", "peft_config", "lora_config", "quantization_bit")
#: LLaMA-Factory's stages that train one model on full sequences (DPO, PPO, KTO, RM hold a second model or head).
LLAMAFACTORY_FULL_STAGES = frozenset({"pt", "sft"})
#: The Trainer's ``fsdp`` words (``FSDPOption``) as ZeRO stages: full and hybrid shard 3, shard_grad_op 2.
FSDP_STAGES = {"full_shard": 3, "hybrid_shard": 3, "hybrid_shard_zero2": 2, "shard_grad_op": 2}


def hf_facts(
    sources: list[Parsed], values: Mapping[str, Any], degrees: Mapping[str, int], micro_setting: Fix | None
) -> MemoryFacts | None:
    """A Trainer run's model and set-up: the Hugging Face id, ``tp_size``/``cp_size``/``sp_size``, the ZeRO stage
    and offloading of its DeepSpeed config (``deepspeed``'s estimators for stages 2 and 3) or its ``fsdp`` words,
    ``bf16``/``fp16``, ``gradient_checkpointing``. None where adapters or quantization train instead, or where a
    DeepSpeed config is named but not among the files (its stage unknown)."""
    named = hf_model(sources)
    if named is None or adapters(values) or not _adam(values):
        return None
    zero, offload, dtype = _sharding(sources, values)
    if zero is None:
        return None
    config = next((p for p in sources if is_deepspeed_config(p)), None)
    return MemoryFacts(
        rules="deepspeed" if config is not None and zero >= 2 else "effbatch",
        where=named[1],
        model=named[0],
        tp=degrees.get("tp_size", 1),
        cp=degrees.get("cp_size", 1),
        sp=degrees.get("sp_size", 1),
        dtype=dtype,
        zero=zero,
        offload=offload,
        recompute="full" if _checkpointing(values) else None,
        micro_setting=micro_setting,
    )


def _checkpointing(values: Mapping[str, Any]) -> bool:
    """``gradient_checkpointing``; LLaMA-Factory checkpoints unless ``disable_gradient_checkpointing``
    (``model/model_utils/checkpointing.py:164``)."""
    if "stage" in values:
        return not switch(values.get("disable_gradient_checkpointing"))
    return switch(values.get("gradient_checkpointing"))


#: The Trainer's ``optim`` (axolotl's ``optimizer``) values that keep Adam's two fp32 moments: the 12 bytes a
#: parameter the conventions count. 8-bit, paged, Adafactor, Lion, GaLore … keep less: no estimate for them.
ADAM = frozenset({"adamw_torch", "adamw_torch_fused", "adamw_hf", "adamw", "adam", "adamw_apex_fused", "fused_adam"})


def _adam(values: Mapping[str, Any]) -> bool:
    chosen = values.get("optim") or values.get("optimizer")
    return chosen is None or (isinstance(chosen, str) and chosen.casefold() in ADAM)


def adapters(values: Mapping[str, Any]) -> bool:
    """LoRA, QLoRA, frozen layers or a quantized base: not every weight trains. LLaMA-Factory's ``finetuning_type``
    is ``lora`` unless it says ``full``."""
    if "stage" in values and (
        values.get("finetuning_type") != "full" or values["stage"] not in LLAMAFACTORY_FULL_STAGES
    ):
        return True
    if any(switch(values.get(key)) for key in ADAPTER_SWITCHES):
        return True
    if any(values.get(key) not in (None, False, "", "none", "None") for key in ADAPTER_KEYS):
        return True
    # a script's own switches: --use_lora, --lora_enable True, --lora_r 64 (Qwen's, LLaVA's finetune.py)
    return any(
        ("lora" in key or "peft" in key) and value not in (None, False, 0, "", "False", "false")
        for key, value in values.items()
    )


def _sharding(sources: list[Parsed], values: Mapping[str, Any]) -> tuple[int | None, str, str]:
    """(ZeRO stage, offload, precision) from the DeepSpeed config among the sources, else the ``fsdp`` words; the
    stage None where ``deepspeed`` names a file that is not among them."""
    bf16 = switch(values.get("bf16")) or values.get("bf16") == "auto"  # axolotl's auto: bf16 where the GPU has it
    dtype = "bf16" if bf16 else "fp16" if switch(values.get("fp16")) else "fp32"
    config = next((p for p in sources if is_deepspeed_config(p)), None)
    if config is None:
        if values.get("deepspeed"):
            return None, "none", dtype
        words = values.get("fsdp") or ""
        named = words if isinstance(words, list) else str(words).split()
        zero = max((FSDP_STAGES.get(str(word), 0) for word in named), default=0)
        return zero, "params" if "offload" in named and zero == 3 else "none", dtype
    stage = lookup(config.data, "zero_optimization.stage")
    zero = stage if isinstance(stage, int) and 0 <= stage <= 3 else 0
    devices = [lookup(config.data, f"zero_optimization.{key}.device") for key in ("offload_optimizer", "offload_param")]
    offload = "none"
    if devices[0] in ("cpu", "nvme"):
        offload = "params" if devices[1] in ("cpu", "nvme") and zero == 3 else "optimizer"
    for precision in ("bf16", "fp16"):
        if lookup(config.data, f"{precision}.enabled") is True:
            dtype = precision
    return zero, offload, dtype
