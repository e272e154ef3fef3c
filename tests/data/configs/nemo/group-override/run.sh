#!/bin/bash
# effbatch fixture: a Hydra group override on a NeMo 1 launch line, composed with hydra-core 1.3.2
python megatron_gpt_pretraining.py --config-name main cluster=one_node model.micro_batch_size=4
