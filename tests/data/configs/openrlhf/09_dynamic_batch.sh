set -x
# shape of train_prorlv2_math_hybrid_engine.sh: dynamic batch -> micro-batches bounded by tokens
python3 -m openrlhf.cli.train_ppo_ray \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 8 \
   --actor.model_name_or_path deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B \
   --reward.remote_url examples/python/math_reward_func.py \
   --rollout.batch_size 512 \
   --rollout.n_samples_per_prompt 16 \
   --train.batch_size 1024 \
   --train.dynamic_batch_enable \
   --train.max_tokens_per_gpu 32768 \
   --data.max_len 9216 \
   --algo.advantage.estimator reinforce_baseline \
   --data.prompt_dataset OpenRLHF/dapo-math-17k
