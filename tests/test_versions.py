"""Versions as part of a rule: which pins decide that a rule of some releases holds, read as pip reads them
(PEP 440 through ``packaging``), and what the user hears: the framework's refusal, a warning naming both sides, or
nothing where the pinned release does not have the rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from examples_budget import examples
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from effbatch.bot.rendering.checks import finding_text
from effbatch.bot.serving.cli import main
from effbatch.core.configs import Check, Effect, Source, check_config
from effbatch.core.configs.base.versions import Since, holds, pins_in, requirements

CONFIGS = Path(__file__).parent / "data" / "configs"
#: TRL's GRPO config with ``max_prompt_length``: GRPOConfig refuses it from 0.28.0 (#4847), takes it before.
REMOVED = (CONFIGS / "trl" / "07_removed_max_prompt_length.yaml").read_text()
#: TRL's ALST/Ulysses run with wrapped packing: refused before 1.11.0 (#6812, position_ids), fine from then on.
SFT = (
    "model_name_or_path: Qwen/Qwen2.5-0.5B\ndataset_name: trl-lib/Capybara\nper_device_train_batch_size: 1\n"
    "packing: true\npacking_strategy: wrapped\n"
)
ALST = (
    "compute_environment: LOCAL_MACHINE\ndeepspeed_config:\n  zero_stage: 3\ndistributed_type: DEEPSPEED\n"
    "num_machines: 1\nnum_processes: 4\nparallelism_config:\n  parallelism_config_dp_replicate_size: 1\n"
    "  parallelism_config_dp_shard_size: 2\n  parallelism_config_tp_size: 1\n  parallelism_config_sp_size: 2\n"
    "  parallelism_config_sp_backend: deepspeed\n"
)

REFUSED, WARNED, SILENT = "refused", "warned", "silent"

# (the line a requirements.txt beside the config holds, what the user hears of a rule that holds from 0.28.0 on)
SINCE_CASES = [
    ("", WARNED),  # no pin: both sides said
    ("trl==0.18.0", SILENT),  # open-r1's pin: GRPOConfig still had max_prompt_length
    ("trl==0.28.0", REFUSED),
    ("trl==1.16.0", REFUSED),
    ("trl==0.28", REFUSED),  # 0.28 is 0.28.0
    ("trl>=0.29", REFUSED),
    ("trl<0.28", SILENT),
    ("trl<=0.28.0", WARNED),  # 0.27.x and 0.28.0
    ("trl>0.27", WARNED),  # 0.27.1 and 0.28.0
    ("trl>=0.20,<0.30", WARNED),  # reaches both sides
    ("trl==0.28.*", REFUSED),  # the 0.28 line only
    ("trl==0.27.*", SILENT),
    ("trl==1.*", REFUSED),
    ("trl==1.0.*", REFUSED),
    ("trl==0.*", WARNED),  # 0.18 and 0.28 alike
    ("trl~=0.28.0", REFUSED),  # >=0.28.0, ==0.28.*
    ("trl~=0.27.0", SILENT),  # 0.27.x only
    ("trl~=1.0.0", REFUSED),  # 1.0.x only, not [1, 2)
    ("trl~=0.27", WARNED),  # >=0.27, ==0.*: 0.27 up to 0.x
    ("trl~=0.28", REFUSED),  # >=0.28, ==0.*
    ("trl>=0.27,!=0.27.*", REFUSED),  # the exclusion leaves 0.28 on
    ("trl>=0.27,!=0.27.0", WARNED),  # 0.27.1 is left
    ("trl==0.28.0rc1", WARNED),  # whether #4847 is in the candidate of 0.28.0 its number does not say
    ("trl==0.27.0rc1", SILENT),  # a candidate of an older release
    ("trl==0.29.0rc1", REFUSED),
    ("trl>=0.28.0rc1", WARNED),  # the candidates of 0.28.0 and what came after
    ("trl===0.28.0", REFUSED),  # arbitrary equality: this very string
    ("trl===0.18.0", SILENT),
    ("trl===0.28.0-custom", WARNED),  # a string no release is: nothing decided
    ("trl==0.28.0+cu121", REFUSED),  # a local build of 0.28.0
    ("trl==0.18.0+cu121", SILENT),
    ("trl==0.18.0,==0.28.0", WARNED),  # allows nothing: nothing decided
    ("TRL==0.28.0", REFUSED),  # names are case-insensitive
    ('trl[vllm]==0.28.0 ; python_version >= "3.10"', REFUSED),  # extras and markers
    ("trl==0.28.0 --hash=sha256:0123abcd", REFUSED),  # pip's hash-checking mode
    ("trl==0.28.0 \\", REFUSED),  # a line continued
    ("trl @ git+https://github.com/huggingface/trl", WARNED),  # no version said
    ("trl==not-a-version", WARNED),
]

# (the requirements line, what the user hears of a rule that holds before 1.11.0)
UNTIL_CASES = [
    ("", WARNED),
    ("trl==1.10.0", REFUSED),
    ("trl==1.11.0", SILENT),
    ("trl==1.10.*", REFUSED),
    ("trl==1.11.*", SILENT),
    ("trl==1.0.*", REFUSED),  # the 1.0 line only, not [1, 2)
    ("trl~=1.0.0", REFUSED),  # 1.0.x only, not [1, 2)
    ("trl~=1.10.0", REFUSED),  # 1.10.x only
    ("trl~=1.10", WARNED),  # 1.10 up to 1.x
    ("trl<1.11", REFUSED),
    ("trl<=1.11", WARNED),
    ("trl>=1.9,!=1.10.*,<1.12", WARNED),  # 1.9.x and 1.11.x
    ("trl>=1.9,!=1.11.*,<1.12", REFUSED),  # 1.9.x and 1.10.x
    ("trl==1.11.0rc2", WARNED),  # whether #6812 is in the candidate of 1.11.0 its number does not say
    ("trl==1.10.0+cu121", REFUSED),
    ("trl===1.11.0", SILENT),
]


def heard(check: Check, code: str) -> str:
    """What the user hears of one rule: the refusal, a warning naming both sides, or nothing."""
    found = [f for f in check.findings if f.code == code]
    if not found:
        return SILENT
    [finding] = found
    text = finding_text(check, finding)
    if finding.unpinned is not None:
        assert finding.effect is Effect.PITFALL
        assert text.startswith(("Betrifft TRL ab `0.28.0`", "Betrifft TRL vor `1.11.0`"))
        assert "welche Version läuft, geht aus keiner Datei hervor" in text
        assert "Gib die Version an – `--framework-version trl==…`" in text
        return WARNED
    assert finding.effect is Effect.REFUSED
    assert check.refused
    assert not text.startswith("Betrifft")
    return REFUSED


def pinned(line: str) -> list[Source]:
    return [Source("requirements.txt", line + "\n")] if line else []


@pytest.mark.parametrize(("line", "expected"), SINCE_CASES, ids=[c[0] or "no pin" for c in SINCE_CASES])
def test_a_pin_decides_a_rule_from_a_release_on(line: str, expected: str) -> None:
    """A requirements.txt beside the config decides a rule from 0.28.0 on: refused, warned both ways, or silent."""
    check = check_config([Source("grpo.yaml", REMOVED), *pinned(line)])
    assert heard(check, "trl/max-prompt-length-removed") == expected


@pytest.mark.parametrize(("line", "expected"), UNTIL_CASES, ids=[c[0] or "no pin" for c in UNTIL_CASES])
def test_a_pin_decides_a_rule_until_a_release(line: str, expected: str) -> None:
    """A requirements.txt beside the config decides a rule before 1.11.0: refused, warned both ways, or silent."""
    check = check_config([Source("sft.yaml", SFT), Source("alst.yaml", ALST), *pinned(line)])
    assert heard(check, "trl/sft-ulysses-position-ids") == expected


# (``--framework-version``, exit code: 1 refused, 0 a warning or nothing, the finding's line or None)
CLI_CASES = [
    ("trl==0.28.*", 1, "• ✖ Fehler: max_prompt_length gibt es in GRPOConfig seit Januar 2026"),
    ("trl~=1.0.0", 1, "• ✖ Fehler: max_prompt_length gibt es in GRPOConfig seit Januar 2026"),
    ("trl>=0.27,!=0.27.*", 1, "• ✖ Fehler: max_prompt_length gibt es in GRPOConfig seit Januar 2026"),
    ("trl==0.28.0rc1", 0, "• ⚠ Warnung: Betrifft TRL ab 0.28.0"),
    ("trl~=0.27.0", 0, None),
]


@pytest.mark.parametrize(("pin", "code", "line"), CLI_CASES)
def test_the_command_line_takes_every_pin_form(
    capsys: pytest.CaptureFixture[str], pin: str, code: int, line: str | None
) -> None:
    """``--framework-version`` takes what a requirements line takes; CI fails only where the pin decides a refusal."""
    config = str(CONFIGS / "trl" / "07_removed_max_prompt_length.yaml")
    assert main(["check", config, "--framework-version", pin]) == code
    out = capsys.readouterr().out
    said = [text for text in out.splitlines() if "GRPOConfig seit Januar 2026" in text]
    assert [text[: len(line or "")] for text in said] == ([line] if line else [])


def test_the_command_line_refuses_a_pin_pip_would_not_read(capsys: pytest.CaptureFixture[str]) -> None:
    """``--framework-version trl==kaputt`` is a usage error naming what was given, not a silent no-pin."""
    config = str(CONFIGS / "trl" / "07_removed_max_prompt_length.yaml")
    assert main(["check", config, "--framework-version", "trl==kaputt"]) == 2
    assert "trl==kaputt" in capsys.readouterr().err


# (rule, pin, whether it holds: True every allowed release, False none, None the pin does not decide)
BOTH_ENDS = Since("verl", since="0.2.0", until="0.5.0")
HOLDS_CASES = [
    (BOTH_ENDS, "==0.1", False),
    (BOTH_ENDS, "==0.2.0", True),
    (BOTH_ENDS, "~=0.4.0", True),
    (BOTH_ENDS, "==0.5.0", False),
    (BOTH_ENDS, ">=0.3,<0.6", None),
    (BOTH_ENDS, "==0.5.0rc1", None),  # the candidate of the release that ended it
    (BOTH_ENDS, "!=0.3.0", None),
    (Since("verl"), "==0.1", True),  # no bounds: every release
]


@pytest.mark.parametrize(("rule", "pin", "expected"), HOLDS_CASES)
def test_a_pin_inside_a_range_with_both_ends(rule: Since, pin: str, expected: bool | None) -> None:
    """A rule of the releases from one version until another holds for a pin inside, not for one outside."""
    assert holds(rule, {"verl": pin}) is expected


def test_the_releases_a_rule_holds_for_are_a_specifier_set() -> None:
    """``Since`` says its releases as PEP 440 specifiers, the form a requirements file uses."""
    assert str(BOTH_ENDS.releases()) == "<0.5.0,>=0.2.0"
    assert "0.4.2" in BOTH_ENDS.releases()
    assert "0.5.0" not in BOTH_ENDS.releases()


def test_pins_are_read_where_repositories_write_them() -> None:
    """requirements lines, pyproject's dependencies, conda's and pip's lists in environment.yml, setup.py."""
    lines = ["trl==0.18.0  # GRPO", "transformers>=4.46, <5", "-r base.txt", "torch", "Flash_Attn==2.7"]
    assert requirements(lines) == {
        "trl": "==0.18.0",
        "transformers": "<5,>=4.46",
        "flash-attn": "==2.7",
    }
    assert pins_in({"project": {"dependencies": ["trl==0.14.0"]}}) == {"trl": "==0.14.0"}
    assert pins_in({"tool": {"poetry": {"dependencies": {"trl": "0.14.0", "torch": "^2.1"}}}}) == {"trl": "==0.14.0"}
    assert pins_in({"dependencies": ["python=3.10", "pytorch=2.1.*", {"pip": ["deepspeed==0.15.4"]}]}) == {
        "python": "==3.10",
        "pytorch": "==2.1.*",
        "deepspeed": "==0.15.4",
    }
    setup = "from setuptools import setup\nsetup(name='open-r1', install_requires=['trl==0.18.0'])\n"
    grpo = "num_generations: 8\nper_device_train_batch_size: 4\nmax_prompt_length: 512\nnum_processes: 2\n"
    check = check_config([Source("g.yaml", grpo), Source("setup.py", setup)])
    assert "trl/max-prompt-length-removed" not in {f.code for f in check.findings}


#: Releases around the bounds the rules use, each with the forms PEP 440 orders around it.
RELEASES = ["0.9", "0.27", "0.27.1", "0.28.0", "0.28.1", "0.29", "1.0", "1.0.1", "1.11.0", "2.0"]
GRID = [Version(r + suffix) for r in RELEASES for suffix in ("", ".dev0", "a1", "rc1", "rc2", ".post1", "+cu121")]
OPERATORS = ["==", "!=", ">=", "<=", ">", "<", "~=", "===", "==*", "!=*"]


def specifier(operator: str, version: Version) -> str:
    """``==*`` and ``!=*`` as a prefix match on the release: ``==0.28.*``."""
    if operator.endswith("*"):
        return f"{operator[:2]}{'.'.join(map(str, version.release))}.*"
    return f"{operator}{version}"


@settings(max_examples=examples(2000), deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(
    st.lists(st.tuples(st.sampled_from(OPERATORS), st.sampled_from(GRID)), min_size=1, max_size=3),
    st.sampled_from([None, *RELEASES]),
    st.sampled_from([None, *RELEASES]),
)
def test_a_decided_pin_agrees_with_packaging_release_by_release(
    parts: list[tuple[str, Version]], since: str | None, until: str | None
) -> None:
    """Where a pin decides a rule, every release of the grid the pin admits (as packaging's ``contains`` says, with
    pip's pre-release policy) lies inside the rule's releases (it holds) or outside them (it does not)."""
    text = ",".join(specifier(operator, version) for operator, version in parts)
    try:
        pin = SpecifierSet(text)
    except InvalidSpecifier:
        assume(False)
        raise
    rule = Since("trl", since, until)
    admitted = [v for v in GRID if pin.contains(v, prereleases=bool(pin.prereleases))]
    inside = [v in rule.releases(prereleases=True) for v in admitted]
    outside = [any(v in releases for releases in rule.elsewhere(prereleases=True)) for v in admitted]
    decided = holds(rule, {"trl": text})
    assert decided is not True or all(inside)
    assert decided is not False or all(outside)
