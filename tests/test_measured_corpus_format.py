"""The measured corpus's shape: every reading in tests/data/measured/ says what was measured, on what, and where.

Only the format is held here (fields, allowed values, sources); how close effbatch comes to the readings is tested
elsewhere. The format is described in tests/data/measured/README.md.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

MEASURED = Path(__file__).parent / "data" / "measured"
MEMORY_FILES = sorted(MEASURED.glob("memory_*.toml"))
THROUGHPUT_FILES = sorted(MEASURED.glob("throughput_*.toml"))

COUNTERS = frozenset({"max_allocated", "max_reserved", "nvidia_smi", "oom", "ran"})
NO_PEAK = frozenset({"oom", "ran"})
UNITS = frozenset({"GiB", "GB"})
METRICS = frozenset({"tokens_per_second", "tokens_per_second_per_gpu", "tflops_per_gpu", "mfu", "step_seconds"})
FRAMEWORKS = frozenset(
    {"megatron", "deepspeed", "fsdp", "fsdp2", "torchtitan", "ddp", "huggingface", "lightning", "olmo_core"}
)
COMMON = ("id", "command", "source", "date", "read")
ID = re.compile(r"[a-z0-9][a-z0-9.\-]*")
DATE = re.compile(r"\d{4}-\d{2}(-\d{2})?")
KEY = re.compile(r"([a-z_]+)=(\S+)")


def _readings(paths: list[Path]) -> list[tuple[str, dict[str, Any]]]:
    rows: list[tuple[str, dict[str, Any]]] = []
    for path in paths:
        with path.open("rb") as handle:
            rows += [(f"{path.name}:{row.get('id', '?')}", row) for row in tomllib.load(handle)["reading"]]
    return rows


MEMORY = _readings(MEMORY_FILES)
THROUGHPUT = _readings(THROUGHPUT_FILES)
EVERY = MEMORY + THROUGHPUT


def _ids(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [name for name, _ in rows]


def test_the_memory_batches_are_found() -> None:
    """Batch a holds at least 45 memory readings and all batches together at least 80, so no rule below passes
    empty and the corpus keeps its promised size."""
    assert (len(_readings([MEASURED / "memory_a.toml"])) >= 45, len(MEMORY) >= 80) == (True, True)


def test_ids_are_unique_across_files() -> None:
    """No id appears twice in the whole corpus, so a reading is named the same in every report."""
    ids = [row["id"] for _, row in EVERY]
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


@pytest.mark.parametrize(("name", "row"), EVERY, ids=_ids(EVERY))
def test_every_reading_names_its_set_up_and_source(name: str, row: dict[str, Any]) -> None:
    """Each reading has id, command, source, date and read as non-empty text, a lowercase id, a month-precise date
    and an https source."""
    problems = [field for field in COMMON if not (isinstance(row.get(field), str) and row[field].strip())]
    problems += [] if ID.fullmatch(str(row.get("id", ""))) else ["id not lowercase"]
    problems += [] if DATE.fullmatch(str(row.get("date", ""))) else ["date not YYYY-MM"]
    problems += [] if str(row.get("source", "")).startswith("https://") else ["source not https"]
    assert problems == [], name


@pytest.mark.parametrize(("name", "row"), EVERY, ids=_ids(EVERY))
def test_the_command_uses_known_values(name: str, row: dict[str, Any]) -> None:
    """A command's framework, attention and dtype keys take only the values the calculator accepts, at most once."""
    pairs = KEY.findall(row["command"])
    keys = [key for key, _ in pairs]
    values = dict(pairs)
    wrong = sorted({key for key in keys if keys.count(key) > 1})
    wrong += [] if values.get("framework", "megatron") in FRAMEWORKS else ["framework"]
    wrong += [] if values.get("attention", "flash") in {"flash", "eager", "triton"} else ["attention"]
    wrong += [] if values.get("dtype", "bf16") in {"bf16", "bf16-true", "fp16", "fp32", "fp8"} else ["dtype"]
    assert wrong == [], name


@pytest.mark.parametrize(("name", "row"), MEMORY, ids=_ids(MEMORY))
def test_a_memory_reading_has_its_counter_and_value(name: str, row: dict[str, Any]) -> None:
    """A peak has a known counter, a positive number and a unit; an OOM or a run that ran has no peak but the
    card's capacity; a ``stage`` says only ``last``, and only of an allocated peak (the figure the answer gives
    for that stage)."""
    counter = row.get("counter")
    if counter in NO_PEAK:
        shape = ("measured" in row, "unit" in row, _positive(row.get("capacity_gib")))
        assert shape == (False, False, True), name
    else:
        shape = (counter in COUNTERS, _positive(row.get("measured")), row.get("unit") in UNITS)
        assert shape == (True, True, True), name
    assert ("metric" in row, "value" in row) == (False, False), name
    assert (row.get("stage", "last"), "stage" not in row or counter == "max_allocated") == ("last", True), name


@pytest.mark.parametrize(("name", "row"), THROUGHPUT, ids=_ids(THROUGHPUT))
def test_a_throughput_reading_has_its_metric_and_value(name: str, row: dict[str, Any]) -> None:
    """A throughput reading names a known metric and a positive value, and no memory counter."""
    assert (row.get("metric") in METRICS, _positive(row.get("value")), "counter" in row) == (True, True, False), name


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0
