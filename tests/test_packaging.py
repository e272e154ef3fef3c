"""What ``pip install``/``pipx install``/``uv tool install`` gets: the wheel's contents, its licence, one version
everywhere it is named, and the pre-commit hook as pre-commit would run it."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel as ``pip wheel .`` builds it (offline: the dev lock's setuptools, no build isolation)."""
    out = tmp_path_factory.mktemp("wheel")
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-q",
        "-w",
        str(out),
        str(ROOT),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=300, cwd=out)
    (built,) = out.glob("effbatch-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_carries_the_licence(wheel: zipfile.ZipFile) -> None:
    """Apache-2.0 as the metadata's licence expression, and the licence text itself in the dist-info."""
    names = wheel.namelist()
    licence = next(name for name in names if name.endswith(".dist-info/licenses/LICENSE"))
    assert wheel.read(licence) == (ROOT / "LICENSE").read_bytes()
    metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: Apache-2.0" in metadata
    assert f"Version: {VERSION}" in metadata


def test_the_wheel_carries_the_migrations(wheel: zipfile.ZipFile) -> None:
    """Alembic's environment and every revision ship, so an installed bot can migrate its database."""
    names = set(wheel.namelist())
    migrations = ROOT / "bot" / "storage" / "migrations"
    shipped = {f"effbatch/{path.relative_to(ROOT)}" for path in migrations.rglob("*.py")}
    assert shipped <= names
    assert "effbatch/bot/storage/migrations/versions/r0001_installations_and_profiles.py" in names


def test_the_wheel_carries_the_data_tables(wheel: zipfile.ZipFile) -> None:
    """Every table core/ keeps as data beside its module (read with importlib.resources) ships in the wheel."""
    tables = {f"effbatch/{path.relative_to(ROOT).as_posix()}" for path in (ROOT / "core").rglob("*.json")}
    assert "effbatch/core/configs/frameworks/_shared/fields_transformers.json" in tables
    assert tables <= set(wheel.namelist())


def test_the_wheel_has_no_tests_or_deploy_files(wheel: zipfile.ZipFile) -> None:
    """Only effbatch's own name and its metadata: no top-level core or bot, no tests, fixtures, deploy or docs."""
    tops = {name.split("/", 1)[0] for name in wheel.namelist()}
    assert tops == {"effbatch", f"effbatch-{VERSION}.dist-info"}
    assert {name.split("/")[1] for name in wheel.namelist() if name.startswith("effbatch/")} == {"core", "bot"}


def test_the_installed_package_leaves_a_repositorys_own_core_alone(wheel: zipfile.ZipFile, tmp_path: Path) -> None:
    """Installed beside a training repository that has its own core/ and bot/: its imports get its packages, and
    effbatch (installed as effbatch.core and effbatch.bot) still checks a config from the command line."""
    site = tmp_path / "site"
    wheel.extractall(site)
    repository = tmp_path / "training"
    for name in ("core", "bot"):
        (repository / name).mkdir(parents=True)
        (repository / name / "__init__.py").write_text(f"OWNER = 'training/{name}'\n")
    probe = "import core, bot, effbatch.core.calculation as c; print(core.OWNER, bot.OWNER, c.__file__)"
    environment = {"PYTHONPATH": str(site), "PATH": str(Path(sys.executable).parent)}
    shown = subprocess.run(
        [sys.executable, "-c", probe], cwd=repository, env=environment, capture_output=True, text=True, timeout=60
    )
    owners_core, owners_bot, effbatch_file = shown.stdout.split()
    assert (owners_core, owners_bot) == ("training/core", "training/bot"), shown.stderr
    assert Path(effbatch_file).is_relative_to(site)
    (repository / "ds.json").write_text('{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 8}')
    cli = "import sys; from effbatch.bot.serving.cli import main; sys.exit(main())"
    check = [sys.executable, "-c", cli, "check", "ds.json", "--world-size", "8"]
    checked = subprocess.run(check, cwd=repository, env=environment, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "DeepSpeed: effektive Batch-Größe 64 Sequenzen" in checked.stdout


def test_one_version_everywhere() -> None:
    """pyproject's version heads the changelog, and every snippet that pins a release pins its tag."""
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(r"^## (\S+)", changelog, re.MULTILINE)[1] == VERSION  # type: ignore[index]
    snippets = [ROOT / "README.md", ROOT / ".pre-commit-hooks.yaml", ROOT / "deploy" / "Dockerfile"]
    snippets += [*sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "deploy").rglob("*.yaml"))]
    pattern = r"(?:rev: |@|effbatch:|effbatch/effbatch@)v?(\d+\.\d+\.\d+)"
    pinned = {path: re.findall(pattern, path.read_text()) for path in snippets}
    assert any(pinned.values())
    assert {path.name: set(found) for path, found in pinned.items() if found} == {
        path.name: {VERSION} for path, found in pinned.items() if found
    }


def test_the_pre_commit_hook_runs_as_pre_commit_would(tmp_path: Path) -> None:
    """The hook's entry with the files its pattern selects (as pre-commit passes them): a clean config passes,
    a DeepSpeed config whose train_batch_size contradicts its factors fails the commit (exit 1)."""
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["language"] == "python"  # pre-commit pip-installs this repository: `effbatch` on the hook's PATH
    data = ROOT / "tests" / "data" / "configs"
    files = [data / "ds_consistent.json", data / "ds_mismatch.json", ROOT / "README.md"]
    selected = [str(path) for path in files if re.search(hook["files"], path.name)]
    assert [Path(name).name for name in selected] == ["ds_consistent.json", "ds_mismatch.json"]
    program, *args = shlex.split(hook["entry"])
    binary = str(Path(sys.executable).parent / program)
    clean = subprocess.run(
        [binary, *args, selected[0], "--world-size", "8"], capture_output=True, text=True, timeout=60
    )
    assert clean.returncode == 0, clean.stdout + clean.stderr
    failing = subprocess.run(
        [binary, *args, *selected, "--world-size", "8"], capture_output=True, text=True, timeout=60
    )
    assert failing.returncode == 1
    assert "train_batch_size = 256" in failing.stdout
