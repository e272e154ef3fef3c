#!/bin/bash
accelerate launch --num_processes 8 acc_own_trainer_class.py
