"""Launch scripts checked as bash runs them: the batch ``check_config`` answers follows bash's reading of the lines.

Each row's launch line is run by real bash in ``test_shell_bash.py`` (its words); here the check on top of it:
Megatron's defaults (micro batch 1) where bash never hands the flag on, the launcher's world from flags in a variable.
"""

from __future__ import annotations

import pytest
from check_numbers import numbers

from effbatch.core.configs import CheckError, ProblemKind, Source, check_config

TRAIN = "NNODES=$1\nGPUS=$2\nMB=$[ 64 / GPUS / NNODES ]\n"
TRAIN += (
    "torchrun --nnodes $NNODES --nproc_per_node $GPUS pretrain_gpt.py --micro-batch-size $MB --global-batch-size 512\n"
)

# (sources, (world, data parallel, micro batch, accumulation, global batch), why)
CASES = [
    (
        {
            "run.sh": "torchrun --nproc_per_node 8 pretrain_gpt.py --global-batch-size 256 \\\n"
            "  # --rampup-batch-size 16 16 1000 \\\n  --micro-batch-size 4\n"
        },
        (8, 8, 1, 32, 256),
        # the comment ends the command: --micro-batch-size 4 never reaches Megatron, whose default is 1
    ),
    (
        {
            "run.sh": "torchrun --nproc_per_node 8 pretrain_gpt.py --port <your_port> --micro-batch-size 4 "
            "--global-batch-size 256\n"
        },
        (8, 8, 1, 32, 256),
        # ``<your_port>``: input from your_port, output into a file named --micro-batch-size; 4 becomes --port's
    ),
    (
        {"run.sh": "bash train.sh 2 8\n", "train.sh": TRAIN},
        (16, 16, 4, 8, 512),
        # the caller's words are train.sh's $1 and $2: 2 nodes of 8, $[ 64 / 8 / 2 ] = 4
    ),
    (
        {
            "run.sh": 'ARGS="--nproc_per_node=4 --nnodes=2"\n'
            "python -m torch.distributed.launch $ARGS pretrain_gpt.py --micro-batch-size 4 --global-batch-size 256\n"
        },
        (8, 8, 4, 8, 256),
        # unquoted $ARGS splits into the launcher's flags: 2 nodes × 4 processes
    ),
    (
        {
            "run.sh": "deepspeed --num_gpus=4 main.py --deepspeed ds.json\n",
            "ds.json": '{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}',
        },
        (4, 4, 4, 2, 32),
        # deepspeed's runner: --num_gpus processes on the one node
    ),
]


@pytest.mark.parametrize(
    ("sources", "expected"), CASES, ids=["comment", "redirect", "arguments", "launch", "deepspeed"]
)
def test_the_batch_is_the_one_bash_starts(sources: dict[str, str], expected: tuple[int, ...]) -> None:
    """The check's world, micro batch, accumulation and global batch are those of the lines as bash runs them."""
    check = check_config([Source(name, text) for name, text in sources.items()])
    assert numbers(check)[:5] == expected


def test_a_called_script_without_its_words_stays_undecided() -> None:
    """``bash train.sh $NODES 8``: a word only the run knows, so train.sh's ``$1`` is not invented; the value built
    from it is named undecided (exit 2), never computed from a guess."""
    sources = [Source("run.sh", "bash train.sh $NODES 8\n"), Source("train.sh", TRAIN)]
    with pytest.raises(CheckError) as raised:
        check_config(sources)
    assert raised.value.kind is ProblemKind.BAD_VALUE
    assert raised.value.ctx["key"] == "--micro-batch-size"
