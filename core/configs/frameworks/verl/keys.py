"""verl's settings as Hydra names them, and its defaults (ppo_trainer.yaml and its parts at b178a3cd; verl 0.1's
ppo_trainer.yaml where that release differs)."""

from __future__ import annotations

MODULES = ("verl.trainer.main_ppo", "recipe.dapo.main_dapo")
SCRIPTS = ("verl/trainer/main_ppo.py", "main_dapo.py")
ACTOR_ROLLOUT = "actor_rollout_ref."  # verl's own Hydra group: an override of it on a python command is verl's
ACTOR = "actor_rollout_ref.actor."
CRITIC = "critic."
PROMPTS = "data.train_batch_size"
GENERATED = (
    "data.gen_batch_size"  # DAPO's generation batch (recipe/dapo/config/dapo_trainer.yaml), or +data.… on main_ppo
)
FILTER = "algorithm.filter_groups.enable"
SAMPLES = "actor_rollout_ref.rollout.n"
ESTIMATOR = "algorithm.adv_estimator"
CRITIC_ENABLE = "critic.enable"
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
STRATEGY = ACTOR + "strategy"
REMOVE_PADDING = "actor_rollout_ref.model.use_remove_padding"
CRITIC_MINI = CRITIC + "ppo_mini_batch_size"
CRITIC_MICRO = CRITIC + "ppo_micro_batch_size_per_gpu"
CRITIC_MICRO_GLOBAL = CRITIC + "ppo_micro_batch_size"
CRITIC_EPOCHS = CRITIC + "ppo_epochs"
CRITIC_DYNAMIC = CRITIC + "use_dynamic_bsz"
CRITIC_SP = CRITIC + "ulysses_sequence_parallel_size"
GPUS, NODES = "trainer.n_gpus_per_node", "trainer.nnodes"
LENGTHS = ("data.max_prompt_length", "data.max_response_length")
DEFAULTS = {PROMPTS: 1024, SAMPLES: 1, MINI: 256, EPOCHS: 1, TOKENS: 16384, SP: 1, GPUS: 8, NODES: 1, CP: 1}
DEFAULTS |= dict.fromkeys(MEGATRON, 1) | dict.fromkeys(LENGTHS, 512) | {CRITIC_SP: 1}
#: verl 0.1's ppo_trainer.yaml gives both global micro-batches a value (64); later releases leave them null.
OLD_MICRO = 64
#: Settings whose default decides the batch without a word, said when a config leaves them out.
SHOWN_DEFAULTS = (PROMPTS, SAMPLES, MINI, GPUS, NODES)
#: Keys that exist only from verl 0.2 on (#136 renamed the micro-batches ``*_per_gpu``): Hydra refuses them before.
SINCE_0_2_SUFFIX = "_per_gpu"
#: Every key read, for a YAML of ppo_trainer.yaml's shape.
READ = (
    *DEFAULTS,
    MICRO,
    MICRO_GLOBAL,
    DYNAMIC,
    SP_NEW,
    REMOVE_PADDING,
    STRATEGY,
    GENERATED,
    FILTER,
    ESTIMATOR,
    CRITIC_ENABLE,
    CRITIC_MINI,
    CRITIC_MICRO,
    CRITIC_MICRO_GLOBAL,
    CRITIC_EPOCHS,
    CRITIC_DYNAMIC,
)
