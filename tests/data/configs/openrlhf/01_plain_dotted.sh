set -x
# shape of examples/scripts/train_dapo_ray_hybrid_engine.sh (dotted flags, OpenRLHF >= ed62d0e / v0.10.2)
python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --train.colocate_all \
   --actor.model_name_or_path OpenRLHF/Qwen2.5-Math-1.5B \
   --reward.remote_url examples/python/reward_func.py \
   --train.micro_batch_size 8 \
   --train.batch_size 128 \
   --rollout.micro_batch_size 16 \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --train.max_epochs 1 \
   --data.max_len 2048 \
   --algo.advantage.estimator group_norm \
   --data.prompt_dataset zhuzilin/dapo-math-17k \
   --data.input_key prompt \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16
