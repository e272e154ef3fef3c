"""Versions as part of a rule: which pins decide that a rule of some releases holds, and where pins are read."""

from __future__ import annotations

import pytest

from effbatch.core.configs import Source, check_config
from effbatch.core.configs.base.versions import Since, holds, pins_in, release, requirements

REMOVED = Since("trl", since="0.28.0")  # TRL #4847: max_prompt_length removed from GRPOConfig
COUNTED_PROMPTS = Since("trl", until="0.15.0")  # TRL #2776: per_device_train_batch_size counted prompts before

# (rule, pin, whether it holds: True every allowed release, False none, None the pin does not decide)
CASES = [
    (REMOVED, "", None),  # no pin
    (REMOVED, "==0.18.0", False),  # open-r1's pin (setup.py)
    (REMOVED, "==0.28.0", True),
    (REMOVED, "==1.16.0", True),
    (REMOVED, ">=0.29", True),
    (REMOVED, "<0.20", False),
    (REMOVED, ">=0.20,<0.30", None),  # reaches both sides
    (REMOVED, "==0.28.*", True),
    (REMOVED, "~=0.27.0", False),  # 0.27.x only
    (COUNTED_PROMPTS, "==0.14.0", True),  # philschmid's mini-deepseek-r1 pin
    (COUNTED_PROMPTS, "==0.15.0", False),
    (COUNTED_PROMPTS, ">=0.12,<0.15", True),
]


@pytest.mark.parametrize(("rule", "pin", "expected"), CASES, ids=[f"{c[0].since or c[0].until}-{c[1]}" for c in CASES])
def test_a_pin_decides_a_rule_of_some_releases(rule: Since, pin: str, expected: bool | None) -> None:
    """Every release the pin allows inside the rule's range: it holds; none: it does not; else undecided."""
    assert holds(rule, {"trl": pin} if pin else {}) is expected


def test_releases_compare_as_numbers() -> None:
    """0.9 < 0.28 < 1.16; suffixes and trailing zeros do not count."""
    assert release("0.9.0") < release("0.28") < release("1.16.0rc1")
    assert release("0.28.0") == release("0.28")


def test_pins_are_read_where_repositories_write_them() -> None:
    """requirements lines, pyproject's dependencies, conda's and pip's lists in environment.yml, setup.py."""
    assert requirements(["trl==0.18.0  # GRPO", "transformers>=4.46, <5", "-r base.txt", "torch"]) == {
        "trl": "==0.18.0",
        "transformers": ">=4.46,<5",
    }
    assert pins_in({"project": {"dependencies": ["trl==0.14.0"]}}) == {"trl": "==0.14.0"}
    assert pins_in({"dependencies": ["python=3.10", {"pip": ["deepspeed==0.15.4"]}]}) == {
        "python": "==3.10",
        "deepspeed": "==0.15.4",
    }
    setup = "from setuptools import setup\nsetup(name='open-r1', install_requires=['trl==0.18.0'])\n"
    grpo = "num_generations: 8\nper_device_train_batch_size: 4\nmax_prompt_length: 512\nnum_processes: 2\n"
    check = check_config([Source("g.yaml", grpo), Source("setup.py", setup)])
    assert "trl/max-prompt-length-removed" not in {f.code for f in check.findings}
