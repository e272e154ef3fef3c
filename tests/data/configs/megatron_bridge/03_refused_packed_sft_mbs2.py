# shape: llama3.py::llama3_8b_sft_2gpu_h100_bf16_config (_sft_common: offline packing on) ; world 2
import torch

from megatron.bridge import AutoBridge
from megatron.bridge.recipes.common import _pretrain_common, _sft_common
from megatron.bridge.training.config import ConfigContainer


def llama3_8b_sft_2gpu_h100_bf16_config(seq_length: int = 2048) -> ConfigContainer:
    cfg = _sft_common()
    cfg.model.seq_length = seq_length
    cfg.dataset.seq_length = seq_length
    cfg.dataset.offline_packing_specs.packed_sequence_size = seq_length
    cfg.model.tensor_model_parallel_size = 2
    cfg.model.pipeline_model_parallel_size = 1
    cfg.model.context_parallel_size = 1
    cfg.train.global_batch_size = 128
    cfg.train.micro_batch_size = 2
    return cfg
