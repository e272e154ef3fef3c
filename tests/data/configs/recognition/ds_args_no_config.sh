#!/bin/bash
deepspeed --num_gpus 8 ds_args_train.py --deepspeed
