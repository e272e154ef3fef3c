# shape: TrainerConfig(...).with_callback("batch_size_scheduler", BatchSizeSchedulerCallback(...)) ; world: 64 GPUs
from olmo_core.data import NumpyDataLoaderConfig
from olmo_core.train import Duration, TrainerConfig
from olmo_core.train.callbacks import BatchSizeSchedulerCallback
from olmo_core.train.train_module import TransformerTrainModuleConfig

SEQUENCE_LENGTH = 4096
data_loader_config = NumpyDataLoaderConfig(global_batch_size=512 * SEQUENCE_LENGTH, seed=1)
train_module_config = TransformerTrainModuleConfig(
    rank_microbatch_size=2 * SEQUENCE_LENGTH, max_sequence_length=SEQUENCE_LENGTH, optim=None
)
trainer_config = TrainerConfig(save_folder="/tmp/x").with_callback(
    "batch_size_scheduler",
    BatchSizeSchedulerCallback(
        batch_sizes=[512 * SEQUENCE_LENGTH, 1024 * SEQUENCE_LENGTH, 1536 * SEQUENCE_LENGTH],
        schedule=[Duration.tokens(0), Duration.tokens(100_000_000_000), Duration.tokens(500_000_000_000)],
    ),
)
