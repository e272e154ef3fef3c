set -x
# deprecated global ppo_micro_batch_size (divided by dp in fsdp_workers.py:248-252); shape of examples/tuning/*/..._fsdp_vllm.sh
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=176 \
    data.max_prompt_length=512 \
    data.max_response_length=1024 \
    actor_rollout_ref.model.path=Qwen/Qwen2-72B-Instruct \
    actor_rollout_ref.model.use_remove_padding=True \
    actor_rollout_ref.actor.ppo_mini_batch_size=176 \
    actor_rollout_ref.actor.ppo_micro_batch_size=176 \
    actor_rollout_ref.actor.ulysses_sequence_parallel_size=2 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=5 \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1 $@
