# shape: NVIDIA/NeMo nemo/collections/llm/recipes/llama3_70b.py (trainer defaults TP4 PP4 CP2, num_nodes 4; pretrain_recipe num_nodes=1 overrides) ; world = 1 x 8
from typing import Optional

import nemo_run as run
import torch
from nemo import lightning as nl
from nemo.collections.llm.api import pretrain
from nemo.collections.llm.gpt.data.mock import MockDataModule


def trainer(
    tensor_parallelism: int = 4,
    pipeline_parallelism: int = 4,
    pipeline_parallelism_type: Optional[torch.dtype] = None,
    virtual_pipeline_parallelism: Optional[int] = None,
    context_parallelism: int = 2,
    sequence_parallelism: bool = False,
    num_nodes: int = 4,
    num_gpus_per_node: int = 8,
    max_steps: int = 1168251,
) -> run.Config[nl.Trainer]:
    strategy = run.Config(
        nl.MegatronStrategy,
        tensor_model_parallel_size=tensor_parallelism,
        pipeline_model_parallel_size=pipeline_parallelism,
        context_parallel_size=context_parallelism,
        sequence_parallel=sequence_parallelism,
    )
    return run.Config(
        nl.Trainer,
        accelerator="gpu",
        accumulate_grad_batches=1,
        devices=num_gpus_per_node,
        max_steps=max_steps,
        num_nodes=num_nodes,
        strategy=strategy,
        use_distributed_sampler=False,
    )


@run.cli.factory(target=pretrain, name="llama3_8b")
def pretrain_recipe(dir: Optional[str] = None, name: str = "default", num_nodes: int = 1, num_gpus_per_node: int = 8) -> run.Partial:
    return run.Partial(
        pretrain,
        trainer=trainer(num_nodes=num_nodes, num_gpus_per_node=num_gpus_per_node),
        data=run.Config(MockDataModule, seq_length=8192, global_batch_size=512, micro_batch_size=1),
    )
