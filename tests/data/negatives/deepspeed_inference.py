"""Inference with DeepSpeed's kernels (shaped like DeepSpeedExamples' inference/huggingface/text-generation):
``deepspeed.init_inference`` shards a model for generation; there is no training batch to check."""
import os

import deepspeed
import torch
from transformers import AutoModelForCausalLM

world_size = int(os.getenv("WORLD_SIZE", "1"))
model = AutoModelForCausalLM.from_pretrained("gpt2")
engine = deepspeed.init_inference(model, tensor_parallel={"tp_size": world_size}, dtype=torch.float16)
print(engine.module.generate(torch.tensor([[1, 2, 3]]), max_new_tokens=20))
