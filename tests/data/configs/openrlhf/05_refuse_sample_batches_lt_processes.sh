set -x
python3 -m openrlhf.cli.train_ppo_ray \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --actor.model_name_or_path OpenRLHF/Qwen2.5-Math-1.5B \
   --reward.remote_url examples/python/reward_func.py \
   --train.micro_batch_size 1 \
   --train.batch_size 8 \
   --rollout.micro_batch_size 4 \
   --rollout.batch_size 4 \
   --rollout.n_samples_per_prompt 4 \
   --algo.advantage.estimator group_norm \
   --data.prompt_dataset zhuzilin/dapo-math-17k
