#!/bin/bash
# effbatch fixture in the shape of a NeMo 1 Slurm launch (srun … bash -c "python megatron_gpt_pretraining.py key=value …"):
# the overrides set every batch key; the config YAML the script reads is not among the files.
#SBATCH --gpus-per-node=8
#SBATCH --ntasks-per-node=8
#SBATCH --nodes=1

srun --container-image nvcr.io/nvidia/nemo:24.05 bash -c "cd /opt/NeMo;
  CUDA_DEVICE_MAX_CONNECTIONS=1 python3 -u /opt/NeMo/examples/nlp/language_modeling/megatron_gpt_pretraining.py \
    trainer.num_nodes=1 \
    trainer.devices=8 \
    model.tensor_model_parallel_size=1 \
    model.pipeline_model_parallel_size=4 \
    model.global_batch_size=4 \
    model.micro_batch_size=1 \
    +trainer.num_sanity_val_steps=0"
