"""Named models and their shapes, each row with its source; parameter counts from the shape.

Every row copies the model's Hugging Face ``config.json`` (``num_hidden_layers``, ``hidden_size``,
``num_attention_heads``, ``num_key_value_heads``, ``intermediate_size``, ``vocab_size``,
``tie_word_embeddings`` …) or, for GPT-3, the paper's Table 2.1. Parameter counts are exact sums over the
weight matrices a model of that shape has (no rounding); tests hold them against the published totals.

Counted per layer: attention (Q, K, V, O, with biases where the model has them; multi-head latent
attention as DeepSeek-V3 writes it), the MLP (SwiGLU three matrices, GeLU two) or, in MoE layers, the
router, the routed and the shared experts, and the norms (RMSNorm one vector, LayerNorm two); then the
embedding, the output layer unless tied, learned positions (GPT-3) and the final norm. Multi-token
prediction modules (DeepSeek-V3's ``num_nextn_predict_layers``) are not counted: the 671B main model is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Mla:
    """Multi-head latent attention (DeepSeek-V2/V3): low-rank Q and KV projections."""

    q_lora_rank: int
    kv_lora_rank: int
    qk_head_dim: int  # qk_nope_head_dim
    rope_head_dim: int  # qk_rope_head_dim
    v_head_dim: int


@dataclass(frozen=True)
class ModelSpec:
    """A decoder-only transformer's shape; ``experts`` > 0 makes its layers (after ``dense_layers``) MoE."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    swiglu: bool = True
    tied: bool = False
    layernorm: bool = False  # LayerNorm (weight and bias) instead of RMSNorm
    bias: bool = False  # biases on every linear layer (GPT-3)
    qkv_bias: bool = False  # biases on Q, K, V only (Qwen2.5)
    qk_norm: bool = False  # a norm over Q and K (OLMo 2)
    positions: int = 0  # learned position embeddings (GPT-3: 2.048)
    head_dim: int | None = None
    experts: int = 0
    topk: int = 0
    moe_ffn: int = 0
    shared_ffn: int = 0
    dense_layers: int = 0  # the first layers that stay dense in an MoE model (DeepSeek-V3: 3)
    mla: Mla | None = None
    name: str = ""
    title: str = ""
    source: str = ""

    @property
    def kv_channels(self) -> int:
        """The size of one attention head (Megatron's ``kv_channels``)."""
        return self.head_dim or self.hidden // self.heads

    @property
    def q_dim(self) -> int:
        return self.heads * self.kv_channels

    @property
    def kv_dim(self) -> int:
        return self.kv_heads * self.kv_channels

    @property
    def moe(self) -> bool:
        return self.experts > 0

    @property
    def moe_layers(self) -> int:
        return self.layers - self.dense_layers if self.moe else 0

    @property
    def norm_size(self) -> int:
        return 2 if self.layernorm else 1

    @property
    def attention_params(self) -> int:
        """One layer's attention weights (and biases)."""
        h = self.hidden
        if self.mla is not None:
            m, n = self.mla, self.heads
            q = m.q_lora_rank * (h + n * (m.qk_head_dim + m.rope_head_dim) + 1)
            kv = m.kv_lora_rank * (h + n * (m.qk_head_dim + m.v_head_dim) + 1) + h * m.rope_head_dim
            return q + kv + n * m.v_head_dim * h
        weights = 2 * h * self.q_dim + 2 * h * self.kv_dim
        biases = (self.q_dim + 2 * self.kv_dim) * (self.bias or self.qkv_bias) + h * self.bias
        norms = (self.q_dim + self.kv_dim) * self.qk_norm
        return weights + biases + norms

    def mlp_params(self, width: int) -> int:
        """One MLP of ``width`` intermediate units: SwiGLU 3 matrices, GeLU 2 (with biases where the model has them)."""
        matrices = 3 if self.swiglu else 2
        return matrices * self.hidden * width + self.bias * (width * (matrices - 1) + self.hidden)

    @property
    def dense_layer_params(self) -> int:
        return self.attention_params + self.mlp_params(self.ffn) + 2 * self.norm_size * self.hidden

    @property
    def expert_params_per_layer(self) -> int:
        """The routed experts of one MoE layer: what expert parallelism splits."""
        return self.experts * self.mlp_params(self.moe_ffn)

    @property
    def moe_layer_params(self) -> int:
        shared = self.mlp_params(self.shared_ffn) if self.shared_ffn else 0
        router = self.hidden * self.experts
        return self.attention_params + self.expert_params_per_layer + shared + router + 2 * self.norm_size * self.hidden

    @property
    def embedding_params(self) -> int:
        """V · h: the input embedding; the output layer has as many unless tied."""
        return self.vocab * self.hidden

    @property
    def layer_params(self) -> int:
        """All transformer layers together."""
        dense = self.layers - self.moe_layers
        return dense * self.dense_layer_params + self.moe_layers * self.moe_layer_params

    @property
    def total_params(self) -> int:
        """Every parameter: layers, embedding, output layer (unless tied), positions, final norm."""
        embeddings = self.embedding_params * (1 if self.tied else 2) + self.positions * self.hidden
        return self.layer_params + embeddings + self.norm_size * self.hidden

    @property
    def active_params(self) -> int:
        """The parameters one token passes through: an MoE layer's top-k experts instead of all."""
        if not self.moe:
            return self.total_params
        inactive = (self.experts - self.topk) * self.mlp_params(self.moe_ffn)
        return self.total_params - self.moe_layers * inactive

    @property
    def largest_layer(self) -> int:
        """The largest single module's parameters, as DeepSpeed's ``model_to_params`` finds it (one
        ``nn.Linear`` each for Q, K, V, O, each MLP matrix and each expert's; the embedding)."""
        mlp_matrix = self.hidden * max(self.ffn, self.moe_ffn, self.shared_ffn) + self.bias * self.hidden
        attention = self.hidden * self.q_dim + (self.bias or self.qkv_bias) * self.q_dim
        return max(self.embedding_params, mlp_matrix, attention)


def _hf(org: str, repo: str) -> str:
    return f"huggingface.co/{org}/{repo}/config.json"


def _llama(
    name: str, title: str, source: str, layers: int, hidden: int, heads: int, kv: int, ffn: int, vocab: int
) -> ModelSpec:
    return ModelSpec(layers, hidden, heads, kv, ffn, vocab, name=name, title=title, source=source)


_ROWS = (
    _llama("llama2-7b", "Llama 2 7B", _hf("meta-llama", "Llama-2-7b-hf"), 32, 4096, 32, 32, 11008, 32000),
    _llama("llama2-13b", "Llama 2 13B", _hf("meta-llama", "Llama-2-13b-hf"), 40, 5120, 40, 40, 13824, 32000),
    _llama("llama2-70b", "Llama 2 70B", _hf("meta-llama", "Llama-2-70b-hf"), 80, 8192, 64, 8, 28672, 32000),
    # Llama 3 has Llama 3.1's shape (its context is 8K, which the memory per GPU does not see): its own row, so that
    # an answer names the model asked about
    _llama("llama3-8b", "Llama 3 8B", _hf("meta-llama", "Meta-Llama-3-8B"), 32, 4096, 32, 8, 14336, 128256),
    _llama("llama3-70b", "Llama 3 70B", _hf("meta-llama", "Meta-Llama-3-70B"), 80, 8192, 64, 8, 28672, 128256),
    _llama("llama3.1-8b", "Llama 3.1 8B", _hf("meta-llama", "Llama-3.1-8B"), 32, 4096, 32, 8, 14336, 128256),
    _llama("llama3.1-70b", "Llama 3.1 70B", _hf("meta-llama", "Llama-3.1-70B"), 80, 8192, 64, 8, 28672, 128256),
    _llama("llama3.1-405b", "Llama 3.1 405B", _hf("meta-llama", "Llama-3.1-405B"), 126, 16384, 128, 8, 53248, 128256),
    _llama("mistral-7b", "Mistral 7B", _hf("mistralai", "Mistral-7B-v0.1"), 32, 4096, 32, 8, 14336, 32000),
    ModelSpec(
        32, 4096, 32, 8, 14336, 32000, experts=8, topk=2, moe_ffn=14336,
        name="mixtral-8x7b", title="Mixtral 8x7B", source=_hf("mistralai", "Mixtral-8x7B-v0.1"),
    ),
    ModelSpec(
        28, 3584, 28, 4, 18944, 152064, qkv_bias=True,
        name="qwen2.5-7b", title="Qwen2.5 7B", source=_hf("Qwen", "Qwen2.5-7B"),
    ),
    ModelSpec(
        80, 8192, 64, 8, 29568, 152064, qkv_bias=True,
        name="qwen2.5-72b", title="Qwen2.5 72B", source=_hf("Qwen", "Qwen2.5-72B"),
    ),
    ModelSpec(
        32, 4096, 32, 32, 11008, 100352, qk_norm=True,
        name="olmo2-7b", title="OLMo 2 7B", source=_hf("allenai", "OLMo-2-1124-7B"),
    ),
    ModelSpec(
        40, 5120, 40, 40, 13824, 100352, qk_norm=True,
        name="olmo2-13b", title="OLMo 2 13B", source=_hf("allenai", "OLMo-2-1124-13B"),
    ),
    ModelSpec(
        64, 5120, 40, 8, 27648, 100352, qk_norm=True,
        name="olmo2-32b", title="OLMo 2 32B", source=_hf("allenai", "OLMo-2-0325-32B"),
    ),
    ModelSpec(
        96, 12288, 96, 96, 4 * 12288, 50257, swiglu=False, tied=True, layernorm=True, bias=True, positions=2048,
        name="gpt3-175b", title="GPT-3 175B",
        source="Brown et al. 2020, Table 2.1 (n_layers 96, d_model 12288, n_heads 96); GPT-2 vocabulary 50257",
    ),
    ModelSpec(
        61, 7168, 128, 128, 18432, 129280, experts=256, topk=8, moe_ffn=2048, shared_ffn=2048, dense_layers=3,
        mla=Mla(q_lora_rank=1536, kv_lora_rank=512, qk_head_dim=128, rope_head_dim=64, v_head_dim=128),
        head_dim=128, name="deepseek-v3", title="DeepSeek-V3", source=_hf("deepseek-ai", "DeepSeek-V3"),
    ),
)  # fmt: skip

#: Every named model by its name.
MODELS: Mapping[str, ModelSpec] = MappingProxyType({row.name: row for row in _ROWS})

#: Other spellings people type: the Hugging Face ids' tails, without dots or with "llama3-" for 3.1.
_SEPARATORS = re.compile(r"[\s_.:/-]+")


def _folded(name: str) -> str:
    return _SEPARATORS.sub("", name.casefold())


_BY_FOLDED = MappingProxyType(
    {
        **{_folded(row.name): row for row in _ROWS},
        **{_folded(row.title): row for row in _ROWS},
        **{_folded(row.source.split("/")[2]): row for row in _ROWS if row.source.startswith("huggingface.co/")},
        **{
            _folded(alias): row
            for row in _ROWS
            if row.name.startswith("llama3.1") and (alias := row.name.replace("llama3.1", "llama3")) not in MODELS
        },
        _folded("mixtral"): MODELS["mixtral-8x7b"],
        _folded("gpt3"): MODELS["gpt3-175b"],
        _folded("deepseekv3-671b"): MODELS["deepseek-v3"],
    }
)


def find_model(name: str) -> ModelSpec | None:
    """The model ``name`` means (``llama3.1-8b``, ``Llama-3.1-8B``, ``llama3-8b``, ``Qwen2.5-72B``), or None."""
    return _BY_FOLDED.get(_folded(name.rsplit("/", 1)[-1]))


def model_names() -> tuple[str, ...]:
    return tuple(MODELS)
