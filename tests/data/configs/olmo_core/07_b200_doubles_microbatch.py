# shape: src/scripts/train/OLMo2/OLMo2-7B.py (cluster-dependent rank_microbatch_size) ; assumed world: 64 and 512 GPUs
from functools import partial

from olmo_core.internal.common import CLUSTER_TO_GPU_TYPE
from olmo_core.internal.experiment import CommonComponents, build_config, main
from olmo_core.train.train_module import TransformerTrainModuleConfig

SEQUENCE_LENGTH = 4096
GLOBAL_BATCH_SIZE = 1024 * SEQUENCE_LENGTH


def build_train_module_config(common: CommonComponents) -> TransformerTrainModuleConfig:
    rank_microbatch_size = 2 * common.max_sequence_length
    if common.launch is not None:
        gpus = {CLUSTER_TO_GPU_TYPE.get(c, "unknown") for c in common.launch.clusters}
        if all("B200" in g for g in gpus):
            rank_microbatch_size *= 2

    return TransformerTrainModuleConfig(
        rank_microbatch_size=rank_microbatch_size,
        max_sequence_length=common.max_sequence_length,
        optim=None,
    )


if __name__ == "__main__":
    main(
        config_builder=partial(
            build_config,
            global_batch_size=GLOBAL_BATCH_SIZE,
            max_sequence_length=SEQUENCE_LENGTH,
            train_module_config_builder=build_train_module_config,
        )
    )
