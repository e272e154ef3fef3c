#!/bin/bash
# In the shape of Megatron-LM's examples/gpt3/train_gpt3_175b_distributed.sh
GPUS_PER_NODE=${GPUS_PER_NODE:-8}
NUM_NODES=${NUM_NODES:-4}
TP=4
PP=2
MBS=1
GBS=$((MBS * 4 * 32))   # 128

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
)
MODEL_ARGS=(
    --num-layers 24
    --seq-length 2048   # the context
)
TRAINING_ARGS=(
    --micro-batch-size $MBS
    --global-batch-size $GBS
)
TRAINING_ARGS+=(--train-iters 500000)
PARALLEL_ARGS="--tensor-model-parallel-size ${TP} \
  --pipeline-model-parallel-size ${PP}"
PARALLEL_ARGS+=" --sequence-parallel"

torchrun "${DISTRIBUTED_ARGS[@]}" pretrain_gpt.py \
    "${MODEL_ARGS[@]}" \
    "${TRAINING_ARGS[@]}" \
    $PARALLEL_ARGS
