"""What the framework tables of tests/test_frameworks_*.py compare: a check's numbers and its answer as text."""

from __future__ import annotations

from effbatch.bot.document import Visibility
from effbatch.bot.rendering.checks import check_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Check


def numbers(check: Check) -> tuple[int | None, ...]:
    """(world, d, b, a, B, L, T) as the framework will use them."""
    world = check.world.size if check.world else None
    return (
        world,
        check.data_parallel,
        check.micro_batch,
        check.accumulation,
        check.global_batch,
        check.seq_len,
        check.tokens_per_step,
    )


def shown(check: Check) -> str:
    """The answer as the terminal prints it."""
    return plain_text(check_answer(check, Visibility.IN_CHANNEL).document, choices=False)
