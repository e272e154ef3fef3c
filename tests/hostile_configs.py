"""Pasted configs that took a bot worker minutes or gigabytes, for the hardening test and make bench; and configs
with values no run can use (zero, negative, degrees above the GPUs), which must get an answer, never a traceback."""

from __future__ import annotations

import re
from collections.abc import Iterator

#: Pasted configs that took a worker minutes or gigabytes (as measured), each a few hundred bytes
#: to 60 KB: a shell variable doubled 40 times (4 GB), an array doubled 30 times (1 GB, 60 s), a Megatron
#: ramp-up to a global batch of 10¹² (4 GB), 20.000 blank lines before a key (format detection), a Python
#: config of unknown names (quadratic source segments).
HOSTILE_CHECKS = {
    "variable doubled": "A=x\n"
    + 'A="$A$A"\n' * 40
    + "torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size $A\n",
    "array doubled": "A=(x)\n"
    + 'A=("${A[@]}" "${A[@]}")\n' * 30
    + "torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 1 --global-batch-size 64\n",
    "ramp-up to 10^12": "torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 1 "
    "--global-batch-size 1000000000000 --rampup-batch-size 1 1 1000000000000\n",
    "blank lines": "\n" * 20_000 + "micro_batch_size: 1\n",
    "unknown names": "\n".join(f"n{i} = u{i}" for i in range(1500)) + "\nbatch_size = 8\n",
}


#: Values a config may hold that no run can use: zero, negative, and degrees above any cluster's GPUs.
HOSTILE_NUMBERS = ("0", "-1", "64")
#: Integers of a file this test changes, at most (its first ones: batch sizes and degrees stand early).
MAX_CHANGED = 40
_INTEGER = re.compile(r"(?<![\w.$-])\d+(?![\w.])")


def hostile_values(text: str) -> Iterator[str]:
    """``text`` once for each of its integers (outside comments) and each hostile number written in its place."""
    changed = 0
    for match in _INTEGER.finditer(text):
        line = text[text.rfind("\n", 0, match.start()) + 1 : match.start()]
        if line.lstrip().startswith(("#", "//")) or changed >= MAX_CHANGED:
            continue
        changed += 1
        for number in HOSTILE_NUMBERS:
            yield text[: match.start()] + number + text[match.end() :]


#: Layouts whose model-parallel degrees (or nodes) exceed the GPUs the run has, each with the world size given.
ABOVE_THE_GPUS: dict[str, tuple[str, str, int | None]] = {
    "LitGPT: more nodes than processes": (
        "l.yaml",
        "out_dir: out\ndevices: 8\nnum_nodes: 4\ntrain:\n  global_batch_size: 512\n  micro_batch_size: 4\n",
        2,
    ),
    "OpenRLHF: ring attention × TP above the actor's GPUs": (
        "run.sh",
        "python3 -m openrlhf.cli.train_ppo_ray --actor.num_nodes 1 --actor.num_gpus_per_node 2 "
        "--ds.ring_attn_size 2 --ds.tensor_parallel_size 2 --vllm.num_engines 1\n",
        None,
    ),
    "verl: Ulysses SP 2 on one GPU": (
        "run.sh",
        "python3 -m verl.trainer.main_ppo data.train_batch_size=64 actor_rollout_ref.actor.ppo_mini_batch_size=16 "
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 actor_rollout_ref.model.use_remove_padding=True "
        "actor_rollout_ref.actor.ulysses_sequence_parallel_size=2 trainer.n_gpus_per_node=1\n",
        None,
    ),
    "verl: Megatron TP · PP above the GPUs, dynamic batch": (
        "run.sh",
        "python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer data.train_batch_size=64 "
        "actor_rollout_ref.actor.ppo_mini_batch_size=16 actor_rollout_ref.actor.use_dynamic_bsz=True "
        "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4 "
        "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=4 trainer.n_gpus_per_node=8\n",
        None,
    ),
    "MaxText: a zero tensor axis": (
        "run.sh",
        "python3 -m MaxText.train MaxText/configs/base.yml ici_tensor_parallelism=0 ici_fsdp_parallelism=-1\n",
        8,
    ),
    "MaxText: zero pipeline micro-batches": (
        "run.sh",
        "python3 -m MaxText.train MaxText/configs/base.yml ici_pipeline_parallelism=2 num_pipeline_microbatches=0\n",
        8,
    ),
}
