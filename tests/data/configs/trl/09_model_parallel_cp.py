# GRPOConfig in Python with accelerate's ParallelismConfig (context parallel 2) on 8 processes.
# GRPO refuses sequence-dim parallelism (grpo_config.py __post_init__).
from accelerate.parallelism_config import ParallelismConfig
from trl import GRPOConfig

args = GRPOConfig(
    output_dir="out",
    per_device_train_batch_size=4,
    gradient_accumulation_steps=2,
    num_generations=8,
    parallelism_config=ParallelismConfig(dp_shard_size=4, cp_size=2),
    bf16=False,  # only because this machine has no GPU (GRPOConfig defaults bf16=True)
)
WORLD_SIZE = 8
