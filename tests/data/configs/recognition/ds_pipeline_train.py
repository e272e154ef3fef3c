"""Pipeline parallelism: DeepSpeed divides by the data-parallel world of the PipelineModule's topology (shaped like
DeepSpeedExamples' training/pipeline_parallelism/train.py)."""
import deepspeed
import torch
from deepspeed.pipe import PipelineModule

layers = [torch.nn.Linear(8, 8) for _ in range(4)]
model = PipelineModule(layers=layers, num_stages=2)
engine, _, _, _ = deepspeed.initialize(model=model, config="ds_args.json")
