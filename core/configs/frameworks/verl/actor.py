"""The actor's mini-batches as verl's workers normalise them: today's order (``ppo_mini_batch_size *= n; //= d``,
fsdp_workers.py:240-262 at b178a3cd) and verl 0.1's (``//= d`` first, then ``*= n``, the micro-batch as well;
v0.1 fsdp_workers.py, vendored unchanged in TinyZero, Logic-RL and rllm's copies), with the checks of each release."""

from __future__ import annotations

from math import gcd

from effbatch.core.configs.base.rules import Effect, Finding, Nothing, context
from effbatch.core.configs.base.values import Reading, neighbours
from effbatch.core.configs.frameworks.verl.keys import MICRO, MINI, OLD_MICRO, PROMPTS, SP
from effbatch.core.configs.frameworks.verl.rules import (
    ABOVE_ROLLOUT_RULE,
    BELOW_MINI,
    BELOW_MINI_RULE,
    BOTH_MICRO,
    BOTH_MICRO_RULE,
    CHUNKS,
    CHUNKS_RULE,
    FLOORED_RULE,
    GLOBAL_MICRO,
    GLOBAL_MICRO_RULE,
    GLOBAL_MICRO_SMALL,
    GLOBAL_MICRO_SMALL_RULE,
    MICRO_FLOORED,
    MINI_MICRO,
    MINI_MICRO_RULE,
    MODEL_PARALLEL,
    MODEL_PARALLEL_RULE,
    NO_MICRO,
    NO_MICRO_RULE,
    NORMALISED,
    OLD_MINI_MICRO_RULE,
    OLD_NORMALISED,
    OLD_ZERO_RULE,
    REAL_TRAIN,
    REAL_TRAIN_RULE,
    SHORT_LAST_RULE,
    STEPS,
    ZERO,
    ZERO_RULE,
    AboveRollout,
    BelowMini,
    Chunks,
    Floored,
    GlobalMicro,
    GlobalMicroSmall,
    MiniMicro,
    ModelParallel,
    RealTrain,
    ShortLast,
    Zero,
)
from effbatch.core.configs.frameworks.verl.rules import (
    OLD_MICRO as OLD_MICRO_STEP,
)
from effbatch.core.configs.frameworks.verl.values import Values


@context
class Actor:
    """The actor's settings as written: P (``data.train_batch_size``, what the checks use), the prompts one update
    trains on (DAPO's generation batch may differ), n, mini, epochs, the micro-batches and the dynamic switch."""

    written: int
    prompts: int
    samples: int
    mini: int
    epochs: int
    micro: int | None
    micro_global: int | None
    dynamic: bool


def refuses(reading: Reading, finding: Finding) -> bool:
    """Add ``finding``; whether it stops the run for the release the pins say (a rule of other releases is dropped,
    one no pin decides is a warning, and then the next check runs as that release would)."""
    before = len(reading.findings)
    reading.add(finding)
    return len(reading.findings) > before and reading.findings[-1].effect is Effect.REFUSED


def refused(reading: Reading) -> bool:
    return any(finding.effect is Effect.REFUSED for finding in reading.findings)


def validate(reading: Reading, values: Values, actor: Actor, gpus: int, megatron: tuple[int, int, int] | None) -> None:
    """ActorConfig and validate_config (verl ≥ 0.2), in verl's order; the first refusal stops, as verl does."""
    micro, micro_global = actor.micro, actor.micro_global
    if micro is not None and micro_global is not None:
        if refuses(reading, BOTH_MICRO_RULE(Nothing(), message=BOTH_MICRO)):
            return
    elif micro is None and micro_global is None and refuses(reading, NO_MICRO_RULE(Nothing(), message=NO_MICRO)):
        return
    minimal = gpus
    if megatron is not None:
        tp, pp, cp = megatron
        if gpus % (tp * pp * cp):
            message = MODEL_PARALLEL.format(gpus=gpus, model_parallel=tp * pp, cp=cp)
            reading.add(MODEL_PARALLEL_RULE(ModelParallel(gpus, tp * pp, cp), message=message))
            return
        minimal = gpus // (tp * pp * cp) * (micro or 1)
    sequences, n = actor.written * actor.samples, actor.samples
    if sequences % minimal:
        fixed = values.fix(PROMPTS, *neighbours(actor.written, minimal // gcd(n, minimal)))
        message = REAL_TRAIN.format(sequences=sequences, minimal=minimal)
        if refuses(reading, REAL_TRAIN_RULE(RealTrain(sequences, minimal), message=message, fix=fixed)):
            return
    _validate_actor(reading, values, actor, gpus)


def _validate_actor(reading: Reading, values: Values, actor: Actor, gpus: int) -> None:
    """ActorConfig.validate (actor.py:200-218): P ≥ mini (from 0.3); the deprecated global micro-batch divides mini
    and is at least the GPUs."""
    p, mini, micro_global = actor.written, actor.mini, actor.micro_global
    if p < mini:
        message = BELOW_MINI.format(prompts=p, mini=mini)
        if refuses(reading, BELOW_MINI_RULE(BelowMini(p, mini), message=message, fix=values.fix(MINI, p))):
            return
    if micro_global is None or actor.micro is not None:
        return
    if mini % micro_global:
        message = GLOBAL_MICRO.format(mini=mini, micro=micro_global)
        if refuses(reading, GLOBAL_MICRO_RULE(GlobalMicro(mini, micro_global), message=message)):
            return
    sp = values.number(SP)
    if micro_global * sp < gpus:
        message = GLOBAL_MICRO_SMALL.format(micro=micro_global, sp=sp, gpus=gpus)
        reading.add(GLOBAL_MICRO_SMALL_RULE(GlobalMicroSmall(micro_global, sp, gpus), message=message))


def normalise(
    reading: Reading, values: Values, actor: Actor, data_parallel: int, megatron: tuple[int, int, int] | None
) -> tuple[int | None, int | None]:
    """The worker's ``ppo_mini_batch_size *= n; //= d`` and its asserts: (mini per GPU, b), None where refused."""
    n, mini = actor.samples, actor.mini
    if refused(reading):
        return None, actor.micro
    per_gpu = mini * n // data_parallel
    reading.step(NORMALISED, (mini, n, data_parallel), per_gpu)
    if per_gpu == 0:
        fixed = values.fix(MINI, -(-data_parallel // n))
        reading.add(ZERO_RULE(Zero(mini, n, data_parallel), message=ZERO.format(normalized=per_gpu), fix=fixed))
        return None, actor.micro
    if per_gpu * data_parallel != mini * n:
        reading.add(FLOORED_RULE(Floored(mini * n, data_parallel, per_gpu, per_gpu * data_parallel)))
    micro = actor.micro
    if actor.micro_global is not None and micro is None:
        micro = actor.micro_global // data_parallel
        reading.step(MICRO_FLOORED, (actor.micro_global, data_parallel), micro)
    if micro and megatron is None and not actor.dynamic and per_gpu % micro:
        below = max((m for m in range(1, micro) if per_gpu % m == 0), default=None)
        fixed = values.fix(MICRO, below, per_gpu if per_gpu > micro else None)
        message = MINI_MICRO.format(normalized=per_gpu, micro=micro)
        if refuses(reading, MINI_MICRO_RULE(MiniMicro(per_gpu, micro), message=message, fix=fixed)):
            return None, micro
    return per_gpu, micro


def old_numbers(actor: Actor, data_parallel: int) -> tuple[int, int]:
    """verl 0.1's mini and micro per GPU: ``//= d`` first, then ``*= n``; ``ppo_micro_batch_size_per_gpu`` (a key
    of the 0.1 snapshots from #136 on) as written, else ``ppo_micro_batch_size`` (default 64) ``//= d``, ``*= n``."""
    mini = actor.mini // data_parallel * actor.samples
    if _per_gpu_written(actor):
        return mini, actor.micro or 0
    return mini, _old_micro(actor) // data_parallel * actor.samples


def _per_gpu_written(actor: Actor) -> bool:
    return actor.micro is not None and actor.micro_global is None


def _old_micro(actor: Actor) -> int:
    return actor.micro_global if actor.micro_global is not None else actor.micro or OLD_MICRO


def normalise_old(reading: Reading, actor: Actor, data_parallel: int) -> tuple[int | None, int | None]:
    """verl 0.1's worker and dp_actor.update_policy's ``assert ppo_mini_batch_size % ppo_micro_batch_size == 0``
    (asserted with the dynamic batch size as well)."""
    per_gpu, micro = old_numbers(actor, data_parallel)
    reading.step(OLD_NORMALISED, (actor.mini, data_parallel, actor.samples), per_gpu)
    if not _per_gpu_written(actor):
        reading.step(OLD_MICRO_STEP, (_old_micro(actor), data_parallel, actor.samples), micro)
    if per_gpu == 0 or micro == 0:
        reading.add(
            OLD_ZERO_RULE(Zero(actor.mini if per_gpu == 0 else _old_micro(actor), actor.samples, data_parallel))
        )
        return None, micro
    if per_gpu % micro:
        reading.add(OLD_MINI_MICRO_RULE(MiniMicro(per_gpu, micro)))
        return None, micro
    return per_gpu, micro


def steps(reading: Reading, actor: Actor, per_gpu: int | None, data_parallel: int) -> tuple[int, int] | None:
    """Each GPU's share P · n / d in mini-batches of ``per_gpu`` (the last may be short; one that exceeds the share
    takes it whole), ``ppo_epochs`` times: (sequences per optimizer step on one GPU, k); None where refused."""
    if per_gpu is None:
        return None
    sequences = actor.prompts * actor.samples
    if sequences % data_parallel:
        message = CHUNKS.format(sequences=sequences, data_parallel=data_parallel)
        reading.add(CHUNKS_RULE(Chunks(sequences, data_parallel), message=message))
        return None
    share = sequences // data_parallel
    if per_gpu > share:
        intended = per_gpu * data_parallel
        reading.add(ABOVE_ROLLOUT_RULE(AboveRollout(per_gpu, share, share * data_parallel, intended)))
    elif share % per_gpu:
        reading.add(SHORT_LAST_RULE(ShortLast(share, per_gpu, share % per_gpu)))
    count = -(-share // per_gpu) * actor.epochs
    reading.step(STEPS, (share, per_gpu, actor.epochs), count)
    return min(per_gpu, share), count
