"""effbatch in a terminal, as its user reads it: the keys it takes, its help, its German."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.serving.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def json_of(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run(capsys, "--json", *args)
    assert code == 0, (out, err)
    answer: dict[str, Any] = json.loads(out)
    return answer


# (command, what the JSON answer holds): the frameworks' own key names, read as ours.
FRAMEWORK_KEY_CASES = [
    # Megatron-LM / NeMo: micro_batch_size, global_batch_size, seq_length
    ("micro_batch_size=2 gpus=64 global_batch_size=256 seq_length=2048", {"accumulation": 2, "seq_len": 2048}),
    # Hugging Face Trainer: per_device_train_batch_size, gradient_accumulation_steps
    ("per_device_train_batch_size=8 d=64 gradient_accumulation_steps=4", {"global_batch": 2048}),
    # DeepSpeed: train_micro_batch_size_per_gpu, train_batch_size (the global one)
    ("train_micro_batch_size_per_gpu=4 world_size=8 train_batch_size=256", {"accumulation": 8}),
    # torchtitan / OLMo max_seq_len, LLaMA-Factory cutoff_len
    ("8 64 4 max_seq_len=4096", {"tokens_per_step": 8388608}),
    ("8 64 4 cutoff_len=4k", {"tokens_per_step": 8388608}),
]


@pytest.mark.parametrize(("command", "expected"), FRAMEWORK_KEY_CASES)
def test_framework_key_names(capsys: pytest.CaptureFixture[str], command: str, expected: dict[str, int]) -> None:
    """A value copied from a config keeps its framework's name and means the same."""
    answer = json_of(capsys, *command.split())
    assert {key: answer[key] for key in expected} == expected


@pytest.mark.parametrize(
    "budget",
    [["budget=2", "Billionen"], ["budget=2", "Bio."], ["budget=2Bio."], ["budget=2Bio"], ["budget", "=", "2", "bio"]],
)
def test_budget_in_german_words(capsys: pytest.CaptureFixture[str], budget: list[str]) -> None:
    """„2 Billionen“ and „2 Bio.“ are 2 · 10¹² tokens: 238.419 steps of 8.388.608 tokens."""
    answer = json_of(capsys, "8", "64", "4", "4096", *budget)
    assert answer["optimizer_steps"] == 238419
