set -x
# refusal: n defaults to 1, 8 GPUs default: mini 32*1/8 = 4 not divisible by micro 8 (fsdp_workers.py:255); shape of examples/rollout_correction/run_with_rollout_corr.sh

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=128 \
    data.max_prompt_length=512 \
    data.max_response_length=1024 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B \
    actor_rollout_ref.actor.ppo_mini_batch_size=32 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.name=vllm \
    trainer.total_epochs=15 $@
