#!/bin/bash
# effbatch fixture shaped like MaxText docs/run scripts (AI-Hypercomputer/maxtext@e591f30)
# effbatch-world: 8 chips, 1 slice(s)  (v5e-8; pipeline microbatches)
python3 -m maxtext.trainers.pre_train.train src/maxtext/configs/base.yml run_name=$RUN_NAME dataset_type=synthetic steps=100 per_device_batch_size=0.5 ici_pipeline_parallelism=4 num_pipeline_microbatches=8 num_layers_per_pipeline_stage=1
