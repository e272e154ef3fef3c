"""Inputs as large as the limits allow, for every kind of answer: each must reach Slack whole.

Every number is at its argument's upper bound (``core/arguments.py``), every text at the command's cap of 2.000
characters (``core/parser.py``, ``MAX_COMMAND_TEXT``), and the configs are the shapes that made long findings:
Nanotron's strict reader names every unknown key in one message (110 of them were measured, one finding
over 3.000 characters), TrlParser names every unknown argument, and a pasted text may hold hundreds of code
blocks.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "configs"

#: The bounds of core/arguments.py: b, a ≤ 2¹⁶, d ≤ 2²⁰, L and GPUs ≤ 2²⁴, TP … ≤ 2¹², B ≤ 2⁵², act ≤ 2⁵⁰ bytes,
#: budget ≤ 10¹⁸, N ≤ 10¹⁵; prompts, mini ≤ 2²⁴, n ≤ 2¹⁶, epochs ≤ 2¹².
AT_BOUNDS = "b=65536 d=1048576 a=65536 L=16777216"


def nanotron_unknown_keys(count: int = 110) -> str:
    """The issue's Nanotron YAML: examples/config_tiny_llama.yaml's shape (tests/data/configs/nanotron/06) with
    ``count`` keys under ``parallelism:`` that Nanotron's dacite reading refuses, all named in one message."""
    config = (DATA / "nanotron" / "06_refused_unknown_key.yaml").read_text()
    unknown = "".join(f"  unknown_key_number_{i:03d}: {i}\n" for i in range(count))
    return config.replace("parallelism:\n", "parallelism:\n" + unknown, 1)


def trl_unknown_arguments(count: int = 300) -> str:
    """An SFT launch line, its accelerate config and a YAML with ``count`` misspelt batch keys: TrlParser refuses
    every one and names them all (tests/data/configs/trl/sft: script_line.sh, deepspeed_zero3.yaml and
    02_packing_zero3_in_yaml.yaml, the NOTES.md refusal 2)."""
    sft = DATA / "trl" / "sft"
    keys = "".join(f"per_device_batch_size_{i}: 8\n" for i in range(count))
    files = [sft / "script_line.sh", sft / "deepspeed_zero3.yaml"]
    blocks = [path.read_text() for path in files] + [(sft / "02_packing_zero3_in_yaml.yaml").read_text() + keys]
    return "\n".join(f"```\n{block}\n```" for block in blocks)


def many_code_blocks(count: int = 300) -> str:
    """A pasted text of ``count`` YAML code blocks none of which is a training config: the refusal names where it
    looked."""
    return "\n".join(f"```\nnotiz_{i}: 1\n```" for i in range(count))


#: One command of every kind, each as hostile as the grammar allows (a comment says what makes it so).
COMMANDS = {
    "calculation at every bound": f"{AT_BOUNDS} budget=1000000000000000000 act=1024TiB params=1000000000000000",
    "model parallel at every bound": "gpus=16777216 tp=4096 pp=4096 cp=1 sp=1 b=65536 a=65536 L=16Mi",
    "solved for, at the bound": "gpus=16777216 tp=4096 b=1 B=4503599627370496 L=16Mi",
    "not reachable": "b=3 d=8 B=2000 L=16Mi",
    "rollout at every bound": "prompts=16Mi n=65536 mini=16Mi b=65536 gpus=16Mi epochs=4096 L=16Mi",
    "guidance alone at the bounds": "params=1000000000000000 budget=1000000000000000000 L=16777216",
    "guidance alone, smallest": "params=1 budget=1 L=1",
    "comparison across the bounds": f"{AT_BOUNDS} vs b=1 d=1 a=1 L=1 lr=10",
    "comparison with a run": f"{AT_BOUNDS} vs deepseek-v3 lr=0,0000000000000000000001",
    "published runs": "läufe",
    "published runs, a filter of 1.900 characters": "läufe " + "x" * 1900,
    "help": "hilfe",
    "help on keys": "hilfe schlüssel",
    "help on checks": "hilfe prüfe",
    "help on an unknown topic of 1.900 characters": "hilfe " + "ä" * 1900,
    "a thousand stray values": "b=8 " + "1 " * 997,  # each quoted once: the problem lists three and counts the rest
    "sixty unknown keys of 30 characters": " ".join(f"{'k' * 30}{i}=1" for i in range(60)),
    "one word of 2.000 characters": "ä" * 2000,
    "a thousand values too many": "1 " * 999,
    "the command over its cap": "8 64 4 " + "9" * 6000,
    "a check of the issue's Nanotron YAML": f"prüfe gpus=8 ```\n{nanotron_unknown_keys()}```",
    "a check refusing 300 arguments": "prüfe gpus=8 " + trl_unknown_arguments(),
    "a check of 300 code blocks": "prüfe " + many_code_blocks(),
    "a check of one value of 10.000 characters": "prüfe gpus=8 ```\nmicro_batch_size: " + "9" * 10_000 + "\n```",
}
