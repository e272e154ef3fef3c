"""README.md and docs/*.md as a reader uses them: every command shown works and prints what the page shows.

- ```console blocks: ``$ effbatch …`` runs in-process (``bot.serving.cli.main``, from the repository root) and
  ``> /effbatch …`` goes through the local console's Bolt app, as typed there; the lines under a command are
  what it prints, a line ``…`` standing for lines left out.
- ```sh blocks hold set-up commands, checked, not run: ``make`` targets exist, paths exist, ``effbatch-bot``'s
  options are its own; ```yaml blocks (CI, pre-commit) parse and name options and hooks that exist.
- Install, pre-commit and Action snippets (the pages' blocks and `code`, .pre-commit-hooks.yaml, action.yml,
  docs/examples/) name only sources the repository defines: local paths, hosts and owners left as <placeholders>,
  and pyproject's version as the tag ``v…`` the page shows the team creating.
- Links and repository paths resolve; every docs page is linked from the README; the README stays a front door;
  docs/frameworks.md is what ``tests/docs_pages.py`` writes today.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import glob
import io
import itertools
import re
import shlex
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import architecture_page
import pytest
import yaml
from docs_pages import ELIDED, EXAMPLES, PAGE, REGENERATE, ROOT, effbatch, regenerated, slug
from test_texts import RETIRED

from effbatch.bot.document import Visibility
from effbatch.bot.operations.settings import Settings
from effbatch.bot.serving.console import Console
from effbatch.bot.texts.frameworks import collected
from effbatch.core.configs import all_frameworks

README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
#: A front door is read in one go (a long one was not read to its end).
README_LINES = 300
#: The prompts of a console block: a terminal command, and a line typed into the local console (or Slack).
TERMINAL, CONSOLE = "$ ", "> "
#: Paths of this repository a page may name in `code`; anything else there is another project's path.
OWN_PATHS = re.compile(r"^(core|bot|tests|deploy|schema|requirements|bench)/[\w./*\-]*$|^\.pre-commit-hooks\.yaml$")
#: A word that names a path: words joined by slashes.
PATH = r"[\w.\-]+(/[\w.\-]+)+/?"


@dataclass
class Block:
    """A fenced block of a page: its language and lines, and where it starts (for the test's name)."""

    page: Path
    line: int
    language: str
    lines: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass
class Step:
    """One command of a console block and the lines the page shows under it."""

    prompt: str
    command: str
    expected: list[str] = field(default_factory=list)


def blocks(page: Path) -> Iterator[Block]:
    """The fenced blocks of a Markdown page, in order."""
    block: Block | None = None
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("```") and block is None:
            block = Block(page, number, line[3:].strip())
        elif line.startswith("```") and block is not None:
            yield block
            block = None
        elif block is not None:
            block.lines.append(line)


def all_blocks(language: str) -> list[Block]:
    return [block for page in PAGES for block in blocks(page) if block.language == language]


def steps(block: Block) -> list[Step]:
    """A console block as commands, each with the output shown under it."""
    found: list[Step] = []
    for line in block.lines:
        if line.startswith((TERMINAL, CONSOLE)):
            found.append(Step(line[:2], line[2:]))
        elif found:
            found[-1].expected.append(line.rstrip())
        else:
            pytest.fail(f"{block.where}: a console block starts with a command ($ effbatch … or > /effbatch …)")
    return found


def shows(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is what ``expected`` shows: the same lines in order, ``…`` standing for any number."""
    while expected and not expected[-1]:
        expected = expected[:-1]
    parts = [list(part) for part in _split(expected)]
    if len(parts) == 1:
        return parts[0] == actual
    first, *middle, last = parts
    if actual[: len(first)] != first or (last and actual[-len(last) :] != last):
        return False
    position, end = len(first), len(actual) - len(last)
    for part in middle:
        position = _find(part, actual, position, end)
        if position < 0:
            return False
    return position <= end


def _split(lines: list[str]) -> Iterator[list[str]]:
    part: list[str] = []
    for line in lines:
        if line == ELIDED:
            yield part
            part = []
        else:
            part.append(line)
    yield part


def _find(part: list[str], actual: list[str], start: int, end: int) -> int:
    """Where ``part`` ends when found in ``actual[start:end]``; -1 when it is not there."""
    for at in range(start, end - len(part) + 1):
        if actual[at : at + len(part)] == part:
            return at + len(part)
    return -1


def terminal(command: str) -> list[str]:
    """What ``effbatch …`` prints (``< FILE`` as standard input, ``*`` expanded as the shell would)."""
    words = shlex.split(command)
    assert words[0] == "effbatch", f"only effbatch runs in a console block, not {words[0]}: set-up goes in ```sh"
    stdin = None
    if len(words) > 2 and words[-2] == "<":
        stdin, words = (ROOT / words[-1]).read_bytes(), words[:-2]
    args = [found for word in words[1:] for found in _expanded(word)]
    return effbatch(args, stdin).output.rstrip().splitlines()


def _expanded(word: str) -> list[str]:
    if "*" not in word:
        return [word]
    with contextlib.chdir(ROOT):
        return sorted(glob.glob(word)) or [word]


CONSOLE_BLOCKS = all_blocks("console")


@pytest.mark.parametrize("block", CONSOLE_BLOCKS, ids=[block.where for block in CONSOLE_BLOCKS])
def test_every_command_shown_prints_what_the_page_shows(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ``$ effbatch …`` and ``> /effbatch …`` of the block answers today as the page shows it."""
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps --help to the terminal's width
    console = Console(Settings(effbatch_response_type=Visibility.IN_CHANNEL))
    for step in steps(block):
        if step.prompt == TERMINAL:
            actual = terminal(step.command)
        else:
            actual = console.answer(step.command).rstrip().splitlines()
        if not shows(step.expected, actual):
            diff = "\n".join(difflib.unified_diff(step.expected, actual, "the page", "today", lineterm=""))
            hint = NO_BREAK_HINT if shows([_spaced(line) for line in step.expected], list(map(_spaced, actual))) else ""
            pytest.fail(f"{block.where}: {step.prompt}{step.command} prints something else now:{hint}\n{diff}")


#: Numbers and their units are joined by no-break spaces (8,4\u00a0Mio.); typed as plain spaces they look the same.
NO_BREAK_HINT = " only its spaces differ – copy the lines from the output, which has no-break spaces (U+00A0, U+202F)"


def _spaced(line: str) -> str:
    return line.replace("\u00a0", " ").replace("\u202f", " ")


def test_the_pages_show_commands() -> None:
    """The README and the usage and check pages show real commands with their answers (not bare syntax)."""
    shown = {block.page.name for block in CONSOLE_BLOCKS}
    assert {"README.md", "usage.md", "checks.md", "frameworks.md", "json.md"} <= shown


def test_no_retired_spelling_in_what_the_pages_show() -> None:
    """The answers shown in the docs use the glossary's spellings (bot/texts/glossary.py)."""
    shown = "\n".join(line for block in CONSOLE_BLOCKS for line in block.lines)
    assert [retired for retired in RETIRED if retired in shown] == []


#: What makes a command named in running text a pattern rather than one to run.
PLACEHOLDERS = ("…", "DATEI", "[", "|", "<")
NAMED = sorted(
    {
        (page.name, span)
        for page in PAGES
        for span in re.findall(r"`(effbatch [^`]+)`", page.read_text(encoding="utf-8"))
        if not any(mark in span for mark in PLACEHOLDERS) and (span.split()[1] != "check" or "--help" in span)
    }
)


@pytest.mark.parametrize(("page", "command"), NAMED, ids=[f"{page}: {command}" for page, command in NAMED])
def test_commands_named_in_the_text_work(page: str, command: str) -> None:
    """A whole command named in running text (`effbatch hilfe schlüssel`) runs and succeeds."""
    run = effbatch(shlex.split(command)[1:])
    assert run.code == 0, f"{page}: {command} exits with {run.code}:\n{run.output}"


# --- set-up commands: checked, not run -----------------------------------------------------------------------


def commands(block: Block) -> Iterator[list[str]]:
    """The commands of a ```sh block as words: continuation lines joined, comments dropped, split at ; && || |."""
    text = "\n".join(block.lines).replace("\\\n", " ")
    for line in text.splitlines():
        words: list[str] = []
        for word in shlex.split(line, comments=True):
            if word in {";", "&&", "||", "|"}:
                yield words
                words = []
            else:
                words.append(word)
        if words:
            yield words


@functools.cache
def effbatch_bot_help() -> str:
    """``effbatch-bot --help``, in this process."""
    from effbatch.bot.serving.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["--help"])
    return out.getvalue()


def setup_problems(words: list[str]) -> list[str]:
    """What is wrong with one set-up command: a make target, an option or a path that does not exist.

    Other programs (docker, kubectl, pip …) are not run; the paths they name are checked.
    """
    while words and re.match(r"^[A-Z_]+=", words[0]):  # CI=1 make test
        words = words[1:]
    program, rest = words[0], words[1:]
    problems = [f"{path} does not exist" for path in _paths(rest) if not _exists(path)]
    if program == "make":
        problems += [f"make has no target {target}" for target in _missing_targets(rest)]
    elif program == "effbatch-bot":
        problems += [f"effbatch-bot has no {option}" for option in _missing_options(rest)]
    elif program == "effbatch":
        problems.append("an effbatch command belongs in a ```console block, with what it prints")
    return problems


def _missing_targets(words: list[str]) -> list[str]:
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), flags=re.MULTILINE))
    return [word for word in words if "=" not in word and not word.startswith("-") and word not in targets]


def _missing_options(words: list[str]) -> list[str]:
    """effbatch-bot's options (and modes) the page names that its --help does not."""
    shown = effbatch_bot_help()
    options = [word.split("=")[0] for word in words if word.startswith("-")]
    modes = [f"--mode {mode}" for option, mode in itertools.pairwise(words) if option == "--mode"]
    return [option for option in options if option not in shown] + [
        mode for mode in modes if mode.removeprefix("--mode ") not in shown
    ]


def _paths(words: list[str]) -> list[str]:
    """The words that name a path in this repository (``a/b``), the venv's excepted."""
    values = [word.split("=", 1)[-1] for word in words]
    return [value for value in values if re.fullmatch(PATH, value) and not value.startswith(".venv/")]


def _exists(path: str) -> bool:
    with contextlib.chdir(ROOT):
        return bool(glob.glob(path))


SH_BLOCKS = all_blocks("sh")


@pytest.mark.parametrize("block", SH_BLOCKS, ids=[block.where for block in SH_BLOCKS])
def test_set_up_commands_exist(block: Block) -> None:
    """make targets, files and effbatch-bot's options named in a ```sh block are there."""
    problems = [f"{' '.join(words)}: {p}" for words in commands(block) for p in setup_problems(words)]
    assert problems == [], f"{block.where}: {problems}"


YAML_BLOCKS = all_blocks("yaml")


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=[block.where for block in YAML_BLOCKS])
def test_ci_and_pre_commit_lines_name_what_exists(block: Block) -> None:
    """A CI or pre-commit snippet parses; its effbatch options and its hook id are effbatch's own."""
    data = yaml.safe_load("\n".join(block.lines))
    options = effbatch(["check", "--help"]).output
    hooks = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    for text in _strings(data):
        if "effbatch check" in text:
            assert [w for w in shlex.split(text) if w.startswith("--") and w not in options] == [], text
    for hook in _values(data, "id"):
        assert hook in hooks, f"{block.where}: no pre-commit hook {hook}"
    for option in (arg for args in _values(data, "args") for arg in args if str(arg).startswith("--")):
        assert option in options, f"{block.where}: effbatch check has no {option}"


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)


def _values(data: Any, key: str) -> Iterator[Any]:
    if isinstance(data, dict):
        if key in data:
            yield data[key]
        for value in data.values():
            yield from _values(value, key)
    elif isinstance(data, list):
        for item in data:
            yield from _values(item, key)


# --- snippets: where effbatch comes from -------------------------------------------------------------------------
#
# The repository defines no host, no public repository and no tag: a team gets effbatch from a clone or its own
# mirror and tags a release there. So a snippet may name effbatch's source only as
# - a local path (`pip install .`, `uses: ./tools/effbatch`, `"$GITHUB_ACTION_PATH"`) or `repo: local`,
# - a URL or action whose host or owner is a placeholder the reader fills in (`https://<your-git-host>/…`,
#   `<your-org>/effbatch@…`),
# and a tag only as `v` + pyproject's version, on a page or file that shows the team creating it (`git tag v…`).
# GitHub's own actions (`actions/checkout@v4`) are theirs, not effbatch's.

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
TAG_CREATED = f"git tag v{VERSION}"
#: Files that are snippets throughout, comments included: what a team copies into its own configs.
SNIPPET_FILES = [ROOT / ".pre-commit-hooks.yaml", ROOT / "action.yml", *sorted((ROOT / "docs/examples").glob("*.yml"))]
#: A line that says where effbatch comes from: an install, a clone, a pre-commit repository, an action, a ref.
SOURCE_LINE = re.compile(r"\b(?:pip|pipx|uv tool|uv pip) install\b|\bgit clone\b|\b(?:repo|uses|rev|ref):")
URL = re.compile(r"(?:git\+)?(?:https?|ssh|git)://[^\s\"'`)]+|git@[^\s\"'`)]+")
GITHUB_ACTION = re.compile(r"\bactions/[\w-]+@v\d+\b")
TAG = re.compile(r"(?:@|\brev: |\bref: |--branch )[\"']?(v\d[\w.\-]*)")
#: effbatch by name from a package index, which has none of it.
FROM_AN_INDEX = re.compile(r"\binstall\s+(?:-\S+\s+)*[\"']?effbatch\b(?!\s*@)")


def undefined_sources(line: str) -> list[str]:
    """What one line of a snippet names as effbatch's source or release that the repository does not define."""
    if not SOURCE_LINE.search(line):
        return []
    line = GITHUB_ACTION.sub("", line)
    problems = [
        f"{url} names a host and repository, not a <placeholder>" for url in URL.findall(line) if "<" not in url
    ]
    for key, value in re.findall(r"\b(uses|repo):\s*[\"']?([^\s\"'`]+)", line):
        if not (value.startswith("./") or value == "local" or "<" in value or "://" in value):  # URLs: above
            problems.append(f"{key}: {value} is neither local nor a <placeholder>")
    problems += [
        f"tag {tag} is not v{VERSION}, pyproject's version" for tag in TAG.findall(line) if tag != f"v{VERSION}"
    ]
    if FROM_AN_INDEX.search(line):
        problems.append("effbatch is on no package index")
    return problems


@pytest.mark.parametrize(
    ("line", "problems"),
    [
        (f'pipx install "git+https://github.com/effbatch/effbatch@v{VERSION}"', 1),  # a repository that never existed
        ("- repo: https://github.com/effbatch/effbatch", 1),
        (f"- uses: effbatch/effbatch@v{VERSION}", 1),  # an owner nobody fills in
        ("  rev: v0.0.0-other", 1),  # another release than pyproject's
        ("pip install effbatch", 1),  # from PyPI
        (f'pip install "git+https://<your-git-host>/<your-group>/effbatch@v{VERSION}"', 0),
        (f"- uses: <your-org>/effbatch@v{VERSION}", 0),
        ("- uses: ./.effbatch", 0),
        ("- uses: actions/checkout@v4", 0),  # GitHub's own action
        ("pip install .", 0),
        ("- repo: local", 0),
    ],
)
def test_the_snippet_rule_tells_defined_from_undefined(line: str, problems: int) -> None:
    """The rule below refuses the snippets that pointed at a repository and tag that never existed."""
    assert len(undefined_sources(line)) == problems


def snippets(path: Path) -> list[str]:
    """The snippet lines of a page (its fenced blocks and `code`) or of a snippet file (all of it)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".md":
        return text.splitlines()
    fenced = [line for block in blocks(path) for line in block.lines]
    return fenced + re.findall(r"`([^`\n]+)`", text)


@pytest.mark.parametrize("path", PAGES + SNIPPET_FILES, ids=[path.name for path in PAGES + SNIPPET_FILES])
def test_snippets_name_only_sources_the_repository_defines(path: Path) -> None:
    """Copied install, pre-commit and Action snippets work: local paths or hosts the reader fills in, and pyproject's
    release as a tag the page shows the team creating."""
    lines = snippets(path)
    assert [f"{line.strip()}: {p}" for line in lines for p in undefined_sources(line)] == []
    if any(TAG.search(GITHUB_ACTION.sub("", line)) for line in lines if SOURCE_LINE.search(line)):
        assert TAG_CREATED in path.read_text(encoding="utf-8"), f"{path.name} names a tag but not how the team makes it"


def test_a_local_hook_runs_what_the_published_hook_runs() -> None:
    """Each `repo: local` hook the pages show runs the entry of .pre-commit-hooks.yaml (what tests/test_packaging.py
    runs as pre-commit would), on the effbatch installed on the machine."""
    entries = {hook["id"]: hook["entry"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    shown: list[tuple[str, tuple[str, str]]] = []
    for block in YAML_BLOCKS:
        data = yaml.safe_load("\n".join(block.lines))
        repositories = data.get("repos", []) if isinstance(data, dict) else data if isinstance(data, list) else []
        for repository in repositories:
            if isinstance(repository, dict) and repository.get("repo") == "local":
                shown += [(block.where, (hook["entry"], hook["language"])) for hook in repository["hooks"]]
                expected = [(block.where, (entries[hook["id"]], "system")) for hook in repository["hooks"]]
                assert shown[-len(expected) :] == expected
    assert sorted(where.split(":")[0] for where, _ in shown) == ["README.md", "docs/checks.md", "docs/github-action.md"]


# --- links, paths, the README as a front door, the generated page ---------------------------------------------


def links(page: Path) -> Iterator[tuple[str, str]]:
    """(file, anchor) of every relative Markdown link of the page; file empty for one into the page itself."""
    for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
        if not re.match(r"^[a-z]+:", target):
            file, _, anchor = target.partition("#")
            yield file, anchor


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_links_and_paths_resolve(page: Path) -> None:
    """Every link goes to a file and heading that exist; every path of this repository named in `code` exists."""
    broken = []
    for file, anchor in links(page):
        target = (page.parent / file).resolve() if file else page
        if not target.exists() or (anchor and target.suffix == ".md" and anchor not in anchors(target)):
            broken.append(f"{file}#{anchor}")
    code = re.findall(r"`([^`\n]+)`", page.read_text(encoding="utf-8"))
    broken += [path for path in code if OWN_PATHS.match(path) and not _exists(path)]
    assert broken == []


def test_every_docs_page_is_linked_from_the_readme() -> None:
    """The README's „read on“ list leads to every page under docs/."""
    linked = {(README.parent / file).resolve() for file, _ in links(README) if file}
    assert [page.name for page in PAGES[1:] if page.resolve() not in linked] == []


def test_the_readme_is_a_front_door() -> None:
    """Read in one go: at most 300 lines; everything else lives in docs/."""
    assert len(README.read_text(encoding="utf-8").splitlines()) <= README_LINES


def test_the_counts_the_pages_state_are_the_codes() -> None:
    """The README's number of frameworks is the registry's; the negatives' count is tests/data/negatives/'s."""
    stated = re.findall(r"(\d+) frameworks|all (\d+),", README.read_text(encoding="utf-8"))
    assert {int(many or every) for many, every in stated} == {len(all_frameworks())}
    negatives = [path for path in (ROOT / "tests" / "data" / "negatives").iterdir() if path.is_file()]
    assert f"holds {len(negatives)} such files" in (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")


def test_every_framework_has_an_example_of_its_own() -> None:
    """The frameworks page shows one fixture per registered framework, answered as that framework."""
    assert set(EXAMPLES) == {framework.id for framework in all_frameworks()}
    names = collected()[0]
    for framework_id, examples in EXAMPLES.items():
        for args in examples:
            title = effbatch(["check", *args]).output.splitlines()[0]
            assert title.startswith(names[framework_id].title + ":"), (framework_id, title)


def test_the_frameworks_page_is_generated() -> None:
    """docs/frameworks.md is what the registry, the framework modules and the fixtures say today."""
    page = PAGE.read_text(encoding="utf-8")
    assert page == regenerated(page), f"docs/frameworks.md is out of date: run {REGENERATE}"


def test_the_architecture_page_shows_the_contracts_pyproject_defines() -> None:
    """docs/architecture.md's contracts table is what tests/architecture_page.py writes from pyproject.toml."""
    page = architecture_page.PAGE.read_text(encoding="utf-8")
    assert page == architecture_page.regenerated(page), f"out of date: run {architecture_page.REGENERATE}"
    assert page.count("| contract | what it holds |") == 1
