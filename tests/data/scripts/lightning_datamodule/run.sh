python train.py --gpus 4 --batch-size 8
