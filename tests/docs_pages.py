"""What the docs show that the code decides: ``effbatch`` run in-process, and docs/frameworks.md's generated part.

The framework page cannot drift: its table and its sections come from the registry (``core.configs.all_frameworks()``,
in detection order), each framework's German name (``bot.texts.frameworks``), its module's docstring and rules,
and one fixture of ``tests/data/configs/`` per framework run through ``effbatch check`` as a user would.
``tests/test_docs.py`` fails while the committed page differs from what this writes; to regenerate::

    .venv/bin/python tests/docs_pages.py
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import pkgutil
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from effbatch.bot.serving.cli import main
from effbatch.bot.texts.frameworks import collected
from effbatch.core.configs import Effect, Framework, all_frameworks
from effbatch.core.configs.frameworks import _shared

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "frameworks.md"
REGENERATE = ".venv/bin/python tests/docs_pages.py"
BEGIN = f"<!-- generated: edit the framework modules and tests/docs_pages.py, then run {REGENERATE} -->"
END = "<!-- end of the generated part -->"
#: A line that stands for lines of the output the page leaves out.
ELIDED = "…"
CONFIGS = "tests/data/configs"
#: The package of what several frameworks share, as its sections are headed.
SHARED = "_shared"

#: One example per framework (arguments after ``effbatch check``, paths from the repository root): what the
#: framework's page shows, chosen for the pitfall it illustrates. TRL has two, for its two trainers.
EXAMPLES: dict[str, tuple[tuple[str, ...], ...]] = {
    "accelerate": ((f"{CONFIGS}/accelerate/02_floor_processes_per_machine.yaml",),),
    "axolotl": ((f"{CONFIGS}/axolotl.yaml", "--world-size", "8"),),
    "deepspeed": ((f"{CONFIGS}/ds_mismatch.json", "--world-size", "8"),),
    "huggingface": ((f"{CONFIGS}/hf_launch.sh", f"{CONFIGS}/ds_auto.json"),),
    "levanter": ((f"{CONFIGS}/levanter/03_refused_nondivisible.yaml", "--world-size", "8"),),
    "lightning": ((f"{CONFIGS}/lightning/07_model_parallel_auto.yaml",),),
    "litgpt": ((f"{CONFIGS}/litgpt/02_finetune_floors.yaml",),),
    "llamafactory": ((f"{CONFIGS}/llamafactory/mbridge_1x8.sh", f"{CONFIGS}/llamafactory/06_mbridge_ep4.yaml"),),
    "llmfoundry": ((f"{CONFIGS}/llmfoundry/07_replication_halves_batch.yaml", "--world-size", "8"),),
    "maxtext": ((f"{CONFIGS}/maxtext/03_fractional_floor_old_cli.sh", "--world-size", "4"),),
    "megatron": ((f"{CONFIGS}/megatron_script.sh",),),
    "megatron_bridge": ((f"{CONFIGS}/megatron_bridge/10_nemo2_70b_default_nodes.py",),),
    "nanogpt": ((f"{CONFIGS}/train_gpt2.py", "--world-size", "8"),),
    "nanotron": ((f"{CONFIGS}/nanotron/04_refused_1f1b_microbatches.yaml",),),
    "nemo": ((f"{CONFIGS}/nemo.yaml",),),
    "olmo": ((f"{CONFIGS}/olmo.yaml", "--world-size", "24"),),
    "olmo_core": ((f"{CONFIGS}/olmo_core/02_refused_global_not_divisible.py", "--world-size", "128"),),
    "openrlhf": ((f"{CONFIGS}/openrlhf/04_refuse_deepspeed_batch_assertion.sh",),),
    "torchtitan": ((f"{CONFIGS}/torchtitan.toml", "--world-size", "8"),),
    "torchtune": ((f"{CONFIGS}/torchtune/02_tp8_multinode.yaml",),),
    "trl": ((f"{CONFIGS}/trl/10_silent_fractional_k.yaml",), (f"{CONFIGS}/trl/sft/04_split_batches.yaml",)),
    "verl": ((f"{CONFIGS}/verl/01_plain_grpo.sh",),),
}

#: The table's columns counting a framework's rules, by what a finding means for the run.
EFFECTS = ((Effect.REFUSED, "refuses"), (Effect.CHANGED, "changes silently"), (Effect.PITFALL, "pitfalls"))


@dataclass(frozen=True)
class Run:
    """What ``effbatch ARGS`` did: its exit code and what it printed (standard output, then standard error)."""

    code: int
    output: str


def effbatch(args: Sequence[str], stdin: bytes | None = None) -> Run:
    """``effbatch ARGS`` in this process, from the repository root, as the terminal would run it."""
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.chdir(ROOT),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        _standard_input(stdin or b""),
    ):
        try:
            code = main(list(args))
        except SystemExit as stopped:  # argparse's --help and usage errors
            code = stopped.code if isinstance(stopped.code, int) else 2
    return Run(code, out.getvalue() + err.getvalue())


@contextlib.contextmanager
def _standard_input(data: bytes) -> Iterator[None]:
    """``effbatch check - < FILE``: the bytes as standard input, for the duration of one run."""
    before = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = before


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def shown(output: str) -> list[str]:
    """A check's answer as the page shows it: the title, then (without the fields the formulas repeat) the rest."""
    paragraphs = output.rstrip().split("\n\n")
    lines = [*paragraphs[0].splitlines(), ""]
    if len(paragraphs) > 2:
        lines += [ELIDED, ""]
    for paragraph in paragraphs[2:] if len(paragraphs) > 2 else paragraphs[1:]:
        lines += [*paragraph.splitlines(), ""]
    return lines[:-1]


def markdown(docstring: str) -> str:
    """A module docstring as Markdown: reST's ``code`` as `code`, its escaped ``\\ s`` joined."""
    text = docstring.replace("\\ ", "").replace("``", "`")
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def _docstring(framework: Framework) -> str:
    return sys.modules[framework.check.__module__].__doc__ or ""


def _path(framework: Framework) -> str:
    """The framework's module, or its package's folder (``core/configs/frameworks/trl/``)."""
    file = Path(str(sys.modules[framework.check.__module__].__file__))
    return (
        (file.parent.relative_to(ROOT).as_posix() + "/")
        if file.name == "__init__.py"
        else file.relative_to(ROOT).as_posix()
    )


def _files(framework: Framework) -> list[Path]:
    path = ROOT / _path(framework)
    return sorted(path.glob("*.py")) if path.is_dir() else [path]


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _heading(output: str) -> str:
    """What the answer's title says after the framework's name: „trainiert mit B = 80 statt 100“."""
    first = output.splitlines()[0] if output else ""
    return first.split(": ", 1)[-1]


def _counts(framework: Framework) -> list[str]:
    return [str(sum(rule.effect is effect for rule in framework.rules)) for effect, _ in EFFECTS]


def _frameworks() -> list[tuple[str, Framework]]:
    """(German name, framework) for every framework, by name."""
    names = collected()[0]
    return sorted(((names[f.id].title, f) for f in all_frameworks()), key=lambda pair: pair[0].casefold())


def table() -> list[str]:
    """The table of every framework: name, module, place in detection, rules, the example's answer."""
    columns = ["framework", "module", "tried", *(name for _, name in EFFECTS), "rules", "example", "its answer"]
    lines = [
        f"effbatch reads **{len(all_frameworks())} frameworks**. *tried*: the place in the order detection tries them "
        "(`core/configs/registry.py`); the rule columns count the findings each module defines, by what they "
        "mean for the run; *its answer* is the title `effbatch check` prints today for the example, a fixture "
        f"under `{CONFIGS}/` shown in the framework's section below.",
        "",
        "| " + " | ".join(columns) + " |",
        "|" + "---|" * len(columns),
    ]
    order = {framework.id: place for place, framework in enumerate(all_frameworks(), start=1)}
    for name, framework in _frameworks():
        first = EXAMPLES[framework.id][0]
        cells = [
            f"[{name}](#{slug(name)})",
            f"`{_path(framework)}`",
            str(order[framework.id]),
            *_counts(framework),
            str(len(framework.rules)),
            f"`{Path(first[0]).relative_to(CONFIGS)}`",
            _heading(effbatch(["check", *first]).output),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def section(name: str, framework: Framework, place: int) -> list[str]:
    """One framework: where it lives, its module's docstring, its rule codes, its example as the terminal shows it."""
    codes = ", ".join(f"`{rule.code}`" for rule in framework.rules)
    links = ", ".join(f"[{SHARED}.{used}](#{slug(f'{SHARED}.{used}')})" for used in shared(framework))
    shares = f" shares {links};" if links else ""
    lines = [f"### {name}", "", f"`{_path(framework)}`, tried {_ordinal(place)};{shares} rules: {codes}.", ""]
    lines += [markdown(_docstring(framework)), ""]
    for args in EXAMPLES[framework.id]:
        lines += [*_origin(args[0]), "```console", f"$ effbatch check {' '.join(args)}"]
        lines += [*shown(effbatch(["check", *args]).output), "```", ""]
    return lines


def shared(framework: Framework) -> list[str]:
    """The modules of ``frameworks._shared`` the framework's module imports: what it runs as others do."""
    package = f"effbatch.core.configs.frameworks.{SHARED}"
    trees = [ast.parse(file.read_text(encoding="utf-8")) for file in _files(framework)]
    found: set[str] = set()
    for node in (node for tree in trees for node in ast.walk(tree)):
        if isinstance(node, ast.ImportFrom) and node.module == package:
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package + "."):
            found.add(str(node.module).removeprefix(package + "."))
    return sorted(found)


def shared_sections() -> list[str]:
    """Each module of ``frameworks._shared``: its docstring, and the frameworks that run it."""
    lines = ["## What several frameworks share", ""]
    for info in pkgutil.iter_modules(_shared.__path__):
        module = importlib.import_module(f"{_shared.__name__}.{info.name}")
        users = [f"[{name}](#{slug(name)})" for name, framework in _frameworks() if info.name in shared(framework)]
        lines += [
            f"### {SHARED}.{info.name}",
            "",
            f"`{module.__name__.removeprefix('effbatch.').replace('.', '/')}.py`, run by {', '.join(users)}.",
        ]
        lines += ["", markdown(module.__doc__ or ""), ""]
    return lines


def _origin(path: str) -> list[str]:
    """The fixture's own first comment, which says whose example it is shaped like."""
    for line in (ROOT / path).read_text(encoding="utf-8").splitlines()[:3]:
        if line.startswith("# "):
            return [f"Example: `{path}` ({line[2:].strip()})", ""]
    return [f"Example: `{path}`", ""]


def generated() -> str:
    """The generated part of docs/frameworks.md, between its markers."""
    lines = [BEGIN, "", *table(), "", "## By framework", ""]
    place = {framework.id: number for number, framework in enumerate(all_frameworks(), start=1)}
    for name, framework in _frameworks():
        lines += section(name, framework, place[framework.id])
    return "\n".join([*lines, *shared_sections(), END])


def regenerated(page: str) -> str:
    """``page`` with its generated part rewritten; the hand-written text around it stays as it is."""
    before, found, rest = page.partition(BEGIN)
    _, ended, after = rest.partition(END)
    if not found or not ended:
        msg = f"{PAGE.relative_to(ROOT)} needs the markers {BEGIN!r} and {END!r}"
        raise ValueError(msg)
    return before + generated() + after


if __name__ == "__main__":
    PAGE.write_text(regenerated(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"{PAGE.relative_to(ROOT)} regenerated")
