"""The German texts as a whole: one template per problem kind, one glossary everywhere."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from bot.document import Visibility
from bot.rendering import views
from bot.rendering.answers import answer_command
from bot.rendering.block_kit import message
from bot.texts import answers, checks, glossary, help, memory, operator, problems
from bot.texts.problems import TEMPLATES
from core import ProblemKind

from slack_checks import all_text

ROOT = Path(__file__).resolve().parent.parent

#: Spellings the glossary retired; no user-facing text may contain them (the README's glossary lists them).
RETIRED = (
    "Batchgröße",
    "Batchgrösse",
    "Optimizer-Schritt",
    "Optimizerschritt",
    "Update",
    "Aktualisierung",
    "Gradientenakkumulation",
    "Häufige Fragen",  # the reference: „Häufig gestellte Fragen“
    "der globale Batch",  # App Home's headings say „effektive Batch-Größe“ like everything else
    "Kanal",
    "Knopf",
    "Knöpfe",
    "Tensorparallelität",
    "Pipelineparallelität",
    "Kontextparallelität",
    "Sequenzparallelität",
    "Micro-Batch-Größe",
    " Sie ",
    "Ihnen",
)


def test_every_problem_kind_has_a_text() -> None:
    """No problem the core can report is left without its German message, and no message without a problem."""
    assert set(TEMPLATES) == set(ProblemKind)


def strings(value: Any) -> Iterator[str]:
    """Every string inside a constant: a text, a tuple or dict of texts, nested."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, tuple | list | frozenset):
        for item in value:
            yield from strings(item)


def module_texts(module: ModuleType) -> list[str]:
    return [text for name, value in vars(module).items() if name.isupper() for text in strings(value)]


#: Commands whose answers together show every kind of layout.
SAMPLES = [
    "8 64 4 4096",
    "gpus=384 tp=4 pp=12 b=2 B=2048 L=2048",
    "b=3 d=8 B=2000",
    "8 64 4 4096 vs d=512 lr=3e-4",
    "8 64 4 4096 budget=2T act=1GiB",
    "hilfe",
    "hilfe schlüssel",
    "8 64",
    "gpus=100 tp=8 b=1 a=1",
    # memory per GPU and time (issue 28): the glossary's Gewichte, Gradienten, Optimiererzustände, Aktivierungen
    "llama3.1-8b b=2 gpus=8 a=4 L=8k gpu=h100 zero=1 budget=1T",
    "params=7B zero=3 gpus=8",
    "regeln=megatron llama3.1-70b gpus=64 tp=8 b=1 a=16 L=8192 gpu=h100 step_time=10s",
    "hilfe speicher",
    "modell=llama9 zero=5",
]


def user_facing() -> Iterator[tuple[str, str]]:
    """(where, text) for everything a user reads: the text modules, answers, views, manifests, README examples."""
    for module in (answers, checks, glossary, help, memory, problems):
        for text in module_texts(module):
            yield module.__name__, text
    for text in module_texts(operator):
        yield "operator", text
    for command in SAMPLES:
        yield command, all_text(message(answer_command(command, Visibility.IN_CHANNEL).document))
    for view in (views.home_view(), views.form_view(Visibility.IN_CHANNEL, "https://hooks.slack.com/x")):
        yield "view", str(view.to_dict())
    for manifest in sorted((ROOT / "deploy").glob("slack-manifest*.yaml")):
        data = yaml.safe_load(manifest.read_text())
        yield manifest.name, str(data["display_information"]) + str(data["features"]["slash_commands"])
    for block in fenced_blocks((ROOT / "README.md").read_text()):  # the examples of real output
        yield "README", block


def fenced_blocks(markdown: str) -> Iterator[str]:
    """The contents of the README's plain ``` blocks (the ```sh and ```json ones hold commands and data)."""
    fence: str | None = None
    block: list[str] = []
    for line in markdown.splitlines():
        if not line.startswith("```"):
            block.append(line)
        elif fence is None:
            fence, block = line, []
        else:
            if fence == "```":
                yield "\n".join(block)
            fence = None


@pytest.mark.parametrize("retired", RETIRED)
def test_retired_spellings_appear_nowhere(retired: str) -> None:
    """The glossary's one spelling each: Batch-Größe, Optimierer-Schritt, Channel, Button, du – never the old ones."""
    found = [where for where, text in user_facing() if retired in text]
    assert found == [], f"{retired!r} in {found}"


def test_the_glossary_terms_are_used() -> None:
    """The reference's words appear where the worked example is answered."""
    shown = all_text(message(answer_command("8 64 4 4096", Visibility.IN_CHANNEL).document))
    for term in ("Effektive Batch-Größe", "Optimierer-Schritt", "Batch je Gerät (b)", "Datenparallele Geräte (d)"):
        assert term in shown


def test_problem_templates_start_with_a_capital() -> None:
    """Shown alone (under a form field) each message reads as a sentence."""
    for kind, template in TEMPLATES.items():
        first = template.lstrip("{`")[0]
        starts = ("{text}", "{gpus}", "{formula}", "{texts}", "{reason}", "`")  # {reason}: „Für B = …“
        assert first.isupper() or template.startswith(starts), kind


#: German as a user reads it: a common word, or a letter only German has.
_GERMAN = re.compile(r"\b(und|oder|nicht|ist|bis|für|mit|der|die|das|ein|eine|ja|nein|abgerundet)\b|[äöüÄÖÜß]")
#: Words typed as commands, not read as prose: they may stand in code.
_COMMAND_WORDS = frozenset({"prüfe", "pruefe", "prüfen"})
#: Files whose German is still on its way into bot/texts/ (none: every text is there).
_PENDING: frozenset[Path] = frozenset()


def _german_literals(path: Path) -> list[tuple[int, str]]:
    """String literals in ``path`` (docstrings aside) that read as German prose."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bodies = [n.body for n in ast.walk(tree) if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)]
    docstrings = {id(body[0].value) for body in bodies if body and isinstance(body[0], ast.Expr)}
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        if node.value not in _COMMAND_WORDS and _GERMAN.search(node.value)
    ]


def test_german_lives_in_bot_texts() -> None:
    """Words a user reads (" oder ", „ja“, „bis“ …) come from bot/texts/, never from the code that lays them out."""
    root = Path(__file__).resolve().parent.parent
    found = {
        str(path.relative_to(root)): literals
        for path in sorted((root / "bot").rglob("*.py"))
        if "texts" not in path.parts and path.relative_to(root) not in _PENDING
        if (literals := _german_literals(path))
    }
    assert found == {}
