set -x
# flat (pre-2026) flags mixed into a dotted command line: today's argparse rejects them
python3 -m openrlhf.cli.train_ppo_ray \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --actor.model_name_or_path OpenRLHF/Qwen2.5-Math-1.5B \
   --reward.remote_url examples/python/reward_func.py \
   --micro_train_batch_size 8 \
   --train_batch_size 128 \
   --rollout_batch_size 128 \
   --n_samples_per_prompt 8 \
   --data.prompt_dataset zhuzilin/dapo-math-17k
