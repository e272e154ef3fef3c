"""The German texts as a whole: one template per problem kind."""

from __future__ import annotations

from bot.texts.problems import TEMPLATES
from core import ProblemKind


def test_every_problem_kind_has_a_text() -> None:
    """No problem the core can report is left without its German message, and no message without a problem."""
    assert set(TEMPLATES) == set(ProblemKind)
