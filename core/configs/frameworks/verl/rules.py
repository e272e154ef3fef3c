"""verl's rules: the messages it refuses with (quoted verbatim), the contexts of the German texts, and the releases
each holds for (``Since``: verl 0.1 normalised in the other order, #183; the checks of ``_validate_config`` came with
0.2, #136; ``train_batch_size >= ppo_mini_batch_size`` with 0.3, #559; the critic's interpolated micro-batch with
0.5, #2583)."""

from __future__ import annotations

from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.versions import Since

#: verl 0.1 (and copies of it vendored before #183, 2025-02-02): mini and micro divided by d, then multiplied by n.
BEFORE_0_2 = Since("verl", until="0.2.0", change="#183")
#: RayPPOTrainer._validate_config and the ``*_per_gpu`` micro-batches (#136, 2025-01-27), released in 0.2.
FROM_0_2 = Since("verl", since="0.2.0", change="#136")
#: ``train_batch_size >= ppo_mini_batch_size`` (#559, 2025-03-14), released in 0.3.0.
FROM_0_3 = Since("verl", since="0.3.0", change="#559")
#: critic.yaml's ``ppo_micro_batch_size_per_gpu: ${oc.select:.ppo_micro_batch_size,null}`` (#2583), released in 0.5.0.
FROM_0_5 = Since("verl", since="0.5.0", change="#2583")

NO_MICRO = (
    "[actor] Please set at least one of 'actor.ppo_micro_batch_size' or 'actor.ppo_micro_batch_size_per_gpu' if"
    " use_dynamic_bsz is not enabled."
)
BOTH_MICRO = (
    "[actor] You have set both 'actor.ppo_micro_batch_size' AND 'actor.ppo_micro_batch_size_per_gpu'. Please remove"
    " 'actor.ppo_micro_batch_size' because only '*_ppo_micro_batch_size_per_gpu' is supported (the former is"
    " deprecated)."
)
MODEL_PARALLEL = (
    "n_gpus ({gpus}) must be divisible by model_parallel_size ({model_parallel}) times context_parallel_size ({cp})"
)
REAL_TRAIN = "real_train_batch_size ({sequences}) must be divisible by minimal possible batch size ({minimal})"
BELOW_MINI = "train_batch_size ({prompts}) must be >= actor.ppo_mini_batch_size ({mini})"
GLOBAL_MICRO = "ppo_mini_batch_size ({mini}) must be divisible by ppo_micro_batch_size ({micro})"
GLOBAL_MICRO_SMALL = "ppo_micro_batch_size ({micro}) * ulysses_sequence_parallel_size ({sp}) must be >= n_gpus ({gpus})"
PADDING = "When using sequence parallelism for actor/ref policy, you must enable `use_remove_padding`."
ZERO = "ppo_mini_batch_size {normalized} should be larger than 0 after normalization"
MINI_MICRO = "normalized ppo_mini_batch_size {normalized} should be divisible by ppo_micro_batch_size_per_gpu {micro}"
CHUNKS = "only support equal chunk. Got size of DataProto {sequences} and chunk {data_parallel}."
TOKEN_BOUND = (
    "max_token_len must be greater than the sequence length. Got max_token_len={bound} and max_seq_len={length}"
)

CRITIC_NO_MICRO = "[critic] Please set at least one of 'critic.micro_batch_size' or 'critic.micro_batch_size_per_gpu'."
CRITIC_BOTH_MICRO = (
    "[critic] You have set both 'critic.micro_batch_size' AND 'critic.micro_batch_size_per_gpu'. Please remove"
    " 'critic.micro_batch_size' because only '*_micro_batch_size_per_gpu' is supported (the former is deprecated)."
)
CRITIC_BELOW_MINI = "train_batch_size ({prompts}) must be >= critic.ppo_mini_batch_size ({mini})"
NODES_MESSAGE = "Total available GPUs {given} is less than total desired GPUs {written}"

NORMALISED = "verl/normalised-mini"  # mini per GPU = mini · n // d
BATCH = "verl/batch"  # B = mini per GPU · d
ACCUMULATION = "verl/accumulation"  # a = mini per GPU / b
STEPS = "verl/optimizer-steps"  # k = ⌈(P · n / d) / mini per GPU⌉ · epochs
SEQUENCES = "verl/sequences"  # P · n
MICRO_FLOORED = "verl/micro-floored"  # b = ppo_micro_batch_size // d
BOUND = "verl/token-bound"  # tokens per micro-batch = ppo_max_token_len_per_gpu · SP
LENGTH = "verl/length"  # L = prompt + response


OLD_NORMALISED = "verl/normalised-mini-before-0-2"  # mini per GPU = mini // d · n (verl 0.1)
OLD_MICRO = "verl/normalised-micro-before-0-2"  # b = micro // d · n (verl 0.1)
CRITIC_NORMALISED = "verl/critic-normalised-mini"  # critic mini per GPU = mini · n // d


@context
class ModelParallel:
    gpus: int
    model_parallel: int
    cp: int


@context
class RealTrain:
    sequences: int
    minimal: int


@context
class BelowMini:
    prompts: int
    mini: int


@context
class GlobalMicro:
    mini: int
    micro: int


@context
class GlobalMicroSmall:
    micro: int
    sp: int
    gpus: int


@context
class Zero:
    mini: int
    samples: int
    data_parallel: int


@context
class MiniMicro:
    normalized: int
    micro: int


@context
class Chunks:
    sequences: int
    data_parallel: int


@context
class TokenBound:
    bound: int
    length: int


@context
class Floored:
    sequences: int
    data_parallel: int
    per_gpu: int
    real: int


@context
class ShortLast:
    share: int
    per_gpu: int
    rest: int


@context
class Dynamic:
    bound: int


@context
class NewSp:
    sp: int


@context
class Defaults:
    settings: str


@context
class OldOrder:
    per_gpu: int
    micro: int
    batch: int
    steps: int


@context
class AboveRollout:
    per_gpu: int
    share: int
    batch: int
    intended: int


@context
class CriticBatch:
    batch: int
    steps: int
    per_gpu: int
    data_parallel: int


@context
class Generation:
    generated: int
    prompts: int
    rounds: int


@context
class GenerationBatch:
    generated: int
    prompts: int


@context
class SequenceParallel:
    sp: int
    gpus: int


@context
class Nodes:
    given: int
    written: int


NO_MICRO_RULE = Rule("verl/micro-batch-missing", Effect.REFUSED, Nothing, FROM_0_2)
BOTH_MICRO_RULE = Rule("verl/micro-batch-both", Effect.REFUSED, Nothing, FROM_0_2)
MODEL_PARALLEL_RULE = Rule("verl/model-parallel-divisible", Effect.REFUSED, ModelParallel)
REAL_TRAIN_RULE = Rule("verl/real-train-batch-divisible", Effect.REFUSED, RealTrain, FROM_0_2)
BELOW_MINI_RULE = Rule("verl/train-batch-below-mini-batch", Effect.REFUSED, BelowMini, FROM_0_3)
GLOBAL_MICRO_RULE = Rule("verl/global-micro-batch-divisible", Effect.REFUSED, GlobalMicro, FROM_0_2)
GLOBAL_MICRO_SMALL_RULE = Rule("verl/global-micro-batch-too-small", Effect.REFUSED, GlobalMicroSmall, FROM_0_2)
PADDING_RULE = Rule("verl/sequence-parallel-remove-padding", Effect.REFUSED, Nothing, FROM_0_2)
ZERO_RULE = Rule("verl/mini-batch-zero", Effect.REFUSED, Zero)
MINI_MICRO_RULE = Rule("verl/mini-batch-micro-batch-divisible", Effect.REFUSED, MiniMicro, FROM_0_2)
CHUNKS_RULE = Rule("verl/equal-chunks", Effect.REFUSED, Chunks)
TOKEN_BOUND_RULE = Rule("verl/token-bound-below-length", Effect.REFUSED, TokenBound)
FLOORED_RULE = Rule("verl/mini-batch-floored", Effect.CHANGED, Floored)
SHORT_LAST_RULE = Rule("verl/short-last-mini-batch", Effect.PITFALL, ShortLast)
DYNAMIC_RULE = Rule("verl/dynamic-batch", Effect.NOTE, Dynamic)
NEW_SP_RULE = Rule("verl/sequence-parallel-new-key", Effect.PITFALL, NewSp)
DEFAULTS_RULE = Rule("verl/defaults", Effect.NOTE, Defaults)
OLD_ORDER_RULE = Rule("verl/normalises-first-before-0-2", Effect.NOTE, Nothing, BEFORE_0_2)
BEFORE_0_2_RULE = Rule("verl/normalised-before-0-2", Effect.NOTE, OldOrder, BEFORE_0_2)
OLD_ZERO_RULE = Rule("verl/mini-batch-zero-before-0-2", Effect.REFUSED, Zero, BEFORE_0_2)
OLD_MINI_MICRO_RULE = Rule("verl/mini-batch-micro-batch-divisible-before-0-2", Effect.REFUSED, MiniMicro, BEFORE_0_2)
ABOVE_ROLLOUT_RULE = Rule("verl/mini-batch-above-rollout", Effect.CHANGED, AboveRollout)
CRITIC_NO_MICRO_RULE = Rule("verl/critic-micro-batch-missing", Effect.REFUSED, Nothing, FROM_0_2)
CRITIC_BOTH_MICRO_RULE = Rule("verl/critic-micro-batch-both", Effect.REFUSED, Nothing, FROM_0_2)
CRITIC_GLOBAL_MICRO_RULE = Rule("verl/critic-global-micro-batch-refused", Effect.REFUSED, Nothing, FROM_0_5)
CRITIC_BELOW_MINI_RULE = Rule("verl/critic-train-batch-below-mini-batch", Effect.REFUSED, BelowMini, FROM_0_3)
CRITIC_MINI_MICRO_RULE = Rule("verl/critic-mini-batch-micro-batch-divisible", Effect.REFUSED, MiniMicro, FROM_0_2)
CRITIC_BATCH_RULE = Rule("verl/critic-batch", Effect.NOTE, CriticBatch)
DAPO_RULE = Rule("verl/dapo-generation-rounds", Effect.NOTE, Generation)
GENERATION_RULE = Rule("verl/gen-batch-without-filter", Effect.PITFALL, GenerationBatch)
#: fsdp_workers.py: ``init_device_mesh(…, (GPUs // SP, SP))`` and ``ppo_mini_batch_size //= GPUs // SP``: no replica.
SP_ABOVE_GPUS_RULE = Rule("verl/sequence-parallel-above-gpus", Effect.REFUSED, SequenceParallel)
NODES_FEWER_RULE = Rule("verl/fewer-gpus-than-written", Effect.REFUSED, Nodes)
NODES_MORE_RULE = Rule("verl/more-gpus-than-written", Effect.PITFALL, Nodes)
RULES = (
    NO_MICRO_RULE,
    BOTH_MICRO_RULE,
    MODEL_PARALLEL_RULE,
    REAL_TRAIN_RULE,
    BELOW_MINI_RULE,
    GLOBAL_MICRO_RULE,
    GLOBAL_MICRO_SMALL_RULE,
    PADDING_RULE,
    ZERO_RULE,
    MINI_MICRO_RULE,
    CHUNKS_RULE,
    TOKEN_BOUND_RULE,
    FLOORED_RULE,
    SHORT_LAST_RULE,
    DYNAMIC_RULE,
    NEW_SP_RULE,
    OLD_ORDER_RULE,
    BEFORE_0_2_RULE,
    OLD_ZERO_RULE,
    OLD_MINI_MICRO_RULE,
    ABOVE_ROLLOUT_RULE,
    CRITIC_NO_MICRO_RULE,
    CRITIC_BOTH_MICRO_RULE,
    CRITIC_GLOBAL_MICRO_RULE,
    CRITIC_BELOW_MINI_RULE,
    CRITIC_MINI_MICRO_RULE,
    CRITIC_BATCH_RULE,
    DAPO_RULE,
    GENERATION_RULE,
    NODES_FEWER_RULE,
    NODES_MORE_RULE,
    DEFAULTS_RULE,
    SP_ABOVE_GPUS_RULE,
)
