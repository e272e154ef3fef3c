set -x
# shape of Logic-RL's main_grpo.sh (Unakar/Logic-RL 9d2c4575), written for the verl 0.1 it vendors
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=64 \
    data.max_prompt_length=400 \
    data.max_response_length=4096 \
    actor_rollout_ref.actor.ppo_mini_batch_size=32 \
    actor_rollout_ref.actor.ppo_micro_batch_size=16 \
    actor_rollout_ref.rollout.n=16 \
    trainer.n_gpus_per_node=4 \
    trainer.nnodes=1 $@
