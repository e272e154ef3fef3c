# shape: llama3.py 64k recipe with an odd seq_length ; world 32
import torch

from megatron.bridge import AutoBridge
from megatron.bridge.recipes.common import _pretrain_common, _sft_common
from megatron.bridge.training.config import ConfigContainer


def llama3_8b_pretrain_32gpu_h100_bf16_64k_config() -> ConfigContainer:
    cfg = _pretrain_common()
    cfg.dataset.seq_length = 65530
    cfg.model.tensor_model_parallel_size = 4
    cfg.model.pipeline_model_parallel_size = 2
    cfg.model.context_parallel_size = 4
    cfg.model.seq_length = 65530
    cfg.train.global_batch_size = 512
    cfg.train.micro_batch_size = 1
    return cfg
