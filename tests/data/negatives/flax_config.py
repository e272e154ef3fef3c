# An ml_collections config of a JAX/Flax training script: attribute assignments like a Megatron-Bridge recipe
# (config.train.global_batch_size = …), but no recipe base and no megatron.bridge import.
import ml_collections


def get_config() -> ml_collections.ConfigDict:
    config = ml_collections.ConfigDict()
    config.train = ml_collections.ConfigDict()
    config.train.global_batch_size = 512
    config.train.micro_batch_size = 4
    config.model = ml_collections.ConfigDict()
    config.model.tensor_model_parallel_size = 2
    config.dataset = ml_collections.ConfigDict()
    config.dataset.seq_length = 4096
    return config
