# GRPOConfig with accelerate ParallelismConfig tensor parallel 2 on 8 processes (dp_shard 4 x tp 2).
# GRPOConfig.__post_init__ uses num_processes = self.world_size (all 8 processes, TP ranks included).
from accelerate.parallelism_config import ParallelismConfig
from trl import GRPOConfig

args = GRPOConfig(
    output_dir="out",
    per_device_train_batch_size=4,
    gradient_accumulation_steps=2,
    num_generations=8,
    parallelism_config=ParallelismConfig(dp_shard_size=4, tp_size=2),
    bf16=False,  # only because this machine has no GPU (GRPOConfig defaults bf16=True)
)
WORLD_SIZE = 8
