# shape: src/scripts/train/template.py + tp_config ; assumed world: 32 GPUs (4 nodes), TP degree 4
from olmo_core.data import NumpyDataLoaderConfig, NumpyFSLDatasetConfig
from olmo_core.distributed.parallel import DataParallelType
from olmo_core.train.train_module import (
    TransformerDataParallelConfig,
    TransformerTensorParallelConfig,
    TransformerTrainModuleConfig,
)

SEQUENCE_LENGTH = 8192
GLOBAL_BATCH_SIZE = 256 * SEQUENCE_LENGTH

data_loader_config = NumpyDataLoaderConfig(global_batch_size=GLOBAL_BATCH_SIZE, seed=34521)
dataset_config = NumpyFSLDatasetConfig(paths=[], sequence_length=SEQUENCE_LENGTH)
train_module_config = TransformerTrainModuleConfig(
    rank_microbatch_size=2 * SEQUENCE_LENGTH,
    max_sequence_length=SEQUENCE_LENGTH,
    optim=None,
    dp_config=TransformerDataParallelConfig(name=DataParallelType.fsdp),
    tp_config=TransformerTensorParallelConfig(degree=4),
)
