set -x
# ring attention 2 x DeepSpeed AutoTP 2 on 8 actor GPUs -> dp 2
python3 -m openrlhf.cli.train_ppo_ray \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 2 \
   --vllm.tensor_parallel_size 4 \
   --actor.model_name_or_path Qwen/Qwen3-8B \
   --reward.remote_url examples/python/reward_func.py \
   --train.micro_batch_size 4 \
   --train.batch_size 64 \
   --rollout.micro_batch_size 8 \
   --rollout.batch_size 64 \
   --rollout.n_samples_per_prompt 8 \
   --train.max_epochs 2 \
   --data.max_len 8192 \
   --ds.ring_attn_size 2 \
   --ds.tensor_parallel_size 2 \
   --ds.packing_samples \
   --ds.param_dtype bf16 \
   --algo.advantage.estimator reinforce_baseline \
   --data.prompt_dataset zhuzilin/dapo-math-17k
