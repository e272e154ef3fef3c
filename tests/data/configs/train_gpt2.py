# In the shape of nanoGPT's config/train_gpt2.py: 12 * 1024 * 40 tokens a step on 8 GPUs
wandb_log = True
batch_size = 12
block_size = 1024
gradient_accumulation_steps = 5 * 8
max_iters = 600000
