"""The German texts as a whole: one template per problem kind, one glossary everywhere."""

from __future__ import annotations

import ast
import collections
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from effbatch.bot.document import Visibility
from effbatch.bot.rendering import views
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.grammar import singular_after_one
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.serving.cli import main as cli_main
from effbatch.bot.texts import (
    answers,
    checks,
    glossary,
    guidance,
    help,
    links,
    memory,
    operator,
    problems,
    profiles,
    storage,
    workspaces,
)
from effbatch.bot.texts.problems import TEMPLATES
from effbatch.core import ProblemKind

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
    "läufe",
    "8 64 4 4096 vs llama2-7b lr=3e-4",
    "prompts=512 n=8 mini=128 b=4 gpus=64 epochs=2 vs n=16",
    "params=7B budget=2T L=4096",
    "hilfe prüfe",
    "hilfe budget",
    "hilfe vs",
    "8 64 4 4096 vs gpus=1024",
    # memory per GPU and time: the glossary's Gewichte, Gradienten, Optimiererzustände, Aktivierungen
    "llama3.1-8b b=2 gpus=8 a=4 L=8k gpu=h100 zero=1 budget=1T",
    "params=7B zero=3 gpus=8",
    "regeln=megatron llama3.1-70b gpus=64 tp=8 b=1 a=16 L=8192 gpu=h100 step_time=10s",
    "hilfe speicher",
    "modell=llama9 zero=5",
]


def user_facing() -> Iterator[tuple[str, str]]:
    """(where, text) for everything a user reads: the text modules, answers, views, manifests, README examples."""
    for module in (answers, checks, glossary, guidance, help, links, memory, problems, profiles, storage, workspaces):
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
    for term in (
        "Effektive Batch-Größe",
        "Optimierer-Schritt",
        "Micro-Batch je Gerät (b)",
        "Datenparallele Replikate (d)",
    ):
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


# --- the native review (../shared/review/german.md): its classes of error, caught wherever they recur ---------

#: Loan translations and retired spellings of the review, as patterns (a plain substring would catch
#: „Micro-Batch je Gerät“ in „Batch je Gerät“, „stillschweigend“ in „still“).
RETIRED_PATTERNS = {
    r"(?<!Micro-)Batch je Gerät": "row 7: one name for b, „Micro-Batch je Gerät“",
    r"[Dd]atenparallele Geräte": "row 5: d counts replicas, „Datenparallele Replikate“",
    r"\bRäng": "row 22: ranks are „Ranks“",
    r"\bstill (ab|auf)\b": "row 21: „stillschweigend“",
    r"angepasste[nm]? (Skalierungs)?[Gg]esetz|Gesetze angepasst|angepasst;": "rows 16/17: laws are „gefittet“",
    r"Aufmerksamkeit": "row 18: „Attention-Anteil“",
    r"\bverls\b|\baccelerates\b": "row 23: no genitive s on a lower-case product name",
    r"Expertenparallelität": "row 41: „Experten-Parallelität“",
    r"\bPakete": "row 41: packed units are „Packs“",
    r"Schaltfläche": "row 41: „Button“",
    r"Vorteil \(Advantage\)": "row 52: „Advantage-Berechnung“",
    r"Ab k ≥": "row 27: „Bei k ≥ 8“",
    r"– hergeleitet": "row 28: „Vorher: abgeleitete Werte“",
    r"achtmal weniger": "row 19: „nur ein Achtel der Schritte“",
    r"nicht doppelt abziehen": "row 20: d is divided, not subtracted",
    r"Gerechnet ist|gerechnet ist": "row 40: „gerechnet habe ich“",
    r"in allen \d+ Varianten|\d+ von \d+ Varianten": "row 39: „beide Varianten“, „keine der beiden“",
    r"zusammen geht nicht|dazu geht nicht": "row 26: two subjects, „lassen sich nicht kombinieren“",
    r"Die Werte geben": "row 26: „ergeben“",
    r"wäre\s+kürzer": "row 25: a batch is „kleiner“",
    r"es gilt die Voreinstellung": "row 38: several defaults",
    r"ohne Meldung\)": "row 36: „ohne Text“ beside a quoted assertion",
    r"ändert nicht, was trainiert": "row 37",
    r"höchstens\W*$|Länge höchstens|GPU höchstens": "row 42: „Max. …“",
    r"Zeitplan der Tokens": "row 41: „Batch-Größen-Plan“",
    r"Anlauf": "row 44: „Hochlauf“",
    r"lies die Datei": "row 48: the file is checked, not read by the user",
    r"Ende mit einer leeren Zeile": "row 48",
}


def _texts_of_every_framework() -> Iterator[tuple[str, str]]:
    yield from checks.FINDINGS.items()


@pytest.mark.parametrize("pattern", RETIRED_PATTERNS)
def test_the_reviews_loan_translations_appear_nowhere(pattern: str) -> None:
    """Each row of the native review that names a class of error: nowhere in what a user reads."""
    everywhere = [*user_facing(), *_texts_of_every_framework()]
    found = [where for where, text in everywhere if re.search(pattern, text)]
    assert found == [], f"{RETIRED_PATTERNS[pattern]}: {found}"


#: Answers whose numbers can be 1 (review row 4): B, T, the rollout's n, a check's title.
ONES = [
    "1 1 1 1",
    "b=1 d=1 a=1 L=1 vs a=2",
    "prompts=1 n=1 mini=1 b=1 gpus=1 L=1",
    "params=1 budget=1 L=1",
    'prüfe gpus=1 ```\n{"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1}\n```',
]
_ONE_PLURAL = re.compile(r"(?<![\d.,])1[\u00a0 ](Sequenzen|Tokens|Antworten|Prompts|GPUs|Optimierer-Schritte[n]?)\b")


@pytest.mark.parametrize("command", ONES)
def test_one_takes_the_singular(command: str) -> None:
    """„1 Sequenz“, „1 Token“, „× 1 Antwort“ – in Slack and in the terminal alike (review row 4)."""
    answered = answer_command(command, Visibility.IN_CHANNEL)
    shown = [all_text(message(answered.document)), plain_text(answered.document)]
    assert [_ONE_PLURAL.findall(text) for text in shown] == [[], []]


def test_every_findings_template_agrees_after_one() -> None:
    """Each framework row filled with 1 everywhere reads „1 Sequenz“ once the answer is laid out (review row 4)."""
    for code, template in checks.FINDINGS.items():
        filled = template.format_map(collections.defaultdict(lambda: "1"))
        assert not _ONE_PLURAL.search(singular_after_one(filled)), code


def registered_frameworks() -> list[str]:
    """Every framework the registry checks, by its German title (the registry, bot.texts.frameworks)."""
    from effbatch.core.configs import all_frameworks

    return [checks.FRAMEWORKS[framework.id].title for framework in all_frameworks()]


@pytest.mark.parametrize(
    "where",
    ["hilfe prüfe", "check --help", "slack-manifest.yaml", "slack-manifest.http.yaml"],
)
def test_every_list_of_frameworks_names_all_of_them(where: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The help, `check --help` and the manifests name all 22 frameworks, from the registry (review row 1)."""
    if where.endswith(".yaml"):
        text = yaml.safe_load((ROOT / "deploy" / where).read_text())["display_information"]["long_description"]
    elif where == "check --help":
        with pytest.raises(SystemExit):
            cli_main(["check", "--help"])
        text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")  # argparse wraps after a hyphen
    else:
        text = all_text(message(answer_command(where, Visibility.IN_CHANNEL).document))
    missing = [name for name in registered_frameworks() if name not in text]
    assert len(registered_frameworks()) == 22
    assert missing == []
    assert "wirklich trainieren" not in text  # „… oder OpenRLHF wirklich trainieren“: the verb of one framework


def test_the_short_help_counts_the_frameworks_and_points_to_the_list() -> None:
    """The short help stays one screen: the registry's count and where the list is, the verb of one framework."""
    text = all_text(message(answer_command("hilfe", Visibility.IN_CHANNEL).document))
    assert f"dein Framework wirklich trainiert ({len(registered_frameworks())} Frameworks, alle: " in text
    assert "/effbatch hilfe prüfe" in text


def test_review_row_2_du_siehst() -> None:
    """„Hilfe und Fehlermeldungen siehst immer nur du“ – the verb agrees with du."""
    text = all_text(message(answer_command("hilfe", Visibility.IN_CHANNEL).document))
    assert "siehst immer nur du" in text
    assert "sieht immer nur du" not in text
