"""The GitHub Action (``action.yml``) and ``effbatch check --format github``: the annotations a pull request shows,
and the action's own shell steps run in a scratch git repository as the runner would run them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from effbatch.bot.rendering.github import file_annotation

from bot_process import BIN, clean_env

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "tests" / "data" / "configs"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())


def check_github(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    command = [str(BIN / "effbatch"), "check", "--format", "github", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=60, env=clean_env())


@pytest.mark.parametrize(
    ("config", "world", "annotation"),
    [
        # The fix changes gradient_accumulation_steps, on line 4 of the fixture (train_batch_size 256 ≠ 4 · 1 · 8).
        ("ds_mismatch.json", "8", "::error file=tests/data/configs/ds_mismatch.json,line=4,"),
        # The finding names --sequence-parallel, appended on line 25 of the script.
        ("megatron_script.sh", None, "::notice file=tests/data/configs/megatron_script.sh,line=25,"),
        # No world size anywhere: the file itself is marked, at its first line (GitHub counts lines from 1).
        ("axolotl.yaml", None, "::error file=tests/data/configs/axolotl.yaml,line=1,title=effbatch check::Für axolotl"),
    ],
)
def test_annotations_sit_at_the_values_line(config: str, world: str | None, annotation: str) -> None:
    """Each finding becomes a workflow command at the file and line of the value it is about."""
    result = check_github(f"tests/data/configs/{config}", *(["--world-size", world] if world else []))
    assert annotation in result.stdout


def test_exit_codes_and_text_stay_as_without_annotations() -> None:
    """--format github adds the annotations; the answer follows for the log and the exit code is unchanged."""
    failing = check_github("tests/data/configs/ds_mismatch.json", "--world-size", "8")
    assert failing.returncode == 1
    assert "DeepSpeed: So startet dieser Lauf nicht" in failing.stdout
    assert check_github("tests/data/configs/ds_consistent.json", "--world-size", "8").returncode == 0


def test_workflow_command_escaping() -> None:
    """Per GitHub's rules: %, CR and LF escaped everywhere, ':' and ',' also in property values."""
    line = file_annotation("a,b:c%.yaml", "Zeile 1\nZeile 2: 100 %")
    assert line == "::error file=a%2Cb%3Ac%25.yaml,line=1,title=effbatch check::Zeile 1%0AZeile 2: 100 %25"


#: Where the runner ends a line of a step's output (.NET's ReadLine: CR, LF, CRLF).
RUNNER_LINES = re.compile(r"\r\n|\r|\n")


def runner_commands(output: str) -> list[str]:
    """The names of the workflow commands a runner reads in ``output`` (actions/runner, ActionCommand.cs): a line
    starting with ``::`` after blanks (TryParseV2), else ``##[name]`` anywhere in it (the older TryParse)."""
    names = []
    for line in RUNNER_LINES.split(output):
        stripped = line.lstrip()
        if stripped.startswith("::") and (end := stripped.find("::", 2)) > 0:
            names.append(stripped[2:end].split(" ")[0])
        elif (start := line.find("##[")) >= 0 and (end := line.find("]", start)) > 0:
            names.append(line[start + 3 : end].split(" ")[0])
    return names


def smuggled(tmp_path: Path, case: str) -> str:
    """A file whose value, key or name carries a workflow command after a line break; returns its name."""
    ds = json.loads((CONFIGS / "ds_mismatch.json").read_text())
    if case in {"value", "older form"}:
        value = "8\n::stop-commands::tok" if case == "value" else "##[stop-commands]tok"
        (tmp_path / "ds.json").write_text(json.dumps({**ds, "train_batch_size": value}))
        return "ds.json"
    if case == "YAML key":
        text = (CONFIGS / "nanotron" / "06_refused_unknown_key.yaml").read_text()
        (tmp_path / "run.yaml").write_text(text.replace("  global_batch_size:", '  "x\\n::stop-commands::tok":'))
        return "run.yaml"
    name = {"file name": "a\n::stop-commands::tok.json", "carriage return": "b\r::add-mask::tok.json"}[case]
    (tmp_path / name).write_text(json.dumps(ds))
    return name


@pytest.mark.parametrize("output", ["github", "text", "json"])
@pytest.mark.parametrize("case", ["value", "older form", "YAML key", "file name", "carriage return"])
def test_nothing_from_a_config_reaches_the_runner_as_a_command(tmp_path: Path, case: str, output: str) -> None:
    """A value, a YAML key or a file name with a line break and ::stop-commands:: (which would silence every later
    annotation) is shown, escaped, on both streams and in every format (CI may run any in a workflow); the only
    commands a runner reads are effbatch's own annotations."""
    name = smuggled(tmp_path, case)
    command = [str(BIN / "effbatch"), "check", "--format", output, "--each", "--world-size", "8", "--", name]
    result = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=60, env=clean_env())
    assert result.returncode in {1, 2}, result.stderr
    assert runner_commands(result.stderr) == []
    annotations = runner_commands(result.stdout)
    assert set(annotations) <= ({"error", "warning", "notice"} if output == "github" else set())
    assert bool(annotations) == (output == "github")
    assert "tok" in result.stdout + result.stderr  # shown, not dropped


@pytest.mark.parametrize(
    ("config", "world"),
    [
        ("memory/megatron_mixtral_8x7b.sh", "24"),  # the finding was placed at file=--world-size 24,line=0
        ("accelerate/10_single_accelerator.yaml", "8"),  # the finding had no file at all
        ("nanotron/08_refused_missing_micro_batch.yaml", "8"),  # a missing key has no line: it had no file either
    ],
)
def test_every_annotation_names_a_checked_file_and_a_line(config: str, world: str) -> None:
    """An annotation sits in a file that was checked, at a line from 1 on (the runner uploads no line as 0), never at
    a setting such as --world-size."""
    result = check_github(f"tests/data/configs/{config}", "--world-size", world)
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotations
    pattern = rf"::(error|warning|notice) file={re.escape(f'tests/data/configs/{config}')},line=[1-9][0-9]*,title="
    assert [line for line in annotations if not re.match(pattern, line)] == []


def test_standard_input_has_no_file_to_annotate() -> None:
    """A config read from standard input has no file a pull request could show: no annotation, the answer and the
    exit code as always."""
    command = [str(BIN / "effbatch"), "check", "--format", "github", "--world-size", "8", "-"]
    with (CONFIGS / "ds_mismatch.json").open("rb") as config:
        result = subprocess.run(command, stdin=config, capture_output=True, timeout=60, env=clean_env(), check=False)
    assert result.returncode == 1
    assert result.stdout.decode().startswith("DeepSpeed: So startet dieser Lauf nicht\n")


def test_the_action_is_a_composite_with_shells() -> None:
    """A composite action whose every run step names its shell (GitHub requires it) and reads inputs through env,
    never by ${{ }} inside a script (no injection through an input)."""
    assert ACTION["runs"]["using"] == "composite"
    for step in ACTION["runs"]["steps"]:
        if "run" in step:
            assert step["shell"] == "bash"
            assert "${{" not in step["run"]
    assert set(ACTION["inputs"]) == {"files", "world-size", "base", "python-version"}


def step(name: str) -> str:
    return next(s["run"] for s in ACTION["runs"]["steps"] if s.get("name") == name)


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env["GIT_COMMITTER_EMAIL"] = "t@t"
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=env).stdout.strip()


def run_step(name: str, repo: Path, runner: Path, **env: str) -> subprocess.CompletedProcess[str]:
    path = f"{BIN}{os.pathsep}{os.environ['PATH']}"
    environment = clean_env(PATH=path, RUNNER_TEMP=str(runner), GITHUB_OUTPUT=str(runner / "output"), **env)
    return subprocess.run(["bash", "-c", step(name)], cwd=repo, capture_output=True, text=True, env=environment)


@pytest.fixture
def pull_request(tmp_path: Path) -> tuple[Path, Path, str]:
    """A repository whose pull request adds a contradictory DeepSpeed config and touches the README."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo, runner = tmp_path / "repo", tmp_path / "runner"
    (repo / "configs").mkdir(parents=True)
    runner.mkdir()
    git(repo, "init", "-q")
    shutil.copy(CONFIGS / "ds_consistent.json", repo / "configs" / "ds_consistent.json")
    (repo / "README.md").write_text("training\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    base = git(repo, "rev-parse", "HEAD")
    shutil.copy(CONFIGS / "ds_mismatch.json", repo / "configs" / "ds mismatch.json")  # a space, as paths may have
    (repo / "README.md").write_text("training, changed\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "change")
    return repo, runner, base


def test_the_action_checks_only_the_changed_configs(pull_request: tuple[Path, Path, str]) -> None:
    """The changed config (not the unchanged one, not the README) is checked and annotated; the job fails."""
    repo, runner, base = pull_request
    changed = run_step("Changed configs", repo, runner, BASE=base, PATTERN="^configs/")
    assert changed.returncode == 0, changed.stderr
    assert (runner / "effbatch-files").read_text() == "configs/ds mismatch.json\0"
    assert step_outputs(runner / "output") == {"files": "configs/ds mismatch.json"}
    checked = run_step("effbatch check --each --format github", repo, runner, WORLD_SIZE="8")
    assert checked.returncode == 1
    assert "::error file=configs/ds mismatch.json,line=4,title=effbatch deepspeed/batch-assertion::" in checked.stdout


def step_outputs(path: Path) -> dict[str, str]:
    """$GITHUB_OUTPUT read as the runner reads it: ``name=value``, or ``name<<DELIMITER`` … a line ``DELIMITER``."""
    outputs, lines = {}, iter(path.read_text().split("\n"))
    for line in lines:
        if "<<" in line:
            name, delimiter = line.split("<<", 1)
            outputs[name] = "\n".join(iter(lambda: next(lines), delimiter))
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


def test_a_name_with_a_line_break_stays_one_file(pull_request: tuple[Path, Path, str]) -> None:
    """A changed config whose name holds a line break and the output's old fixed delimiter is checked as one file,
    and it cannot end the step's output early and set outputs of its own."""
    repo, runner, base = pull_request
    name = "configs/x\nEFFBATCH_FILES\nchecked=forged\n.json"
    shutil.copy(CONFIGS / "ds_mismatch.json", repo / name)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a name with line breaks")
    assert run_step("Changed configs", repo, runner, BASE=base, PATTERN="^configs/").returncode == 0
    assert set(step_outputs(runner / "output")) == {"files"}
    checked = run_step("effbatch check --each --format github", repo, runner, WORLD_SIZE="8")
    assert "::error file=configs/x%0AEFFBATCH_FILES%0Achecked=forged%0A.json,line=4," in checked.stdout
    assert "::error file=configs/ds mismatch.json,line=4," in checked.stdout
    assert "nicht gefunden" not in checked.stderr  # no name split into pieces that do not exist


@pytest.mark.parametrize("pattern", ["(", "[configs", "a{2,1}"])
@pytest.mark.parametrize("selects", ["", r"\.json$"], ids=["nothing changed", "a config changed"])
def test_an_invalid_files_pattern_fails_the_job(
    pull_request: tuple[Path, Path, str], pattern: str, selects: str
) -> None:
    """grep says 2 for a pattern it cannot read: the job fails with a message naming the input, instead of passing
    green with nothing checked."""
    repo, runner, base = pull_request
    changed = run_step("Changed configs", repo, runner, BASE=base, PATTERN=pattern + selects)
    assert changed.returncode == 2
    assert changed.stdout.startswith("::error title=effbatch::Die Eingabe files ist kein erweiterter regulärer")
    assert not (runner / "effbatch-files").exists()


def test_the_action_passes_without_changed_configs(pull_request: tuple[Path, Path, str]) -> None:
    """A pull request that changes no file the pattern selects passes."""
    repo, runner, base = pull_request
    assert run_step("Changed configs", repo, runner, BASE=base, PATTERN=r"\.toml$").returncode == 0
    checked = run_step("effbatch check --each --format github", repo, runner, WORLD_SIZE="")
    assert (checked.returncode, checked.stdout.strip()) == (0, "effbatch: keine geänderten Konfigurationen")


def test_the_action_needs_the_base_commit(pull_request: tuple[Path, Path, str]) -> None:
    """A shallow checkout without the base commit is an error that says what to change."""
    repo, runner, _ = pull_request
    missing = run_step("Changed configs", repo, runner, BASE="0" * 40, PATTERN="^configs/")
    assert missing.returncode == 2
    assert "fetch-depth: 0" in missing.stdout
