# shape: src/megatron/bridge/recipes/llama/h100/llama3.py::llama3_8b_pretrain_2gpu_h100_bf16_config ; world 2 (from the name)
import torch

from megatron.bridge import AutoBridge
from megatron.bridge.recipes.common import _pretrain_common, _sft_common
from megatron.bridge.training.config import ConfigContainer


def llama3_8b_pretrain_2gpu_h100_bf16_config() -> ConfigContainer:
    cfg = _pretrain_common()
    cfg.model = AutoBridge.from_hf_pretrained("meta-llama/Meta-Llama-3-8B").get_model_config()
    cfg.dataset.seq_length = 8192
    cfg.model.tensor_model_parallel_size = 1
    cfg.model.pipeline_model_parallel_size = 1
    cfg.model.context_parallel_size = 2
    cfg.model.seq_length = 8192
    cfg.train.train_iters = 1168251
    cfg.train.global_batch_size = 512
    cfg.train.micro_batch_size = 1
    return cfg
