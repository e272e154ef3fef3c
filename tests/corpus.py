"""The users' corpus: real runs from users' repositories, each with the numbers its framework's own code computes.

``tests/data/corpus/<framework>.toml`` lists the cases (``[[case]]``: files, the world given from outside where
the files do not state it, repository, commit, pinned versions, how the numbers were obtained, the numbers);
``tests/data/corpus/<framework>/<case>/`` holds the files verbatim. The framework version a case names is passed
as ``--framework-version`` would pass it: a repository that vendors verl 0.1 (``verl 0.1 (vendored …)``) says
``--framework-version verl==0.1``, its ``verl/version/version`` being no file effbatch reads. ``known.toml`` names
the cases effbatch does not agree with yet, each with why. ``.venv/bin/python tests/corpus.py`` writes the agreement
to ``docs/corpus.md``; ``tests/test_corpus.py`` holds both to the code.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from effbatch.core.configs import Check, CheckError, Source, World, check_config  # noqa: E402
from effbatch.core.configs.base.versions import requirements  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "corpus"
PAGE = ROOT / "docs" / "corpus.md"
#: What a case's numbers are compared on, as ``effbatch check --json`` names them.
NUMBERS = ("global_batch", "micro_batch", "accumulation", "data_parallel")
RL_NUMBERS = ("prompts_per_rollout", "samples_per_prompt", "optimizer_steps_per_rollout")


@dataclass(frozen=True)
class Case:
    framework: str
    id: str
    files: tuple[str, ...]
    world: int | None
    expected: dict[str, Any]
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.framework}/{self.id}"


def cases() -> list[Case]:
    """Every case of every manifest, in the manifests' order."""
    found: list[Case] = []
    for manifest in sorted(CORPUS.glob("*.toml")):
        if manifest.name == "known.toml" or manifest.stem.startswith("arrivals"):
            continue
        for row in tomllib.loads(manifest.read_text(encoding="utf-8")).get("case", []):
            expected = {key: row[key] for key in (*NUMBERS, *RL_NUMBERS, "refused", "message") if key in row}
            pins = framework_pins(str(row.get("framework_version", "")))
            files = tuple(row["files"])
            found.append(Case(manifest.stem, row["id"], files, row.get("world_size"), expected, pins))
    return found


def framework_pins(text: str) -> dict[str, str]:
    """The releases a case names, as ``--framework-version`` pins them: ``trl==0.18.0`` as written, and a copy
    vendored in the repository by its version file (``verl 0.1 (vendored …)`` is ``verl==0.1``); remarks in
    parentheses are no pin."""
    parts = re.split(r"[,;]\s*", re.sub(r"\([^)]*\)", "", text))
    named = [re.sub(r"^\s*([A-Za-z][\w.-]*)\s+(\d+(?:\.\w+)*)\s*$", r"\1==\2", part) for part in parts]
    return requirements(named)


def known() -> dict[str, str]:
    """The cases effbatch disagrees with, by ``framework/id``, and why."""
    path = CORPUS / "known.toml"
    return dict(tomllib.loads(path.read_text(encoding="utf-8"))) if path.exists() else {}


def run(case: Case) -> Check | CheckError:
    """effbatch on the case's files, as ``effbatch check`` with ``--world-size`` and the pinned versions (each case
    read once per process: the table test and the page share the readings)."""
    if case.name not in _RESULTS:
        _RESULTS[case.name] = _run(case)
    return _RESULTS[case.name]


_RESULTS: dict[str, Check | CheckError] = {}


def _run(case: Case) -> Check | CheckError:
    folder = CORPUS / case.framework / case.id
    sources = [Source(f"{case.id}/{name}", (folder / name).read_text(encoding="utf-8")) for name in case.files]
    world = World(case.world, f"--world-size {case.world}") if case.world else None
    try:
        return check_config(sources, world, versions=case.versions, max_bytes=1024 * 1024)
    except CheckError as error:
        return error


def differences(case: Case, result: Check | CheckError) -> dict[str, tuple[object, object]]:
    """What effbatch says unlike the framework: key → (effbatch, the framework's own code)."""
    expected = case.expected
    if isinstance(result, CheckError):
        return {"answer": (f"exit 2 ({result.kind.value})", "a batch" if not expected.get("refused") else "refused")}
    said: dict[str, object] = {"refused": result.refused}
    said |= {key: getattr(result, key) for key in NUMBERS}
    if result.rl is not None:
        said |= {k: v for k, v in result.rl.as_json().items() if k in RL_NUMBERS}
    if expected.get("refused"):
        message = str(expected.get("message", ""))
        quoted = " ".join(f.message or "" for f in result.findings)
        ok = result.refused and (not message or message.split("(")[0].strip() in quoted)
        return {} if ok else {"refused": (said["refused"], True)}
    return {
        key: (said.get(key), value)
        for key, value in expected.items()
        if key in (*NUMBERS, *RL_NUMBERS, "refused") and not _same(said.get(key), value)
    }


def _same(ours: object, theirs: object) -> bool:
    if isinstance(ours, float) or isinstance(theirs, float):
        return isinstance(ours, int | float) and isinstance(theirs, int | float) and abs(ours - theirs) < 1e-9
    return ours == theirs


def agreement() -> dict[str, tuple[int, int]]:
    """Per framework: (cases, cases effbatch agrees with)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for case in cases():
        counts[case.framework][0] += 1
        counts[case.framework][1] += not differences(case, run(case))
    return {framework: (total, right) for framework, (total, right) in sorted(counts.items())}


def verdict(case: Case, result: Check | CheckError) -> str:
    """``agree``, ``decided-wrong`` (a batch or no refusal with exit 0, unlike the framework) or ``undecided``
    (effbatch named the missing value and exited 2)."""
    if isinstance(result, CheckError):
        return "undecided"
    return "decided-wrong" if differences(case, result) else "agree"


def verdicts() -> dict[str, int]:
    """The whole corpus by verdict, as effbatch answers now."""
    counts = {"agree": 0, "decided-wrong": 0, "undecided": 0}
    for case in cases():
        counts[verdict(case, run(case))] += 1
    return counts


def arrivals() -> list[dict[str, Any]]:
    """The batches as they arrived, before any fix: ``arrivals.toml``, then each part's ``arrivals-<part>.toml``."""
    paths = sorted(CORPUS.glob("arrivals*.toml"), key=lambda path: (path.stem != "arrivals", path.stem))
    return [batch for path in paths for batch in tomllib.loads(path.read_text(encoding="utf-8")).get("batch", [])]


def arrival_lines() -> list[str]:
    """The arrival table and the current verdicts, for docs/corpus.md."""
    rows = []
    for batch in arrivals():
        if not batch.get("recorded"):
            rows.append(f"| {batch['name']} | not recorded | | | | |")
            continue
        share = f"{100 * batch['agreed'] // batch['cases']} %"
        rows.append(
            f"| {batch['name']} ({batch['date']}) | {batch['cases']} | {batch['agreed']} ({share}) |"
            f" {batch['decided_wrong']} | {batch['undecided']} | {batch['repositories']} |"
        )
    now = verdicts()
    return [
        "## Arrival: each new batch before any fix",
        "",
        "| batch | cases | agreed | decided wrong | undecided | repositories |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"Now, over the whole corpus: **{now['agree']} agree, {now['decided-wrong']} decided wrong** (a number",
        f"or no refusal with exit 0, unlike the framework), **{now['undecided']} undecided** (the missing value",
        "named, exit 2).",
        "",
    ]


def page() -> str:
    """docs/corpus.md as the code says it now."""
    table = agreement()
    total, right = sum(t for t, _ in table.values()), sum(r for _, r in table.values())
    lines = [
        "# The users' corpus: agreement",
        "",
        "Real runs from users' repositories (recipes, research and course repositories, forks – never the",
        "frameworks' own), each with the numbers its framework's own code computes, run in a throwaway",
        "environment with the world size faked, or its deciding lines lifted verbatim (each case says which:",
        "`tests/data/corpus/<framework>.toml`). effbatch is measured against them; no rule is tuned to a file.",
        "Disagreements and why: `tests/data/corpus/known.toml`.",
        "",
        f"**{right} of {total}** cases agree (global batch, micro-batch, accumulation, data-parallel size, the",
        "refusal and, for RL trainers, the rollout).",
        "",
        "| framework | cases | agree |",
        "|---|---|---|",
        *(f"| {framework} | {cases_} | {agree} |" for framework, (cases_, agree) in table.items()),
        "",
        *arrival_lines(),
        f"Regenerate with `.venv/bin/python {Path(__file__).relative_to(ROOT).as_posix()}`.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    if "--differences" in sys.argv:
        for case in cases():
            if found := differences(case, run(case)):
                print(case.name, found)
    else:
        PAGE.write_text(page(), encoding="utf-8")
        print(f"{PAGE.relative_to(ROOT)} regenerated")
