"""The registry imports a framework only when a question may need it, and never passes over one that detects.

Its marks (formats and key names, kept as data so that no module is imported to read them) are held against
the modules' own key tables, and against eager detection – every framework's ``detect`` run on every source the
tests and the corpus have: wherever a module says yes, the registry must have offered it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from effbatch.core.configs import CheckError, Source, all_frameworks
from effbatch.core.configs.base import Format, Framework, Parsed
from effbatch.core.configs.frameworks import llamafactory, llmfoundry, maxtext
from effbatch.core.configs.frameworks._shared import deepspeed_config, hf_trainer, megatron_core
from effbatch.core.configs.frameworks.trl.grpo import GRPO_KEYS
from effbatch.core.configs.frameworks.trl.sft import SFT_KEYS
from effbatch.core.configs.read import parse
from effbatch.core.configs.registry import ENTRIES, IDS, detect

DATA = Path(__file__).parent / "data"
#: Files a check may be given: configs, launch scripts, Python scripts.
SUFFIXES = {".yaml", ".yml", ".json", ".toml", ".sh", ".py", ".slurm", ".bash", ".txt"}

#: Each module's own key tables that its structured ``detect`` needs one of (where the marks come from).
KEY_TABLES = {
    "trl": {*GRPO_KEYS, *SFT_KEYS, "rloo_k", "dataset_name"},
    "huggingface": {hf_trainer.PER_DEVICE},
    "llamafactory": llamafactory.OWN_KEYS | llamafactory.V1_KEYS,
    "llmfoundry": {llmfoundry.GLOBAL, llmfoundry.MICRO},
    "maxtext": {maxtext.PDB},
    "nemo": megatron_core.MODEL_BATCH_KEYS | megatron_core.MODEL_PARALLEL_KEYS,
    "deepspeed": deepspeed_config.OWN_KEYS | {deepspeed_config.TRAIN},
}


def sources() -> list[Path]:
    return sorted(p for p in DATA.rglob("*") if p.is_file() and p.suffix in SUFFIXES)


def test_the_entries_are_the_frameworks_in_order() -> None:
    """One entry per framework module, named by the module's own ID."""
    assert [framework.id for framework in all_frameworks()] == list(IDS)
    assert len(set(IDS)) == len(ENTRIES)


@pytest.mark.parametrize("framework", KEY_TABLES)
def test_the_marks_name_every_key_the_module_detects_by(framework: str) -> None:
    """A key the module's detect reads is among its entry's marks (a new key in the module fails here)."""
    entry = next(e for e in ENTRIES if e.id == framework)
    assert KEY_TABLES[framework] <= set(entry.marks)


def test_no_framework_that_detects_a_source_is_passed_over() -> None:
    """Every source of the tests and the corpus, every framework: where its detect says yes, the registry offers
    it; and detection through the registry names the framework eager detection names."""
    frameworks = all_frameworks()
    checked = 0
    for path in sources():
        source = Source(str(path.relative_to(DATA)), path.read_text(encoding="utf-8", errors="replace"))
        try:
            parsed = parse(source, max_bytes=1 << 22)
        except CheckError:
            continue
        entries = {entry.id: entry for entry in ENTRIES}
        for framework in frameworks:
            if framework.detect(parsed):
                assert entries[framework.id].may_detect([parsed], source.text), (framework.id, source.name)
        eager = _eager(frameworks, parsed)
        assert _detected([parsed]) == eager, source.name
        checked += 1
    assert checked > 500


def _detected(parsed: list[Parsed]) -> str | None:
    try:
        return detect(parsed).id
    except CheckError:
        return None


def _eager(frameworks: tuple[Framework, ...], parsed: Parsed) -> str | None:
    """Every module's detect in order; a Python script first by the frameworks that know it by its deciding call."""
    deciding = {entry.id for entry in ENTRIES if entry.decides_script}
    first = [f for f in frameworks if f.id in deciding and parsed.format is Format.PYTHON]
    return next((f.id for f in [*first, *frameworks] if f.detect(parsed)), None)
