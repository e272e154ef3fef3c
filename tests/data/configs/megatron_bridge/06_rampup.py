# shape: pretrain recipe + cfg.train.rampup_batch_size ; world 16
import torch

from megatron.bridge import AutoBridge
from megatron.bridge.recipes.common import _pretrain_common, _sft_common
from megatron.bridge.training.config import ConfigContainer


def gpt_1b_pretrain_16gpu_h100_bf16_config() -> ConfigContainer:
    cfg = _pretrain_common()
    cfg.dataset.seq_length = 4096
    cfg.train.global_batch_size = 1024
    cfg.train.micro_batch_size = 2
    cfg.train.rampup_batch_size = [64, 64, 100000]
    return cfg
