accelerate launch --num_processes 4 train.py --gradient_accumulation_steps 4 --per_device_train_batch_size 16
