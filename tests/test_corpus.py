"""The users' corpus as a table test: every case agrees with its framework's own code, or is named in
``tests/data/corpus/known.toml`` with why (then it is expected to disagree, strictly: a fixed one must leave the
list). ``docs/corpus.md`` says the agreement as the code has it now.
"""

from __future__ import annotations

import pytest
from corpus import PAGE, Case, cases, differences, known, page, run

CASES = cases()
KNOWN = known()


def test_the_corpus_is_there() -> None:
    """Real runs of users' repositories, across the frameworks (an empty corpus would pass every row)."""
    assert len(CASES) >= 1
    assert not set(KNOWN) - {case.name for case in CASES}, "known.toml names a case that does not exist"


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=pytest.mark.xfail(reason=KNOWN[c.name], strict=True)) if c.name in KNOWN else c
        for c in CASES
    ],
    ids=lambda c: c.name,
)
def test_a_users_run_gets_its_frameworks_numbers(case: Case) -> None:
    """effbatch's numbers for the case are the framework's own (or it refuses where the framework refuses)."""
    assert differences(case, run(case)) == {}


def test_the_agreement_page_is_current() -> None:
    """docs/corpus.md states the agreement the code has now."""
    assert PAGE.read_text(encoding="utf-8") == page(), "regenerate: .venv/bin/python tests/corpus.py"
