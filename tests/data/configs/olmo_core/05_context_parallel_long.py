# shape: src/scripts/train/OLMo2/OLMo2-7B-long-context.py ; assumed world: 64 GPUs, CP degree 8
from functools import partial

from olmo_core.distributed.parallel import DataParallelType
from olmo_core.internal.experiment import CommonComponents, build_config, main
from olmo_core.train.train_module import (
    TransformerContextParallelConfig,
    TransformerDataParallelConfig,
    TransformerTrainModuleConfig,
)

CONTEXT_LENGTH = 4 * 16_384
GLOBAL_BATCH_SIZE = 64 * CONTEXT_LENGTH


def build_train_module_config(common: CommonComponents) -> TransformerTrainModuleConfig:
    return TransformerTrainModuleConfig(
        rank_microbatch_size=common.max_sequence_length,
        max_sequence_length=common.max_sequence_length,
        optim=None,
        dp_config=TransformerDataParallelConfig(name=DataParallelType.hsdp),
        cp_config=TransformerContextParallelConfig.llama3(degree=8),
    )


if __name__ == "__main__":
    main(
        config_builder=partial(
            build_config,
            global_batch_size=GLOBAL_BATCH_SIZE,
            max_sequence_length=CONTEXT_LENGTH,
            train_module_config_builder=build_train_module_config,
        )
    )
