#!/bin/bash
deepspeed --num_gpus 8 ds_two_configs_train.py --deepspeed_config ds_args.json
