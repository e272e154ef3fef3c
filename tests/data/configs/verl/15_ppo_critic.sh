set -x
# shape of examples/ppo_trainer/run_deepseek7b_llm.sh: PPO with GAE, the critic with its own mini-batch and epochs
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=gae \
    data.train_batch_size=256 \
    data.max_prompt_length=512 \
    data.max_response_length=512 \
    actor_rollout_ref.actor.ppo_mini_batch_size=64 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.n=4 \
    critic.ppo_mini_batch_size=32 \
    critic.ppo_micro_batch_size_per_gpu=4 \
    critic.ppo_epochs=2 \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1 $@
