set -x
# shape of Logic-RL's train_reinforce_plus_4gpu_7Binstruct.sh: mini 256 prompts, but only 16 per rollout
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=reinforce_plus_plus \
    data.train_batch_size=16 \
    data.max_prompt_length=400 \
    data.max_response_length=4096 \
    actor_rollout_ref.actor.ppo_mini_batch_size=256 \
    actor_rollout_ref.actor.ppo_micro_batch_size=64 \
    actor_rollout_ref.rollout.n=8 \
    trainer.n_gpus_per_node=4 \
    trainer.nnodes=1 $@
