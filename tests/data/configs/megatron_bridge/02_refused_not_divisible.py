# shape: llama3.py pretrain recipe ; world 16 (from the name)
import torch

from megatron.bridge import AutoBridge
from megatron.bridge.recipes.common import _pretrain_common, _sft_common
from megatron.bridge.training.config import ConfigContainer


def llama32_1b_pretrain_16gpu_h100_bf16_config() -> ConfigContainer:
    cfg = _pretrain_common()
    cfg.dataset.seq_length = 4096
    cfg.model.tensor_model_parallel_size = 1
    cfg.model.pipeline_model_parallel_size = 1
    cfg.model.context_parallel_size = 1
    cfg.model.seq_length = 4096
    cfg.train.global_batch_size = 100
    cfg.train.micro_batch_size = 2
    return cfg
