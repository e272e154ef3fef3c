"""verl's PPO/GRPO batch (volcengine/verl b178a3cd56f58b2d502255daba591e92833930a7; its lines lifted and executed).

Hydra overrides on ``python3 -m verl.trainer.main_ppo key=value …`` (or DAPO's ``recipe.dapo.main_dapo``) or a YAML
of ppo_trainer.yaml's shape.

- ``data.train_batch_size`` P counts **prompts** (1024, config/data/legacy_data.yaml:42),
  ``actor_rollout_ref.rollout.n`` n responses each (1, rollout.yaml:108): a rollout is P · n sequences.
- ``actor.ppo_mini_batch_size`` counts **prompts** too (256, actor.yaml:18). The FSDP worker
  (verl/workers/fsdp_workers.py:163-171, 240-262) multiplies it by n and floors it by d = world // Ulysses SP
  (``ppo_mini_batch_size *= rollout.n; ppo_mini_batch_size //= device_mesh.size() // sp``); the Megatron worker
  (megatron_workers.py:353-360) by d = world / (TP · PP · CP). It asserts the result > 0 and, FSDP only, divisible by
  ``ppo_micro_batch_size_per_gpu`` b. The deprecated global ``ppo_micro_batch_size`` is floored by d the same way.
- dp_actor.py:541-556: each rank splits its P · n / d sequences into mini-batches of the normalised size (the last
  may be short; one larger than the share takes it whole), one optimizer step each, ``ppo_epochs`` times:
  B = min(normalised mini, P · n / d) · d sequences per optimizer step, a = that / b,
  k = ⌈(P · n / d) / normalised mini⌉ · epochs. With ``use_dynamic_bsz`` the micro-batches are packed to at most
  ``ppo_max_token_len_per_gpu`` · SP tokens (b and a are not fixed; seqlen_balancing.py:382 refuses a bound below
  the padded length ``data.max_prompt_length + data.max_response_length``).
- Before the workers: ActorConfig.__post_init__/validate (verl/workers/config/actor.py:174-220, 300-310) and
  validate_config (verl/utils/config.py:89-112, skipped with use_dynamic_bsz) refuse what is quoted in ``rules``.
- World = ``trainer.n_gpus_per_node`` · ``trainer.nnodes`` (8 · 1, ppo_trainer.yaml:156/153; utils/config.py:87);
  verl asks Ray for exactly these GPUs: fewer in the cluster is refused ("Total available GPUs …",
  single_controller/ray/base.py:205-221, since #505), more leaves the rest idle.
- The critic (``critic``), DAPO's generation batch (recipe/dapo/dapo_ray_trainer.py at v0.6.1: ``data.gen_batch_size``
  prompts a round; with ``algorithm.filter_groups.enable`` rounds until P prompts of non-uniform reward are kept, the
  batch cut to P · n; without, the whole generation batch trains; main_ppo's dataloader takes it as its batch too).

Which verl runs: a pin (``verl==0.1`` in requirements, pyproject, setup.py; ``--framework-version verl==0.1`` for a
copy vendored in the repository), else the keys the config writes (``*_micro_batch_size_per_gpu`` exists from 0.2 on:
Hydra refuses it before). verl 0.1 (and copies vendored before #183) divided mini and micro by d before multiplying
by n (``actor``); without either, today's arithmetic is answered and verl 0.1's numbers are said beside it.
"""

from __future__ import annotations

from effbatch.core.configs.base.results import Check, Derivation, Rollout, World
from effbatch.core.configs.base.rules import Nothing
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading
from effbatch.core.configs.base.versions import Pins, holds
from effbatch.core.configs.base.world import launched_world
from effbatch.core.configs.frameworks.verl import actor as actor_rules
from effbatch.core.configs.frameworks.verl.actor import Actor, refused
from effbatch.core.configs.frameworks.verl.critic import critic, uses_critic
from effbatch.core.configs.frameworks.verl.keys import (
    CP,
    DEFAULTS,
    EPOCHS,
    FILTER,
    GENERATED,
    GPUS,
    LENGTHS,
    MEGATRON,
    MICRO,
    MICRO_GLOBAL,
    MINI,
    NODES,
    PROMPTS,
    REMOVE_PADDING,
    SAMPLES,
    SP,
    SP_NEW,
    TOKENS,
)
from effbatch.core.configs.frameworks.verl.rules import (
    ACCUMULATION,
    BATCH,
    BEFORE_0_2,
    BEFORE_0_2_RULE,
    BOUND,
    DAPO_RULE,
    DEFAULTS_RULE,
    DYNAMIC_RULE,
    FROM_0_2,
    GENERATION_RULE,
    LENGTH,
    MODEL_PARALLEL,
    MODEL_PARALLEL_RULE,
    NEW_SP_RULE,
    NODES_FEWER_RULE,
    NODES_MESSAGE,
    NODES_MORE_RULE,
    OLD_ORDER_RULE,
    PADDING,
    PADDING_RULE,
    RULES,
    SEQUENCES,
    SP_ABOVE_GPUS_RULE,
    TOKEN_BOUND,
    TOKEN_BOUND_RULE,
    Defaults,
    Dynamic,
    Generation,
    GenerationBatch,
    ModelParallel,
    NewSp,
    Nodes,
    OldOrder,
    SequenceParallel,
    TokenBound,
)
from effbatch.core.configs.frameworks.verl.values import Values, is_config, is_main

ID = "verl"
__all__ = ["ID", "RULES", "check", "detect"]


def detect(parsed: Parsed) -> bool:
    """``verl.trainer.main_ppo`` (or DAPO's ``main_dapo``) on a command line, or a YAML with ``actor_rollout_ref``
    beside ``data``."""
    if parsed.format is Format.SHELL and parsed.script is not None:
        return any(is_main(command.words) for command in parsed.script.commands)
    return is_config(parsed)


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    reading = Reading(ID, pins)
    values = Values(reading, sources)
    reading.pins = _release(values, pins)
    return _check(reading, values, sources, world)


def _release(values: Values, pins: Pins) -> Pins:
    """Without a pin, a key only verl ≥ 0.2 has (``*_per_gpu``, read already) decides the release: Hydra refuses
    it before."""
    key = values.newer_key()
    if holds(FROM_0_2, pins) is not None or key is None:
        return pins
    return {**pins, "verl": ">=0.2.0"}


def _check(reading: Reading, values: Values, sources: list[Parsed], given: World | None) -> Check:
    actor = _actor(reading, values)
    length = _length(reading, values)
    world = reading.world(_world(reading, values, given, sources))
    if values.defaulted:
        reading.add(DEFAULTS_RULE(Defaults(", ".join(f"`{key}={DEFAULTS[key]}`" for key in values.defaulted))))
    data_parallel, megatron = _data_parallel(reading, values, world.size)
    if data_parallel == 0:
        _no_replica(reading, values, megatron, world.size)
        return reading.finish(world, data_parallel=0, rl=_rollout(actor, None, length, None))
    reading.step(SEQUENCES, (actor.prompts, actor.samples), actor.prompts * actor.samples)
    old = holds(BEFORE_0_2, reading.pins) is True
    if old:
        reading.add(OLD_ORDER_RULE(Nothing()))
        per_gpu, micro = actor_rules.normalise_old(reading, actor, data_parallel)
    else:
        if not actor.dynamic:
            actor_rules.validate(reading, values, actor, world.size, megatron)
        per_gpu, micro = actor_rules.normalise(reading, values, actor, data_parallel, megatron)
    if uses_critic(values) and not refused(reading):
        critic(reading, values, actor, world.size, old)
    counted = None if refused(reading) else actor_rules.steps(reading, actor, per_gpu, data_parallel)
    bound = _dynamic(reading, values, length) if actor.dynamic else None
    if counted is None or refused(reading):
        return reading.finish(world, data_parallel=data_parallel, rl=_rollout(actor, None, length, bound))
    if not old and megatron is None:
        _before_0_2(reading, actor, data_parallel, counted)
    return _finish(reading, (actor, world, data_parallel), counted, micro, (length, bound))


def _actor(reading: Reading, values: Values) -> Actor:
    written, n = values.number(PROMPTS), values.number(SAMPLES)
    return Actor(
        written,
        _prompts(reading, values, written),
        n,
        values.number(MINI),
        values.number(EPOCHS),
        values.optional(MICRO),
        values.optional(MICRO_GLOBAL),
        values.dynamic(),
    )


def _prompts(reading: Reading, values: Values, written: int) -> int:
    """The prompts one update trains on: ``data.gen_batch_size`` where it is the dataloader's batch, unless DAPO's
    group filter collects P prompts over as many generation rounds as it takes."""
    generated = values.optional(GENERATED)
    if generated is None:
        return written
    if values.switch(FILTER):
        reading.add(DAPO_RULE(Generation(generated, written, -(-written // generated))))
        return written
    if generated != written:
        reading.add(GENERATION_RULE(GenerationBatch(generated, written)))
    return generated


def _finish(
    reading: Reading,
    run: tuple[Actor, World, int],
    counted: tuple[int, int],
    micro: int | None,
    lengths: tuple[tuple[int, int] | None, int | None],
) -> Check:
    actor, world, data_parallel = run
    length, bound = lengths
    step, count = counted
    batch = step * data_parallel
    reading.step(BATCH, (step, data_parallel), batch)
    micro = None if actor.dynamic or not micro else min(micro, step)
    accumulation = None if micro is None or step % micro else step // micro
    if accumulation is not None and micro is not None:
        reading.step(ACCUMULATION, (step, micro), accumulation)
    if length is not None:
        reading.step(Derivation.T_PRODUCT, (batch, sum(length)), batch * sum(length))
    intended = actor.mini * actor.samples
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=sum(length) if length else None,
        intended=intended if batch != intended else None,
        rl=_rollout(actor, count, length, bound),
    )


def _before_0_2(reading: Reading, actor: Actor, data_parallel: int, counted: tuple[int, int]) -> None:
    """verl 0.1's numbers beside today's where no pin and no key says which runs and they differ (a note only a
    pin ≥ 0.2 drops)."""
    per_gpu, micro = actor_rules.old_numbers(actor, data_parallel)
    share = actor.prompts * actor.samples // data_parallel
    if per_gpu < 1 or micro < 1 or per_gpu % micro:
        return
    old_step, old_count = min(per_gpu, share), -(-share // per_gpu) * actor.epochs
    now_micro = actor.micro or (actor.micro_global or 0) // data_parallel
    if (old_step, old_count) != counted or (not actor.dynamic and min(micro, old_step) != now_micro):
        reading.add(BEFORE_0_2_RULE(OldOrder(per_gpu, min(micro, old_step), old_step * data_parallel, old_count)))


def _rollout(actor: Actor, steps: int | None, length: tuple[int, int] | None, bound: int | None) -> Rollout:
    prompt, response = length or (None, None)
    return Rollout(actor.prompts, actor.samples, steps, prompt_len=prompt, response_len=response, token_bound=bound)


def _length(reading: Reading, values: Values) -> tuple[int, int] | None:
    """L = ``data.max_prompt_length`` + ``data.max_response_length``, the padded length (verl's defaults 512 each)."""
    prompt, response = (values.number(key) for key in LENGTHS)
    reading.step(LENGTH, (prompt, response), prompt + response)
    return prompt, response


def _world(reading: Reading, values: Values, given: World | None, sources: list[Parsed]) -> World:
    """``trainer.n_gpus_per_node · trainer.nnodes``; a world given from outside where the script leaves them open,
    and held against them where the script writes both."""
    written = [values.raw(key) for key in (GPUS, NODES)]
    if given is not None and (all(v is None for v in written) or any("$" in str(v) for v in written if v)):
        return given
    gpus, nodes = values.number(GPUS), values.number(NODES)
    where = " · ".join(values.where(key) or f"{key}={DEFAULTS[key]}" for key in (GPUS, NODES))
    outside = _outside(given, sources)
    if outside is not None and outside.size != gpus * nodes:
        fixed = values.fix(NODES, outside.size // gpus if outside.size % gpus == 0 else None)
        found = Nodes(outside.size, gpus * nodes)
        if outside.size < gpus * nodes:
            reading.add(
                NODES_FEWER_RULE(
                    found, message=NODES_MESSAGE.format(given=found.given, written=found.written), fix=fixed
                )
            )
        else:
            reading.add(NODES_MORE_RULE(found, fix=fixed))
    return World(gpus * nodes, where)


def _outside(given: World | None, sources: list[Parsed]) -> World | None:
    """The world given from outside the script (``--world-size``, a form) or by its ``#SBATCH`` allocation; not one
    a variable of the script suggests (``WORLD_SIZE`` counts nodes in some verl scripts)."""
    if given is None or given.single:
        return None
    if given != launched_world(sources) or given.where.startswith("#SBATCH"):
        return given
    return None


def _data_parallel(reading: Reading, values: Values, world: int) -> tuple[int, tuple[int, int, int] | None]:
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


def _no_replica(reading: Reading, values: Values, megatron: tuple[int, int, int] | None, gpus: int) -> None:
    """More GPUs per replica than the run has: Megatron's workers refuse it in validate_config (n_gpus a multiple of
    TP · PP · CP), FSDP's build a device mesh of GPUs // SP = 0 replicas and divide the mini-batch by it."""
    if megatron is not None:
        tp, pp, cp = megatron
        message = MODEL_PARALLEL.format(gpus=gpus, model_parallel=tp * pp, cp=cp)
        reading.add(MODEL_PARALLEL_RULE(ModelParallel(gpus, tp * pp, cp), message=message))
        return
    sp = values.number(SP)
    reading.add(SP_ABOVE_GPUS_RULE(SequenceParallel(sp, gpus), fix=values.fix(SP, *_divisors_up_to(gpus))))


def _divisors_up_to(gpus: int) -> tuple[int, ...]:
    """The largest Ulysses degrees (at most two) that divide the GPUs."""
    return tuple(d for d in range(gpus, 0, -1) if gpus % d == 0 and d <= 8)[:2]


def _dynamic(reading: Reading, values: Values, length: tuple[int, int] | None) -> int:
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
