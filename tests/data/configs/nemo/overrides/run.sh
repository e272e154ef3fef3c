#!/bin/bash
# effbatch fixture: a NeMo 1 launch line with Hydra overrides, composed with hydra-core 1.3.2
GBS=256
python examples/nlp/language_modeling/megatron_gpt_pretraining.py --config-name=main \
    ++model.global_batch_size=$GBS trainer.num_nodes=2 +model.data.seq_length=1024
