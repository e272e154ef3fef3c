"""Configs just under the 64 KiB cap for pasted text, one per format, in the shape real ones grow.

Used by the tests (answered correctly) and by ``make bench`` (how long a check takes).
"""

from __future__ import annotations

import json

from effbatch.core.configs import MAX_CONFIG_BYTES, Source


def _fill(head: str, line: str, tail: str = "") -> str:
    """``head``, then numbered copies of ``line`` until the text is just under the cap, then ``tail``."""
    parts, size, index = [head], len(head) + len(tail), 0
    while size + len(line) + 8 < MAX_CONFIG_BYTES:
        parts.append(line.format(index))
        size += len(parts[-1])
        index += 1
    return "".join(parts) + tail


def large_configs() -> dict[str, Source]:
    """A Megatron launch script, an OLMo YAML with a long data list, a DeepSpeed JSON, a torchtitan TOML."""
    megatron = _fill(
        "#!/bin/bash\nGPUS_PER_NODE=8\nNNODES=4\nTP=4\nPP=2\nMBS=1\nGBS=$((MBS * 4 * 32))\nDATA=(\n",
        "  /data/shard_{0:05d}_text_document\n",
        ")\ntorchrun --nnodes $NNODES --nproc-per-node $GPUS_PER_NODE pretrain_gpt.py "
        "--tensor-model-parallel-size $TP --pipeline-model-parallel-size $PP --micro-batch-size $MBS "
        '--global-batch-size $GBS --seq-length 4096 --data-path "${DATA[@]}"\n',
    )
    olmo = _fill(
        "run_name: OLMo-7B\nmodel:\n  max_sequence_length: 4096\nglobal_train_batch_size: 1024\n"
        "device_train_microbatch_size: 4\ndata:\n  paths:\n",
        "    - s3://ai2-llm/preprocessed/part-{0:05d}-00000.npy\n",
    )
    layers = [{"name": f"layer_{n}", "ratio": 0.5, "modules": ["attention", "mlp"]} for n in range(2000)]
    batch = {"train_batch_size": 256, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8}
    deepspeed = json.dumps({**batch, "compression_training": {"layers": layers}}, indent=1)
    while len(deepspeed.encode()) > MAX_CONFIG_BYTES:
        layers = layers[:-20]
        deepspeed = json.dumps({**batch, "compression_training": {"layers": layers}}, indent=1)
    torchtitan = _fill(
        "[training]\nlocal_batch_size = 8\nglobal_batch_size = 128\nseq_len = 8192\n"
        "[parallelism]\ndata_parallel_shard_degree = -1\ntensor_parallel_degree = 2\n[extra]\n",
        'option_{0:05d} = "a value that is not a batch setting"\n',
    )
    return {
        "megatron": Source("train.sh", megatron),
        "olmo": Source("OLMo-7B.yaml", olmo),
        "deepspeed": Source("ds_config.json", deepspeed),
        "torchtitan": Source("llama3_8b.toml", torchtitan),
    }
