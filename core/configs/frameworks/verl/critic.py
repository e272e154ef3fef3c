"""The critic's mini-batches (PPO with GAE): its own settings, each defaulting to the actor's (critic.yaml at
b178a3cd: ``ppo_mini_batch_size``, ``ppo_epochs``, ``use_dynamic_bsz`` from the actor, ``rollout_n`` from the
rollout), CriticConfig's checks (workers/config/critic.py:90-127), the CriticWorker's normalisation
(fsdp_workers.py:1231-1253: ``*= rollout_n; //= world // SP``) and dp_critic's split into mini-batches.

verl 0.1's CriticWorker divides mini and micro by d and never multiplies by n (its fsdp_workers.py:535-536).
A critic runs where ``critic.enable`` says so, else where ``algorithm.adv_estimator`` is ``gae`` (the default;
trainer/ppo/utils.py:86-97).
"""

from __future__ import annotations

from effbatch.core.configs.base.rules import Nothing
from effbatch.core.configs.base.values import Reading
from effbatch.core.configs.frameworks.verl.actor import Actor, refuses
from effbatch.core.configs.frameworks.verl.keys import (
    CRITIC_DYNAMIC,
    CRITIC_ENABLE,
    CRITIC_EPOCHS,
    CRITIC_MICRO,
    CRITIC_MICRO_GLOBAL,
    CRITIC_MINI,
    CRITIC_SP,
    ESTIMATOR,
)
from effbatch.core.configs.frameworks.verl.rules import (
    CRITIC_BATCH_RULE,
    CRITIC_BELOW_MINI,
    CRITIC_BELOW_MINI_RULE,
    CRITIC_BOTH_MICRO,
    CRITIC_BOTH_MICRO_RULE,
    CRITIC_GLOBAL_MICRO_RULE,
    CRITIC_MINI_MICRO_RULE,
    CRITIC_NO_MICRO,
    CRITIC_NO_MICRO_RULE,
    CRITIC_NORMALISED,
    MINI_MICRO,
    BelowMini,
    CriticBatch,
    MiniMicro,
)
from effbatch.core.configs.frameworks.verl.values import Values


def uses_critic(values: Values) -> bool:
    """``critic.enable`` where written, else whether the advantage estimator is GAE (verl's default)."""
    enable = values.text(CRITIC_ENABLE)
    if enable is not None and enable.lower() not in ("null", "none", "~"):
        return enable.lower() == "true"
    return (values.text(ESTIMATOR) or "gae").lower() == "gae"


def critic(reading: Reading, values: Values, actor: Actor, world: int, old: bool) -> None:
    """The critic's checks, then its batch and optimizer steps per rollout as a note (the answer's batch is the
    actor's)."""
    mini = values.optional(CRITIC_MINI) or actor.mini
    epochs = values.optional(CRITIC_EPOCHS) or actor.epochs
    data_parallel = world // values.number(CRITIC_SP)
    n = actor.samples
    if old:
        per_gpu = mini // data_parallel
        reading.step(CRITIC_NORMALISED, (mini, 1, data_parallel), per_gpu)
    else:
        if not values.switch(CRITIC_DYNAMIC, default=actor.dynamic) and _refused(reading, values, actor, mini):
            return
        per_gpu = mini * n // data_parallel
        reading.step(CRITIC_NORMALISED, (mini, n, data_parallel), per_gpu)
        if _micro_refused(reading, values, per_gpu, data_parallel):
            return
    share = actor.prompts * n // data_parallel
    if per_gpu < 1 or share < 1:
        return
    batch = min(per_gpu, share) * data_parallel
    reading.add(CRITIC_BATCH_RULE(CriticBatch(batch, -(-share // per_gpu) * epochs, per_gpu, data_parallel)))


def _refused(reading: Reading, values: Values, actor: Actor, mini: int) -> bool:
    """CriticConfig.__post_init__ and validate: a micro-batch, not both (the global one alone counts as both since
    0.5: critic.yaml interpolates it into ``ppo_micro_batch_size_per_gpu``), P ≥ the critic's mini (from 0.3)."""
    micro, micro_global = values.optional(CRITIC_MICRO), values.optional(CRITIC_MICRO_GLOBAL)
    if micro is None and micro_global is None:
        return refuses(reading, CRITIC_NO_MICRO_RULE(Nothing(), message=CRITIC_NO_MICRO))
    if micro is not None and micro_global is not None:
        return refuses(reading, CRITIC_BOTH_MICRO_RULE(Nothing(), message=CRITIC_BOTH_MICRO))
    if micro_global is not None and refuses(reading, CRITIC_GLOBAL_MICRO_RULE(Nothing(), message=CRITIC_BOTH_MICRO)):
        return True
    if actor.written < mini:
        message = CRITIC_BELOW_MINI.format(prompts=actor.written, mini=mini)
        fixed = values.fix(CRITIC_MINI, actor.written)
        return refuses(reading, CRITIC_BELOW_MINI_RULE(BelowMini(actor.written, mini), message=message, fix=fixed))
    return False


def _micro_refused(reading: Reading, values: Values, per_gpu: int, data_parallel: int) -> bool:
    """The worker's ``normalized ppo_mini_batch_size % ppo_micro_batch_size_per_gpu`` assert for the critic."""
    micro = values.optional(CRITIC_MICRO)
    if micro is None and (micro_global := values.optional(CRITIC_MICRO_GLOBAL)) is not None:
        micro = micro_global // data_parallel
    if not micro or per_gpu % micro == 0:
        return False
    message = MINI_MICRO.format(normalized=per_gpu, micro=micro)
    return refuses(reading, CRITIC_MINI_MICRO_RULE(MiniMicro(per_gpu, micro), message=message))
