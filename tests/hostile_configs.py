"""Pasted configs that took a bot worker minutes or gigabytes (issue 19), for the hardening test and make bench."""

from __future__ import annotations

#: Pasted configs that took a worker minutes or gigabytes (issue 19's measurements), each a few hundred bytes
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
