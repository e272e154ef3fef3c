# shape: src/scripts/train/template.py ; assumed world: 16 GPUs (2 nodes x 8)
from olmo_core.data import NumpyDataLoaderConfig, NumpyFSLDatasetConfig, TokenizerConfig
from olmo_core.distributed.parallel import DataParallelType
from olmo_core.optim import AdamWConfig
from olmo_core.train.train_module import TransformerDataParallelConfig, TransformerTrainModuleConfig

SEQUENCE_LENGTH = 4096
GLOBAL_BATCH_SIZE = 512 * SEQUENCE_LENGTH
RANK_MICROBATCH_SIZE = 4 * SEQUENCE_LENGTH


def build_config():
    dataset_config = NumpyFSLDatasetConfig(
        paths=[], sequence_length=SEQUENCE_LENGTH, tokenizer=TokenizerConfig.dolma2()
    )
    data_loader_config = NumpyDataLoaderConfig(global_batch_size=GLOBAL_BATCH_SIZE, seed=34521, num_workers=4)
    train_module_config = TransformerTrainModuleConfig(
        rank_microbatch_size=RANK_MICROBATCH_SIZE,
        max_sequence_length=SEQUENCE_LENGTH,
        optim=AdamWConfig(lr=4e-4),
        dp_config=TransformerDataParallelConfig(name=DataParallelType.hsdp),
    )
    return dataset_config, data_loader_config, train_module_config
