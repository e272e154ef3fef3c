"""A launch line's words bound as ``fire.Fire(train)`` binds them (``core/configs/read/python/fire_line.py``).

Each row's keywords are what fire 0.7's ``fire.Fire(train, command=argv)`` called ``train`` with, run in a
throwaway venv outside the repository on the signature below (fire is no dependency of effbatch); None: fire
exits (``Could not consume arg``, an ambiguous single-letter flag).
"""

from __future__ import annotations

import ast

import pytest

from effbatch.core.configs import Source, World, check_config
from effbatch.core.configs.read.python.fire_line import fire_keywords

TRAIN = (
    "def train(base_model: str = '', batch_size: int = 128, micro_batch_size: int = 4, lora_target_modules=None,\n"
    "          train_on_inputs: bool = True, group_by_length: bool = False):\n    pass\n"
)
PARAMETERS = next(n for n in ast.parse(TRAIN).body if isinstance(n, ast.FunctionDef)).args

# (argv, the keywords fire passes)
ROWS = [
    (["--micro_batch_size", "128", "--batch_size=64"], {"micro_batch_size": 128, "batch_size": 64}),
    (["--micro-batch-size", "8"], {"micro_batch_size": 8}),  # '-' in a flag's name is '_'
    # a bare word list is a list of strings; a flag before a flag (or last) is True
    (
        ["--lora_target_modules", "[q_proj,k_proj]", "--group_by_length"],
        {"lora_target_modules": ["q_proj", "k_proj"], "group_by_length": True},
    ),
    (["--nogroup_by_length", "--train_on_inputs", "False"], {"group_by_length": False, "train_on_inputs": False}),
    (["llama-7b", "32"], {"base_model": "llama-7b", "batch_size": 32}),  # words fill the parameters in order
    (["--batch_size", "1e-4"], {"batch_size": 0.0001}),
    (["--batch_size", "-3"], {"batch_size": -3}),  # a negative number is a value, not a flag
    (["--unknown", "3"], None),  # Could not consume arg
    (["-b", "3"], None),  # ambiguous: base_model or batch_size
]


@pytest.mark.parametrize(("argv", "keywords"), ROWS, ids=[" ".join(argv) for argv, _ in ROWS])
def test_fire_binds_a_command_line_as_fire_does(argv: list[str], keywords: dict[str, object] | None) -> None:
    """Flags by name (``=`` or the next word, alone ``True``/``--no…`` ``False``), other words by position."""
    assert fire_keywords(PARAMETERS, argv) == keywords


SCRIPT = (
    "import os\nimport fire\nfrom transformers import TrainingArguments\n\n"
    "def train(batch_size: int = 128, micro_batch_size: int = 4):\n"
    "    gradient_accumulation_steps = batch_size // micro_batch_size\n"
    "    world_size = int(os.environ.get('WORLD_SIZE', 1))\n"
    "    if world_size != 1:\n        gradient_accumulation_steps = gradient_accumulation_steps // world_size\n"
    "    TrainingArguments(output_dir='o', per_device_train_batch_size=micro_batch_size,\n"
    "                      gradient_accumulation_steps=gradient_accumulation_steps)\n\n"
    "if __name__ == '__main__':\n    fire.Fire(train)\n"
)


def test_a_fire_script_trains_with_its_launch_lines_flags() -> None:
    """alpaca-lora's shape: ``python finetune.py --micro_batch_size 8 --batch_size 64`` trains micro 8 x 8, not
    train()'s defaults (4 x 32); the numbers are the script's own lines with fire's keywords."""
    launch = Source("run.sh", "python finetune.py --micro_batch_size 8 --batch_size 64\n")
    check = check_config([launch, Source("finetune.py", SCRIPT)], World(1, "--world-size 1"))
    assert (check.micro_batch, check.accumulation, check.global_batch) == (8, 8, 64)
