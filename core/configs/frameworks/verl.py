"""verl's PPO/GRPO batch (volcengine/verl b178a3cd56f58b2d502255daba591e92833930a7; its lines lifted and executed).

Hydra overrides on ``python3 -m verl.trainer.main_ppo key=value …`` or a YAML of ppo_trainer.yaml's shape.

- ``data.train_batch_size`` P counts **prompts** (1024, config/data/legacy_data.yaml:42),
  ``actor_rollout_ref.rollout.n`` n responses each (1, rollout.yaml:108): a rollout is P · n sequences.
- ``actor.ppo_mini_batch_size`` counts **prompts** too (256, actor.yaml:18). The FSDP worker
  (verl/workers/fsdp_workers.py:163-171, 240-262) multiplies it by n and floors it by d = world // Ulysses SP
  (``ppo_mini_batch_size *= rollout.n; ppo_mini_batch_size //= device_mesh.size() // sp``); the Megatron worker
  (megatron_workers.py:353-360) by d = world / (TP · PP · CP). It asserts the result > 0 and, FSDP only, divisible by
  ``ppo_micro_batch_size_per_gpu`` b. The deprecated global ``ppo_micro_batch_size`` is floored by d the same way.
- dp_actor.py:541-556: each rank splits its P · n / d sequences into mini-batches of the normalised size (the last
  may be short), one optimizer step each, ``ppo_epochs`` times: B = normalised mini · d sequences per optimizer step,
  a = normalised mini / b, k = ⌈(P · n / d) / normalised mini⌉ · epochs. With ``use_dynamic_bsz`` the micro-batches
  are packed to at most ``ppo_max_token_len_per_gpu`` · SP tokens (b and a are not fixed; seqlen_balancing.py:382
  refuses a bound below the padded length ``data.max_prompt_length + data.max_response_length``).
- Before the workers: ActorConfig.__post_init__/validate (verl/workers/config/actor.py:174-220, 300-310) and
  validate_config (verl/utils/config.py:89-112, skipped with use_dynamic_bsz) refuse what is quoted below.
- World = ``trainer.n_gpus_per_node`` · ``trainer.nnodes`` (8 · 1, ppo_trainer.yaml:156/153; utils/config.py:87).
"""

from __future__ import annotations

from math import gcd
from typing import Any

from core.configs.base import (
    Check,
    Derivation,
    Effect,
    Fix,
    Format,
    Nothing,
    Parsed,
    Reading,
    Rollout,
    Rule,
    Syntax,
    World,
    context,
    lookup,
    neighbours,
    whole,
)

ID = "verl"
MODULE = "verl.trainer.main_ppo"
ACTOR = "actor_rollout_ref.actor."
PROMPTS = "data.train_batch_size"
SAMPLES = "actor_rollout_ref.rollout.n"
MINI = ACTOR + "ppo_mini_batch_size"
MICRO = ACTOR + "ppo_micro_batch_size_per_gpu"
MICRO_GLOBAL = ACTOR + "ppo_micro_batch_size"
EPOCHS = ACTOR + "ppo_epochs"
DYNAMIC = ACTOR + "use_dynamic_bsz"
TOKENS = ACTOR + "ppo_max_token_len_per_gpu"
SP = ACTOR + "ulysses_sequence_parallel_size"
SP_NEW = ACTOR + "fsdp_config.ulysses_sequence_parallel_size"
MEGATRON = (ACTOR + "megatron.tensor_model_parallel_size", ACTOR + "megatron.pipeline_model_parallel_size")
CP = ACTOR + "megatron.context_parallel_size"
REMOVE_PADDING = "actor_rollout_ref.model.use_remove_padding"
GPUS, NODES = "trainer.n_gpus_per_node", "trainer.nnodes"
LENGTHS = ("data.max_prompt_length", "data.max_response_length")
DEFAULTS = {PROMPTS: 1024, SAMPLES: 1, MINI: 256, EPOCHS: 1, TOKENS: 16384, SP: 1, GPUS: 8, NODES: 1, CP: 1}
DEFAULTS |= dict.fromkeys(MEGATRON, 1) | dict.fromkeys(LENGTHS, 512)

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

NORMALISED = "verl/normalised-mini"  # mini per GPU = mini · n // d
BATCH = "verl/batch"  # B = mini per GPU · d
ACCUMULATION = "verl/accumulation"  # a = mini per GPU / b
STEPS = "verl/optimizer-steps"  # k = ⌈(P · n / d) / mini per GPU⌉ · epochs
SEQUENCES = "verl/sequences"  # P · n
MICRO_FLOORED = "verl/micro-floored"  # b = ppo_micro_batch_size // d
BOUND = "verl/token-bound"  # tokens per micro-batch = ppo_max_token_len_per_gpu · SP
LENGTH = "verl/length"  # L = prompt + response


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


NO_MICRO_RULE = Rule("verl/micro-batch-missing", Effect.REFUSED, Nothing)
BOTH_MICRO_RULE = Rule("verl/micro-batch-both", Effect.REFUSED, Nothing)
MODEL_PARALLEL_RULE = Rule("verl/model-parallel-divisible", Effect.REFUSED, ModelParallel)
REAL_TRAIN_RULE = Rule("verl/real-train-batch-divisible", Effect.REFUSED, RealTrain)
BELOW_MINI_RULE = Rule("verl/train-batch-below-mini-batch", Effect.REFUSED, BelowMini)
GLOBAL_MICRO_RULE = Rule("verl/global-micro-batch-divisible", Effect.REFUSED, GlobalMicro)
GLOBAL_MICRO_SMALL_RULE = Rule("verl/global-micro-batch-too-small", Effect.REFUSED, GlobalMicroSmall)
PADDING_RULE = Rule("verl/sequence-parallel-remove-padding", Effect.REFUSED, Nothing)
ZERO_RULE = Rule("verl/mini-batch-zero", Effect.REFUSED, Zero)
MINI_MICRO_RULE = Rule("verl/mini-batch-micro-batch-divisible", Effect.REFUSED, MiniMicro)
CHUNKS_RULE = Rule("verl/equal-chunks", Effect.REFUSED, Chunks)
TOKEN_BOUND_RULE = Rule("verl/token-bound-below-length", Effect.REFUSED, TokenBound)
FLOORED_RULE = Rule("verl/mini-batch-floored", Effect.CHANGED, Floored)
SHORT_LAST_RULE = Rule("verl/short-last-mini-batch", Effect.PITFALL, ShortLast)
DYNAMIC_RULE = Rule("verl/dynamic-batch", Effect.NOTE, Dynamic)
NEW_SP_RULE = Rule("verl/sequence-parallel-new-key", Effect.PITFALL, NewSp)
DEFAULTS_RULE = Rule("verl/defaults", Effect.NOTE, Defaults)
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
    DEFAULTS_RULE,
)
#: Settings whose default decides the batch without a word, said when a config leaves them out.
SHOWN_DEFAULTS = (PROMPTS, SAMPLES, MINI, GPUS, NODES)


def detect(parsed: Parsed) -> bool:
    """``verl.trainer.main_ppo`` on a command line, or a YAML with ``actor_rollout_ref`` beside ``data``."""
    if parsed.format is Format.SHELL and parsed.script is not None:
        return any(_is_main_ppo(command.words) for command in parsed.script.commands)
    return parsed.format in (Format.YAML, Format.JSON) and isinstance(parsed.data.get("actor_rollout_ref"), dict)


def _is_main_ppo(words: tuple[str, ...]) -> bool:
    return any(word == MODULE or word.endswith("verl/trainer/main_ppo.py") for word in words)


def check(sources: list[Parsed], world: World | None) -> Check:
    reading = Reading(ID)
    values = _Values(reading, sources)
    p, n, mini, epochs = (values.number(key) for key in (PROMPTS, SAMPLES, MINI, EPOCHS))
    micro, micro_global = values.optional(MICRO), values.optional(MICRO_GLOBAL)
    dynamic = values.switch(DYNAMIC)
    length = _length(reading, values)
    world = reading.world(_world(values, world))
    if values.defaulted:
        reading.add(DEFAULTS_RULE(Defaults(", ".join(f"`{key}={DEFAULTS[key]}`" for key in values.defaulted))))
    data_parallel, megatron = _data_parallel(reading, values, world.size)
    reading.step(SEQUENCES, (p, n), p * n)
    if not dynamic:
        _validate(reading, values, (p, n, mini, micro, micro_global), world.size, megatron)
    per_gpu, micro = _normalise(reading, values, (n, mini, micro, micro_global), data_parallel, megatron)
    steps = _steps(reading, (p * n, per_gpu, epochs), data_parallel, dynamic)
    bound = _dynamic(reading, values, length) if dynamic else None
    if per_gpu is None or steps is None:
        return reading.finish(world, data_parallel=data_parallel, rl=_rollout(p, n, None, length, bound))
    batch = per_gpu * data_parallel
    reading.step(BATCH, (per_gpu, data_parallel), batch)
    accumulation = None if dynamic or micro is None or per_gpu % micro else per_gpu // micro
    if accumulation is not None and micro is not None:
        reading.step(ACCUMULATION, (per_gpu, micro), accumulation)
    if length is not None:
        reading.step(Derivation.T_PRODUCT, (batch, sum(length)), batch * sum(length))
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=None if dynamic else micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=sum(length) if length else None,
        intended=mini * n if batch != mini * n else None,
        rl=_rollout(p, n, steps, length, bound),
    )


def _rollout(p: int, n: int, steps: int | None, length: tuple[int, int] | None, bound: int | None) -> Rollout:
    prompt, response = length or (None, None)
    return Rollout(p, n, steps, prompt_len=prompt, response_len=response, token_bound=bound)


def _length(reading: Reading, values: _Values) -> tuple[int, int] | None:
    """L = ``data.max_prompt_length`` + ``data.max_response_length``, the padded length (verl's defaults 512 each)."""
    prompt, response = (values.number(key) for key in LENGTHS)
    reading.step(LENGTH, (prompt, response), prompt + response)
    return prompt, response


def _world(values: _Values, given: World | None) -> World:
    """``trainer.n_gpus_per_node · trainer.nnodes``; a world given from outside where the script leaves them open."""
    written = [values.raw(key) for key in (GPUS, NODES)]
    if given is not None and (all(v is None for v in written) or any("$" in str(v) for v in written if v)):
        return given
    gpus, nodes = values.number(GPUS), values.number(NODES)
    where = " · ".join(values.where(key) or f"{key}={DEFAULTS[key]}" for key in (GPUS, NODES))
    return World(gpus * nodes, where)


def _data_parallel(reading: Reading, values: _Values, world: int) -> tuple[int, tuple[int, int, int] | None]:
    """d and, for the Megatron worker, (TP, PP, CP): FSDP divides by Ulysses SP, Megatron by TP · PP · CP."""
    if values.megatron():
        tp, pp = (values.number(key) for key in MEGATRON)
        cp = values.number(CP)
        reading.step(Derivation.DP_MODEL_PARALLEL, (world, tp, pp, cp), world // (tp * pp * cp))
        return world // (tp * pp * cp), (tp, pp, cp)
    sp = values.number(SP)
    new_sp = values.optional(SP_NEW)
    if sp == 1 and new_sp is not None and new_sp > 1:
        reading.add(NEW_SP_RULE(NewSp(new_sp)))
    reading.step(Derivation.DP_SEQUENCE_PARALLEL, (world, sp), world // sp)
    if sp > 1 and not values.switch(REMOVE_PADDING):
        reading.add(PADDING_RULE(Nothing(), message=PADDING, fix=values.fix(REMOVE_PADDING, None)))
    return world // sp, None


def _validate(
    reading: Reading,
    values: _Values,
    numbers: tuple[int, int, int, int | None, int | None],
    gpus: int,
    megatron: tuple[int, int, int] | None,
) -> None:
    """ActorConfig and validate_config, in verl's order; the first refusal stops, as verl does."""
    p, n, mini, micro, micro_global = numbers
    if micro is not None and micro_global is not None:
        reading.add(BOTH_MICRO_RULE(Nothing(), message=BOTH_MICRO))
        return
    if micro is None and micro_global is None:
        reading.add(NO_MICRO_RULE(Nothing(), message=NO_MICRO))
        return
    minimal = gpus
    if megatron is not None:
        tp, pp, cp = megatron
        if gpus % (tp * pp * cp):
            message = MODEL_PARALLEL.format(gpus=gpus, model_parallel=tp * pp, cp=cp)
            reading.add(MODEL_PARALLEL_RULE(ModelParallel(gpus, tp * pp, cp), message=message))
            return
        minimal = gpus // (tp * pp * cp) * (micro or 1)
    if (p * n) % minimal:
        step = minimal // gcd(n, minimal)
        fixed = values.fix(PROMPTS, *neighbours(p, step))
        message = REAL_TRAIN.format(sequences=p * n, minimal=minimal)
        reading.add(REAL_TRAIN_RULE(RealTrain(p * n, minimal), message=message, fix=fixed))
        return
    _validate_actor(reading, values, (p, mini, micro_global), gpus)


def _validate_actor(reading: Reading, values: _Values, numbers: tuple[int, int, int | None], gpus: int) -> None:
    """ActorConfig.validate (actor.py:200-218): P ≥ mini; the deprecated global micro-batch divides mini, ≥ GPUs."""
    p, mini, micro_global = numbers
    if p < mini:
        fixed = values.fix(MINI, p)
        reading.add(BELOW_MINI_RULE(BelowMini(p, mini), message=BELOW_MINI.format(prompts=p, mini=mini), fix=fixed))
        return
    if micro_global is None:
        return
    if mini % micro_global:
        message = GLOBAL_MICRO.format(mini=mini, micro=micro_global)
        reading.add(GLOBAL_MICRO_RULE(GlobalMicro(mini, micro_global), message=message))
        return
    sp = values.number(SP)
    if micro_global * sp < gpus:
        message = GLOBAL_MICRO_SMALL.format(micro=micro_global, sp=sp, gpus=gpus)
        reading.add(GLOBAL_MICRO_SMALL_RULE(GlobalMicroSmall(micro_global, sp, gpus), message=message))


def _normalise(
    reading: Reading,
    values: _Values,
    numbers: tuple[int, int, int | None, int | None],
    data_parallel: int,
    megatron: tuple[int, int, int] | None,
) -> tuple[int | None, int | None]:
    """The worker's ``ppo_mini_batch_size *= n; //= d`` and its asserts: (mini per GPU, b), None where refused."""
    n, mini, micro, micro_global = numbers
    if reading.findings and any(f.effect is Effect.REFUSED for f in reading.findings):
        return None, micro
    per_gpu = mini * n // data_parallel
    reading.step(NORMALISED, (mini, n, data_parallel), per_gpu)
    if per_gpu == 0:
        message = ZERO.format(normalized=per_gpu)
        fixed = values.fix(MINI, -(-data_parallel // n))
        reading.add(ZERO_RULE(Zero(mini, n, data_parallel), message=message, fix=fixed))
        return None, micro
    if per_gpu * data_parallel != mini * n:
        reading.add(FLOORED_RULE(Floored(mini * n, data_parallel, per_gpu, per_gpu * data_parallel)))
    if micro_global is not None:
        micro = micro_global // data_parallel
        reading.step(MICRO_FLOORED, (micro_global, data_parallel), micro)
    if micro is not None and megatron is None and not values.switch(DYNAMIC) and per_gpu % micro:
        below = max((m for m in range(1, micro) if per_gpu % m == 0), default=None)
        fixed = values.fix(MICRO, below, per_gpu if per_gpu > micro else None)
        message = MINI_MICRO.format(normalized=per_gpu, micro=micro)
        reading.add(MINI_MICRO_RULE(MiniMicro(per_gpu, micro), message=message, fix=fixed))
        return None, micro
    return per_gpu, micro


def _steps(reading: Reading, numbers: tuple[int, int | None, int], data_parallel: int, dynamic: bool) -> int | None:
    """k: each GPU's share P · n / d in mini-batches (the last may be short), ``ppo_epochs`` times."""
    sequences, per_gpu, epochs = numbers
    if per_gpu is None:
        return None
    if sequences % data_parallel:
        message = CHUNKS.format(sequences=sequences, data_parallel=data_parallel)
        reading.add(CHUNKS_RULE(Chunks(sequences, data_parallel), message=message))
        return None
    share = sequences // data_parallel
    if share % per_gpu:
        reading.add(SHORT_LAST_RULE(ShortLast(share, per_gpu, share % per_gpu)))
    steps = -(-share // per_gpu) * epochs
    reading.step(STEPS, (share, per_gpu, epochs), steps)
    return steps


def _dynamic(reading: Reading, values: _Values, length: tuple[int, int] | None) -> int:
    """Micro-batches packed to at most ``ppo_max_token_len_per_gpu`` · SP tokens; below the padded length refused."""
    tokens, sp = values.number(TOKENS), 1 if values.megatron() else values.number(SP)
    bound = tokens * sp
    reading.step(BOUND, (tokens, sp), bound)
    reading.add(DYNAMIC_RULE(Dynamic(bound)))
    if length is not None and bound < sum(length):
        message = TOKEN_BOUND.format(bound=bound, length=sum(length))
        fixed = values.fix(TOKENS, -(-sum(length) // sp))
        reading.add(TOKEN_BOUND_RULE(TokenBound(bound, sum(length)), message=message, fix=fixed))
    return bound


class _Values:
    """Hydra's values: ``key=value`` words of the ``main_ppo`` command, or a YAML's nested keys; each recorded with
    where it was written when it is used, verl's default where it is absent."""

    def __init__(self, reading: Reading, sources: list[Parsed]) -> None:
        self.reading = reading
        self.given: dict[str, tuple[Parsed, Any]] = {}
        self.config_name = ""
        self.noted: set[str] = set()
        self.defaulted: list[str] = []
        for parsed in sources:
            if parsed.format in (Format.YAML, Format.JSON) and detect(parsed):
                for key in (*DEFAULTS, MICRO, MICRO_GLOBAL, DYNAMIC, SP_NEW, REMOVE_PADDING, ACTOR + "strategy"):
                    if (value := lookup(parsed.data, key)) is not None:
                        self.given[key] = (parsed, value)
            elif parsed.format is Format.SHELL and parsed.script is not None:
                for command in parsed.script.commands:
                    if _is_main_ppo(command.words):
                        self._words(parsed, command.words)

    def _words(self, parsed: Parsed, words: tuple[str, ...]) -> None:
        for word in words:
            key, has_value, value = word.partition("=")
            if key in ("--config-name", "--config_name"):
                self.config_name = value
            elif has_value and not key.startswith("-"):
                self.given[key.lstrip("+~")] = (parsed, value.strip("'\""))

    def where(self, key: str) -> str | None:
        if key not in self.given:
            return None
        parsed = self.given[key][0]
        return parsed.where(key if parsed.format is Format.SHELL else key.rsplit(".", 1)[-1])

    def raw(self, key: str) -> Any:
        if key not in self.given:
            return None
        value = self.given[key][1]
        if key not in self.noted:
            self.noted.add(key)
            self.reading.note(key, value, self.where(key) or "")
        return value

    def optional(self, key: str) -> int | None:
        value = self.raw(key)
        if value is None or str(value).lower() in ("null", "none", "~"):
            return None
        return whole(value, key, self.where(key) or "")

    def number(self, key: str) -> int:
        value = self.optional(key)
        if value is None and key in SHOWN_DEFAULTS and key not in self.defaulted:
            self.defaulted.append(key)
        return DEFAULTS[key] if value is None else value

    def switch(self, key: str) -> bool:
        return str(self.raw(key)).lower() == "true"

    def megatron(self) -> bool:
        """The Megatron worker: ``--config-name ppo_megatron_trainer``, ``actor.strategy=megatron``, or its keys."""
        strategy = self.given.get(ACTOR + "strategy", (None, ""))[1]
        return "megatron" in self.config_name or strategy == "megatron" or any(k in self.given for k in (*MEGATRON, CP))

    def fix(self, key: str, *candidates: int | None) -> Fix | None:
        """The fix as the config writes it: ``key=value`` on a command line, ``leaf: value`` in YAML."""
        parsed = self.given[key][0] if key in self.given else None
        syntax = Syntax.YAML if parsed is not None and parsed.format is not Format.SHELL else Syntax.OVERRIDE
        if key == REMOVE_PADDING:
            return None
        given = tuple(v for v in candidates if v is not None and v >= 1)
        return Fix(key, given, syntax) if given else None
