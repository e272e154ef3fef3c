# shape: a recipe that only sets the model: everything from _pretrain_common (gbs 32, mbs 2, seq 4096) ; world 8 (no gpu count in name)
import torch

from megatron.bridge import AutoBridge
from megatron.bridge.recipes.common import _pretrain_common, _sft_common
from megatron.bridge.training.config import ConfigContainer


def my_model_pretrain_config() -> ConfigContainer:
    cfg = _pretrain_common()
    cfg.model = AutoBridge.from_hf_pretrained("Qwen/Qwen3-1.7B").to_megatron_provider(load_weights=False)
    return cfg
