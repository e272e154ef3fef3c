set -x
# rollout 100 prompts x 4 = 400 samples, train.batch_size 128 -> 3.125 steps' worth per epoch;
# micro 2 on 8 GPUs: 400/8 = 50 samples per rank -> 25 micro-batches per epoch, accumulation 128/(2*8) = 8
# actor GPUs not given: defaults --actor.num_nodes 1 --actor.num_gpus_per_node 8
python3 -m openrlhf.cli.train_ppo_ray \
   --actor.model_name_or_path OpenRLHF/Qwen2.5-Math-1.5B \
   --reward.remote_url examples/python/reward_func.py \
   --train.micro_batch_size 2 \
   --train.batch_size 128 \
   --rollout.batch_size 100 \
   --rollout.n_samples_per_prompt 4 \
   --algo.advantage.estimator group_norm \
   --data.prompt_dataset zhuzilin/dapo-math-17k
