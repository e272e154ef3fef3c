accelerate launch --num_processes 4 sft.py
