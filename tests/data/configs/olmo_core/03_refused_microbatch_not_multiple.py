# shape: src/examples/llm/train.py (literal token counts) ; assumed world: 8 GPUs
from olmo_core.data import NumpyDataLoaderConfig, NumpyFSLDatasetConfig
from olmo_core.train.train_module import TransformerTrainModuleConfig

data_loader_config = NumpyDataLoaderConfig(
    global_batch_size=256 * 1024,  # NOTE this is specified in tokens, not instances
    seed=0,
)
dataset_config = NumpyFSLDatasetConfig(paths=[], sequence_length=1024)
train_module_config = TransformerTrainModuleConfig(
    rank_microbatch_size=12_000,  # NOTE this is specified in tokens, not instances
    max_sequence_length=1024,
    optim=None,
)
