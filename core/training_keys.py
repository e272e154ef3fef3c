"""The keys of the memory and time questions: the model, its shape, the set-up, the time.

Kept apart from ``core.arguments`` and the parser's tables: these keys take names, choices, decimals
and units, not only whole numbers. ``read_value`` turns a typed text into the value or a ``NumberError``
naming what went wrong; the parser calls it for every key found in ``TRAINING_KEY_ALIASES``.

Dependency-light: the parser, the errors and the presentation import it.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from effbatch.core.errors import ProblemKind
from effbatch.core.memory.gpus import find_gpu, gpu_names
from effbatch.core.memory.models import find_model, model_names
from effbatch.core.memory.setup import Attention, Dtype, Framework, Offload, Optimizer, Recompute, Rules
from effbatch.core.numbers import BYTE_SUFFIXES, COUNT_SUFFIXES, TOKEN_SUFFIXES, NumberError, parse_whole_number


class TrainingKey(StrEnum):
    """Every memory and time key; the values double as the request's field names."""

    MODEL = "model"
    LAYERS = "layers"
    HIDDEN = "hidden"
    HEADS = "heads"
    KV_HEADS = "kv_heads"
    FFN = "ffn"
    VOCAB = "vocab"
    SWIGLU = "swiglu"
    TIED = "tied"
    EXPERTS = "experts"
    TOPK = "topk"
    MOE_FFN = "moe_ffn"
    HEAD_DIM = "head_dim"
    GPU = "gpu"
    GPU_MEM = "gpu_mem"
    DTYPE = "dtype"
    ZERO = "zero"
    DISTRIBUTED_OPTIMIZER = "distributed_optimizer"
    OFFLOAD = "offload"
    RECOMPUTE = "recompute"
    SEQUENCE_PARALLEL = "sequence_parallel"
    EP = "ep"
    ETP = "etp"
    VPP = "vpp"
    LARGEST_LAYER = "largest_layer"
    ZERO_INIT = "zero_init"
    COMPILE = "compile"
    USE_CACHE = "use_cache"
    LOSS_FUSION = "loss_fusion"
    TP_COMM_OVERLAP = "tp_comm_overlap"
    AUTOCAST = "autocast"
    OPTIMIZER = "optimizer"
    GRAD_SYNC = "grad_sync"
    OPTIM_DTYPE = "optim_dtype"
    FP8_PARAMS = "fp8_params"
    NODES = "nodes"
    RULES = "rules"
    FRAMEWORK = "framework"
    ATTENTION = "attention"
    NET_GBPS = "net_gbps"
    MFU = "mfu"
    PEAK = "peak"
    STEP_TIME = "step_time"
    TOKENS_PER_SECOND = "tokens_per_second"

    @property
    def key(self) -> str:
        """The key a canonical command writes it with."""
        return {TrainingKey.MODEL: "modell", TrainingKey.RULES: "regeln", TrainingKey.NET_GBPS: "net"}.get(
            self, self.value
        )


#: The shape keys: with all of layers, hidden, heads, ffn and vocab (or a model name) the model is known.
SHAPE_KEYS = (
    TrainingKey.LAYERS,
    TrainingKey.HIDDEN,
    TrainingKey.HEADS,
    TrainingKey.KV_HEADS,
    TrainingKey.FFN,
    TrainingKey.VOCAB,
    TrainingKey.SWIGLU,
    TrainingKey.TIED,
    TrainingKey.EXPERTS,
    TrainingKey.TOPK,
    TrainingKey.MOE_FFN,
    TrainingKey.HEAD_DIM,
)
#: Without a model name these five must be given.
REQUIRED_SHAPE_KEYS = (TrainingKey.LAYERS, TrainingKey.HIDDEN, TrainingKey.HEADS, TrainingKey.FFN, TrainingKey.VOCAB)
#: The time keys: at most one of them.
TIME_KEYS = (TrainingKey.MFU, TrainingKey.STEP_TIME, TrainingKey.TOKENS_PER_SECOND)

_K = TrainingKey
#: Accepted keys (case-folded) per training key: German words, the frameworks' and Hugging Face's names.
TRAINING_KEY_ALIASES: Mapping[str, TrainingKey] = MappingProxyType(
    {
        **dict.fromkeys(("modell", "model", "model_name", "model_id"), _K.MODEL),
        **dict.fromkeys(("layers", "schichten", "num_layers", "num_hidden_layers", "n_layers", "n_layer"), _K.LAYERS),
        **dict.fromkeys(("hidden", "hidden_size", "d_model", "dim", "n_embd"), _K.HIDDEN),
        **dict.fromkeys(("heads", "köpfe", "koepfe", "num_attention_heads", "n_heads", "n_head"), _K.HEADS),
        **dict.fromkeys(
            ("kv_heads", "kv_köpfe", "kv_koepfe", "num_key_value_heads", "n_kv_heads", "num_query_groups"), _K.KV_HEADS
        ),
        **dict.fromkeys(("ffn", "ffn_hidden_size", "intermediate_size", "ffn_dim"), _K.FFN),
        **dict.fromkeys(("vocab", "vokabular", "vocab_size", "padded_vocab_size"), _K.VOCAB),
        **dict.fromkeys(("swiglu", "gated"), _K.SWIGLU),
        **dict.fromkeys(("tied", "gebunden", "tie_word_embeddings", "tie_embeddings"), _K.TIED),
        **dict.fromkeys(("experts", "experten", "num_experts", "n_routed_experts", "num_local_experts"), _K.EXPERTS),
        **dict.fromkeys(("topk", "top_k", "num_experts_per_tok", "moe_router_topk"), _K.TOPK),
        **dict.fromkeys(("moe_ffn", "moe_intermediate_size", "moe_ffn_hidden_size"), _K.MOE_FFN),
        **dict.fromkeys(("head_dim", "kopfgröße", "kopfgroesse", "kv_channels"), _K.HEAD_DIM),
        **dict.fromkeys(("gpu_typ", "gpu_type", "beschleuniger", "accelerator"), _K.GPU),
        **dict.fromkeys(("gpu_mem", "gpu_speicher", "gpu_memory", "hbm"), _K.GPU_MEM),
        **dict.fromkeys(("dtype", "präzision", "praezision", "precision"), _K.DTYPE),
        **dict.fromkeys(("zero", "zero_stage", "fsdp"), _K.ZERO),
        **dict.fromkeys(
            ("distributed_optimizer", "use_distributed_optimizer", "verteilter_optimierer"), _K.DISTRIBUTED_OPTIMIZER
        ),
        **dict.fromkeys(("offload", "auslagern", "auslagerung"), _K.OFFLOAD),
        **dict.fromkeys(
            ("recompute", "neuberechnung", "recompute_granularity", "checkpointing", "activation_checkpointing"),
            _K.RECOMPUTE,
        ),
        **dict.fromkeys(("sequence_parallel", "megatron_sp"), _K.SEQUENCE_PARALLEL),
        **dict.fromkeys(("ep", "expert_parallel", "expert_model_parallel_size"), _K.EP),
        **dict.fromkeys(("etp", "expert_tensor_parallel", "expert_tensor_parallel_size"), _K.ETP),
        **dict.fromkeys(("vpp", "virtual_pipeline_model_parallel_size", "virtual_pipeline"), _K.VPP),
        **dict.fromkeys(
            ("largest_layer", "größte_schicht", "groesste_schicht", "largest_layer_params"), _K.LARGEST_LAYER
        ),
        "zero_init": _K.ZERO_INIT,
        **dict.fromkeys(("compile", "torch_compile", "kompiliert"), _K.COMPILE),
        **dict.fromkeys(("use_cache", "kv_cache"), _K.USE_CACHE),
        **dict.fromkeys(
            ("loss_fusion", "cross_entropy_loss_fusion", "cross_entropy_fusion", "ce_fusion", "verlustfusion"),
            _K.LOSS_FUSION,
        ),
        **dict.fromkeys(("tp_comm_overlap", "tp_overlap", "ub_overlap"), _K.TP_COMM_OVERLAP),
        **dict.fromkeys(("autocast", "amp"), _K.AUTOCAST),
        **dict.fromkeys(("optimizer", "optimierer", "optim", "optim_name"), _K.OPTIMIZER),
        **dict.fromkeys(("grad_sync", "grad_sync_dtype"), _K.GRAD_SYNC),
        **dict.fromkeys(("optim_dtype", "optimizer_dtype"), _K.OPTIM_DTYPE),
        **dict.fromkeys(("fp8_params", "fp8_weights"), _K.FP8_PARAMS),
        **dict.fromkeys(("nodes", "knoten", "nnodes", "num_nodes"), _K.NODES),
        **dict.fromkeys(("regeln", "rules", "konvention"), _K.RULES),
        **dict.fromkeys(("framework", "rahmenwerk", "trainer"), _K.FRAMEWORK),
        **dict.fromkeys(("attention", "aufmerksamkeit", "attn_implementation", "attention_backend"), _K.ATTENTION),
        **dict.fromkeys(("net", "netz", "netzwerk", "network", "net_gbps", "internode"), _K.NET_GBPS),
        **dict.fromkeys(("mfu", "auslastung"), _K.MFU),
        **dict.fromkeys(("peak", "spitze", "peak_flops"), _K.PEAK),
        **dict.fromkeys(("step_time", "schrittzeit", "zeit_je_schritt"), _K.STEP_TIME),
        **dict.fromkeys(("tokens_per_second", "tokens_je_sekunde", "tps", "tok_s"), _K.TOKENS_PER_SECOND),
    }
)
_FOLDED = MappingProxyType({key.casefold(): target for key, target in TRAINING_KEY_ALIASES.items()})

#: ``gpu=`` is also the GPU count (``gpus=``'s alias): a value that starts with a letter names the GPU.
GPU_COUNT_KEY = "gpu"


def training_key(key: str, value: str) -> TrainingKey | None:
    """The training key ``key=value`` sets, or None (then it is a batch key or unknown)."""
    folded = key.casefold().replace("-", "_")
    if folded == GPU_COUNT_KEY and value[:1].isalpha():
        return TrainingKey.GPU
    return _FOLDED.get(folded)


def names_a_model(word: str) -> bool:
    """A bare word that is a model's name (``llama3.1-8b``): the model, without ``modell=``."""
    return "=" not in word and word[:1].isalpha() and find_model(word) is not None


# --- reading the values ------------------------------------------------------------------------

_YES = frozenset({"ja", "j", "yes", "y", "true", "an", "on", "1", "wahr"})
_NO = frozenset({"nein", "n", "no", "false", "aus", "off", "0", "falsch"})
_CHOICES: Mapping[TrainingKey, Mapping[str, Any]] = MappingProxyType(
    {
        _K.DTYPE: {"bf16": Dtype.BF16, "bfloat16": Dtype.BF16, "fp16": Dtype.FP16, "float16": Dtype.FP16,
                   "half": Dtype.FP16, "fp32": Dtype.FP32, "float32": Dtype.FP32,
                   "fp8": Dtype.FP8, "float8": Dtype.FP8, "bf16-true": Dtype.BF16_TRUE,
                   "bf16_true": Dtype.BF16_TRUE, "pure_bf16": Dtype.BF16_TRUE, "reines_bf16": Dtype.BF16_TRUE},
        _K.ZERO: {"0": 0, "1": 1, "2": 2, "3": 3, "no_shard": 0, "shard_grad_op": 2, "full_shard": 3, "fsdp": 3},
        _K.OFFLOAD: {"none": Offload.NONE, "nein": Offload.NONE, "kein": Offload.NONE, "keins": Offload.NONE,
                     "optimizer": Offload.OPTIMIZER, "optimierer": Offload.OPTIMIZER, "cpu": Offload.OPTIMIZER,
                     "params": Offload.PARAMS, "parameter": Offload.PARAMS, "param": Offload.PARAMS},
        _K.RECOMPUTE: {"none": Recompute.NONE, "keine": Recompute.NONE, "nein": Recompute.NONE,
                       "selective": Recompute.SELECTIVE, "selektiv": Recompute.SELECTIVE,
                       "full": Recompute.FULL, "voll": Recompute.FULL, "ja": Recompute.FULL},
        _K.FRAMEWORK: {"megatron": Framework.MEGATRON, "megatron_lm": Framework.MEGATRON,
                       "nemo": Framework.MEGATRON, "megatron_bridge": Framework.MEGATRON,
                       "deepspeed": Framework.DEEPSPEED, "fsdp": Framework.FSDP, "fsdp1": Framework.FSDP,
                       "fsdp2": Framework.FSDP2, "fully_shard": Framework.FSDP2,
                       "torchtitan": Framework.TORCHTITAN, "titan": Framework.TORCHTITAN,
                       "ddp": Framework.DDP, "pytorch": Framework.DDP, "huggingface": Framework.HUGGINGFACE,
                       "hf": Framework.HUGGINGFACE, "transformers": Framework.HUGGINGFACE,
                       "trainer": Framework.HUGGINGFACE, "lightning": Framework.LIGHTNING,
                       "litgpt": Framework.LIGHTNING, "fabric": Framework.LIGHTNING,
                       "olmo_core": Framework.OLMO_CORE, "olmo-core": Framework.OLMO_CORE},
        _K.ATTENTION: {"flash": Attention.FLASH, "flash_attention_2": Attention.FLASH,
                       "flash_attention": Attention.FLASH, "fa2": Attention.FLASH, "fa3": Attention.FLASH,
                       "sdpa": Attention.FLASH, "te": Attention.FLASH,
                       "eager": Attention.EAGER, "math": Attention.EAGER, "naiv": Attention.EAGER,
                       "triton": Attention.TRITON},
        _K.OPTIMIZER: {"own": Optimizer.OWN, "eigener": Optimizer.OWN, "adam": Optimizer.OWN,
                       "distributed_fused_adam": Optimizer.DISTRIBUTED_FUSED_ADAM,
                       "apex": Optimizer.DISTRIBUTED_FUSED_ADAM, "dfa": Optimizer.DISTRIBUTED_FUSED_ADAM},
        _K.GRAD_SYNC: {"bf16": Dtype.BF16, "bfloat16": Dtype.BF16, "fp32": Dtype.FP32, "float32": Dtype.FP32},
        _K.OPTIM_DTYPE: {"bf16": Dtype.BF16, "bfloat16": Dtype.BF16, "fp32": Dtype.FP32, "float32": Dtype.FP32},
        _K.RULES: {"effbatch": Rules.EFFBATCH, "standard": Rules.EFFBATCH, "megatron": Rules.MEGATRON,
                   "deepspeed": Rules.DEEPSPEED, "korthikanti": Rules.KORTHIKANTI},
    }
)  # fmt: skip
_BOOLEANS = frozenset(
    {
        _K.SWIGLU,
        _K.TIED,
        _K.DISTRIBUTED_OPTIMIZER,
        _K.SEQUENCE_PARALLEL,
        _K.ZERO_INIT,
        _K.COMPILE,
        _K.USE_CACHE,
        _K.LOSS_FUSION,
        _K.TP_COMM_OVERLAP,
        _K.AUTOCAST,
        _K.FP8_PARAMS,
    }
)
#: Upper bounds of the whole-number keys: sanity limits that catch an extra digit.
BOUNDS: Mapping[TrainingKey, int] = MappingProxyType(
    {
        _K.LAYERS: 2**12, _K.HIDDEN: 2**20, _K.HEADS: 2**14, _K.KV_HEADS: 2**14, _K.FFN: 2**22, _K.VOCAB: 2**24,
        _K.EXPERTS: 2**16, _K.TOPK: 2**10, _K.MOE_FFN: 2**22, _K.HEAD_DIM: 2**14, _K.EP: 2**12, _K.VPP: 2**10,
        _K.ETP: 2**12, _K.NODES: 2**20,
        _K.LARGEST_LAYER: 10**13, _K.GPU_MEM: 2**50,
    }
)  # fmt: skip
_SECONDS = MappingProxyType({"": 1.0, "s": 1.0, "sek": 1.0, "sec": 1.0, "ms": 1e-3, "min": 60.0, "h": 3600.0})
_FLOPS = MappingProxyType({"": 1e12, "t": 1e12, "tf": 1e12, "p": 1e15, "pf": 1e15, "g": 1e9, "gf": 1e9})
_RATE = MappingProxyType({"": 1.0, "k": 1e3, "m": 1e6, "mio": 1e6})
#: Network bandwidth in Gbit/s as data sheets write it: ``400``, ``400G``, ``400Gb/s``, ``400Gbps``, ``3,2T``.
_GBITS = MappingProxyType(
    {"": 1.0, "g": 1.0, "gb": 1.0, "gbit": 1.0, "gbps": 1.0, "t": 1e3, "tb": 1e3, "tbit": 1e3, "tbps": 1e3}
)
#: A decimal (German comma or point, ``1e6`` and ``2,5e-3`` as papers write them) and a unit; no unit starts with e.
_DECIMAL_WITH_UNIT = re.compile(
    r"(?P<number>[0-9]+(?:[.,][0-9]+)?(?:[eE][+-]?[0-9]{1,3})?)(?P<unit>[A-Za-zµ/%]*)", re.ASCII
)


def read_value(key: TrainingKey, text: str) -> Any:
    """The value ``text`` gives ``key``, or ``NumberError`` (kind and ctx say why)."""
    reader = _READERS.get(key)
    if reader is not None:
        return reader(text)
    if key in _CHOICES:
        return _choice(key, text)
    if key in _BOOLEANS:
        return _boolean(text)
    return _whole(key, text)


def _whole(key: TrainingKey, text: str) -> int:
    suffixes = {_K.LARGEST_LAYER: TOKEN_SUFFIXES, _K.GPU_MEM: BYTE_SUFFIXES}.get(key, COUNT_SUFFIXES)
    value = parse_whole_number(text, suffixes, unit_required=key is _K.GPU_MEM)
    if value > BOUNDS[key]:
        raise NumberError(ProblemKind.TOO_LARGE, le=BOUNDS[key])
    return value


def _choice(key: TrainingKey, text: str) -> Any:
    choices = _CHOICES[key]
    folded = text.casefold()
    if folded in choices:
        return choices[folded]
    raise NumberError(ProblemKind.UNKNOWN_CHOICE, allowed=_shown_choices(key))


def _shown_choices(key: TrainingKey) -> list[str]:
    """The choices a message offers: the canonical spellings (``0``–``3``, ``bf16`` …)."""
    return list(dict.fromkeys(str(value) for value in _CHOICES[key].values()))


def _boolean(text: str) -> bool:
    folded = text.casefold()
    if folded in _YES:
        return True
    if folded in _NO:
        return False
    raise NumberError(ProblemKind.UNKNOWN_CHOICE, allowed=["ja", "nein"])


def _model(text: str) -> str:
    found = find_model(text)
    if found is None:
        close = difflib.get_close_matches(text.casefold(), model_names(), n=3, cutoff=0.5)
        raise NumberError(ProblemKind.UNKNOWN_MODEL, suggestions=close)
    return found.name


def _gpu(text: str) -> str:
    found = find_gpu(text)
    if found is None:
        raise NumberError(ProblemKind.UNKNOWN_CHOICE, allowed=list(gpu_names()))
    return found.name


def _decimal(text: str, units: Mapping[str, float]) -> float:
    """A positive decimal with an optional unit from ``units`` (German comma or point): ``13,75s``, ``989T``."""
    match = _DECIMAL_WITH_UNIT.fullmatch(text.replace(" ", ""))
    if match is None:
        raise NumberError(ProblemKind.NOT_A_NUMBER)
    unit = match["unit"].casefold().removesuffix("flop/s").removesuffix("flops").removesuffix("/s")
    if unit not in units:
        raise NumberError(ProblemKind.UNKNOWN_SUFFIX, suffix=match["unit"], allowed=[u for u in units if u])
    value = float(match["number"].replace(",", ".")) * units[unit]
    if value <= 0:
        raise NumberError(ProblemKind.NOT_POSITIVE)
    if not math.isfinite(value):
        raise NumberError(ProblemKind.TOO_LARGE, le="1e300")
    return value


def _mfu(text: str) -> float:
    """``40%``, ``40`` or ``0,4``: a share of the peak, above 0 and at most 100 %."""
    value = _decimal(text.removesuffix("%").strip(), {"": 1.0})
    share = value / 100 if text.endswith("%") or value > 1 else value
    if share > 1:
        raise NumberError(ProblemKind.TOO_LARGE, le="100 %")
    return share


_READERS: Mapping[TrainingKey, Callable[[str], Any]] = MappingProxyType(
    {
        _K.MODEL: _model,
        _K.GPU: _gpu,
        _K.MFU: _mfu,
        _K.PEAK: lambda text: _decimal(text, _FLOPS),
        _K.STEP_TIME: lambda text: _decimal(text, _SECONDS),
        _K.TOKENS_PER_SECOND: lambda text: _decimal(text, _RATE),
        _K.NET_GBPS: lambda text: _decimal(text, _GBITS),
    }
)


def canonical_value(key: TrainingKey, value: Any) -> str:
    """How a canonical command writes ``value`` back (read again by ``read_value``)."""
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if key is _K.GPU_MEM:
        return f"{value}B"
    if key is _K.PEAK:
        return f"{value / 1e12!r}T"
    if isinstance(value, float):
        return repr(value)
    return str(value)
