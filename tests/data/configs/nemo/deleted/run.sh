#!/bin/bash
# effbatch fixture: a Hydra delete override on a NeMo 1 launch line, composed with hydra-core 1.3.2
torchrun --nproc_per_node 8 megatron_gpt_pretraining.py -cn main '~model.global_batch_size'
