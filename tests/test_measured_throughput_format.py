"""The measured throughput corpus (``tests/data/measured/throughput_*.toml``) keeps its shared format: every
reading names its source, how each key was read, one allowed metric and a positive value as published, so
that the time model is held against what real runs logged and never against a reading with a gap.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

FOLDER = Path(__file__).parent / "data" / "measured"
FILES = sorted(FOLDER.glob("throughput_*.toml"))
METRICS = frozenset({"tokens_per_second", "tokens_per_second_per_gpu", "tflops_per_gpu", "mfu", "step_seconds"})
REQUIRED = {"id": str, "command": str, "source": str, "date": str, "read": str, "metric": str, "value": float}
OPTIONAL = {"note": str}
MEMORY_ONLY = frozenset({"counter", "measured", "unit", "capacity_gib"})
#: The calculator's keys plus the ones added for the measured corpus (framework, attention, head_dim, net).
COMMAND_KEYS = frozenset(
    {
        *("b", "a", "B", "gpus", "d", "L", "gpu", "gpu_mem", "nodes", "dtype", "zero", "offload", "recompute"),
        *("tp", "pp", "cp", "sp", "ep", "vpp", "sequence_parallel", "distributed_optimizer"),
        *("layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "swiglu", "tied", "experts", "topk", "moe_ffn"),
        *("framework", "attention", "head_dim", "net"),
    }
)
CHOICES = {
    "framework": {"megatron", "deepspeed", "fsdp", "fsdp2", "torchtitan", "ddp", "huggingface"},
    "attention": {"flash", "eager", "triton"},
    "dtype": {"bf16", "fp16", "fp32", "fp8"},
    "recompute": {"none", "selective", "full"},
}
ID = re.compile(r"[a-z0-9][a-z0-9.\-]*")
DATE = re.compile(r"(19|20)[0-9]{2}(-(0[1-9]|1[0-2]))?(-[0-3][0-9])?")


def _load(path: Path) -> list[dict[str, Any]]:
    with path.open("rb") as handle:
        readings: list[dict[str, Any]] = tomllib.load(handle)["reading"]
    return readings


READINGS = [(path.name, reading) for path in FILES for reading in _load(path)]
BATCHES = [
    ("throughput_a.toml", 60, 60),
    ("throughput_b.toml", 40, 10_000),
    ("throughput_c.toml", 40, 10_000),
    ("throughput_d.toml", 40, 10_000),
    ("throughput_e.toml", 20, 10_000),
]


def _case_id(case: tuple[str, dict[str, Any]]) -> str:
    return str(case[1].get("id", case[0]))


@pytest.mark.parametrize(("name", "least", "most"), BATCHES)
def test_each_batch_holds_its_readings(name: str, least: int, most: int) -> None:
    """Batch a is frozen at the 60 readings the model was built against; held-out batches b-d hold at least 40 more
    each, batch e (written to the issue's floor of 20 from sources a-d never read) at least 20."""
    path = FOLDER / name
    assert path in FILES, f"{name} is missing"
    assert least <= len(_load(path)) <= most


def test_ids_are_unique_across_the_batches() -> None:
    """A reading's id names it in every batch and report, so no two readings share one."""
    ids = [reading["id"] for _, reading in READINGS]
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


@pytest.mark.parametrize("case", READINGS, ids=_case_id)
def test_a_reading_has_every_field_with_its_type(case: tuple[str, dict[str, Any]]) -> None:
    """Every reading carries id, command, source, date, read, metric and value, and nothing of a memory reading."""
    _, reading = case
    for field, kind in REQUIRED.items():
        assert isinstance(reading.get(field), kind), f"{field} missing or not {kind.__name__}"
    for field, kind in OPTIONAL.items():
        assert field not in reading or isinstance(reading[field], kind)
    assert set(reading) <= set(REQUIRED) | set(OPTIONAL), f"unknown fields {set(reading) - set(REQUIRED)}"
    assert not MEMORY_ONLY & set(reading)


@pytest.mark.parametrize("case", READINGS, ids=_case_id)
def test_a_reading_states_where_and_when_it_comes_from(case: tuple[str, dict[str, Any]]) -> None:
    """The source is an https address, the date a year or month as published, the id stable and lowercase."""
    _, reading = case
    assert reading["source"].startswith("https://")
    assert " " not in reading["source"]
    assert DATE.fullmatch(reading["date"])
    assert ID.fullmatch(reading["id"])
    assert len(reading["read"]) >= 40, "read says how each key was read"


@pytest.mark.parametrize("case", READINGS, ids=_case_id)
def test_the_metric_is_allowed_and_the_value_positive(case: tuple[str, dict[str, Any]]) -> None:
    """One of the allowed metrics, a finite positive value, and an MFU as a percentage of at most 100."""
    _, reading = case
    assert reading["metric"] in METRICS
    assert math.isfinite(reading["value"])
    assert reading["value"] > 0
    if reading["metric"] == "mfu":
        assert reading["value"] <= 100


@pytest.mark.parametrize("case", READINGS, ids=_case_id)
def test_the_command_uses_known_keys_only(case: tuple[str, dict[str, Any]]) -> None:
    """The command is a calculator input: an optional model name first, then key=value pairs with known keys."""
    _, reading = case
    words = reading["command"].split()
    pairs = [word.split("=", 1) for word in words if "=" in word]
    bare = [word for word in words if "=" not in word]
    assert bare in ([], words[:1]), f"only the model's name may stand without a key: {bare}"
    keys = [key for key, _ in pairs]
    assert sorted(set(keys) - COMMAND_KEYS) == []
    assert len(keys) == len(set(keys)), "a key given twice"
    for key, value in pairs:
        assert value, f"{key}= has no value"
        assert key not in CHOICES or value in CHOICES[key], f"{key}={value}"
    assert bare or {"layers", "hidden"} <= set(keys), "a model: its name or its shape"
    assert "gpus" in keys, "how many GPUs"
    assert "gpu" in keys, "which GPU"
