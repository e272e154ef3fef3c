# shape: pretrain recipe + cfg.train.decrease_batch_size_if_needed ; world 16 ; eval batch set separately
import torch

from megatron.bridge import AutoBridge
from megatron.bridge.recipes.common import _pretrain_common, _sft_common
from megatron.bridge.training.config import ConfigContainer


def llama32_1b_pretrain_16gpu_h100_bf16_config() -> ConfigContainer:
    cfg = _pretrain_common()
    cfg.dataset.seq_length = 4096
    cfg.model.seq_length = 4096
    cfg.train.global_batch_size = 100
    cfg.train.micro_batch_size = 2
    cfg.train.decrease_batch_size_if_needed = True
    cfg.validation.eval_global_batch_size = 32
    return cfg
