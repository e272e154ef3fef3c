# In the shape of torchtitan's torchtitan/models/llama3/config_registry.py (config refactor, #2386):
# one function per variant, each building a Trainer.Config; effbatch reads it with ast, never imports it.
from torchtitan.config import ParallelismConfig, TrainingConfig
from torchtitan.trainer import Trainer


def llama3_8b() -> Trainer.Config:
    return Trainer.Config(
        training=TrainingConfig(
            num_tokens_per_microbatch_per_dp_rank=2 * 8192,
            num_tokens_per_train_step=4 * 1024 * 1024,
            max_context_length=8192,
        ),
        parallelism=ParallelismConfig(data_parallel_shard_degree=-1, tensor_parallel_degree=2),
    )


def llama3_8b_long() -> Trainer.Config:
    config = llama3_8b()
    config.training.max_context_length = 131072
    return config
