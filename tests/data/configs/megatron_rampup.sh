torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 2 --global-batch-size 256 --seq-length 2048 --rampup-batch-size 32 32 7000
