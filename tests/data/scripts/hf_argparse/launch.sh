torchrun --nproc_per_node 4 train.py --batch_size 16
