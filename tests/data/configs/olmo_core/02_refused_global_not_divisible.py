# shape: src/scripts/train/OLMo2/OLMo2-13B.py (partial(build_config, global_batch_size=...)) ; assumed world: 128 GPUs
from functools import partial

from olmo_core.internal.experiment import CommonComponents, build_config, main
from olmo_core.train.train_module import TransformerTrainModuleConfig

SEQUENCE_LENGTH = 4096
GLOBAL_BATCH_SIZE = 1024 * SEQUENCE_LENGTH


def build_train_module_config(common: CommonComponents) -> TransformerTrainModuleConfig:
    return TransformerTrainModuleConfig(
        rank_microbatch_size=16 * common.max_sequence_length,
        max_sequence_length=common.max_sequence_length,
        optim=None,
    )


if __name__ == "__main__":
    config_builder = partial(
        build_config,
        global_batch_size=GLOBAL_BATCH_SIZE,
        max_sequence_length=SEQUENCE_LENGTH,
        train_module_config_builder=build_train_module_config,
    )
    main(config_builder=config_builder)
