# shape: llama3.py::llama3_8b_pretrain_16gpu_h100_bf16_16k_config ; world 16
import torch

from megatron.bridge import AutoBridge
from megatron.bridge.recipes.common import _pretrain_common, _sft_common
from megatron.bridge.training.config import ConfigContainer

SEQUENCE_LENGTH_16K: int = 16384


def llama3_8b_pretrain_16gpu_h100_bf16_16k_config() -> ConfigContainer:
    cfg = _pretrain_common()
    cfg.dataset.seq_length = SEQUENCE_LENGTH_16K
    cfg.model.tensor_model_parallel_size = 4
    cfg.model.pipeline_model_parallel_size = 2
    cfg.model.context_parallel_size = 2
    cfg.model.seq_length = SEQUENCE_LENGTH_16K
    cfg.train.global_batch_size = 512
    cfg.train.micro_batch_size = 1
    return cfg
