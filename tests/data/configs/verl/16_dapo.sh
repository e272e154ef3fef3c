set -x
# shape of recipe/dapo/run_dapo_qwen2.5_32b.sh (volcengine/verl v0.6.1): generate 3 × the prompts, keep the groups
# whose rewards differ
train_prompt_bsz=256
gen_prompt_bsz=$((train_prompt_bsz * 3))
python3 -m recipe.dapo.main_dapo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=${train_prompt_bsz} \
    data.gen_batch_size=${gen_prompt_bsz} \
    algorithm.filter_groups.enable=True \
    algorithm.filter_groups.max_num_gen_batches=10 \
    data.max_prompt_length=2048 \
    data.max_response_length=8192 \
    actor_rollout_ref.actor.ppo_mini_batch_size=64 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.n=4 \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1 $@
