set -x
# same run with the flat flags of OpenRLHF before ed62d0e (2026-04-19); runs against train_ppo_ray.py at 76351db
python3 -m openrlhf.cli.train_ppo_ray \
   --ref_num_nodes 1 \
   --ref_num_gpus_per_node 8 \
   --actor_num_nodes 1 \
   --actor_num_gpus_per_node 8 \
   --vllm_num_engines 4 \
   --vllm_tensor_parallel_size 2 \
   --colocate_all_models \
   --pretrain OpenRLHF/Qwen2.5-Math-1.5B \
   --remote_rm_url examples/python/reward_func.py \
   --micro_train_batch_size 8 \
   --train_batch_size 128 \
   --micro_rollout_batch_size 16 \
   --rollout_batch_size 128 \
   --n_samples_per_prompt 8 \
   --max_epochs 1 \
   --max_len 2048 \
   --advantage_estimator group_norm \
   --prompt_data zhuzilin/dapo-math-17k \
   --input_key prompt \
   --zero_stage 3 \
   --param_dtype bf16
