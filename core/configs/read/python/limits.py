"""The Python reader's bounds: every growth is limited, and reaching a limit is a ``CheckError`` that names it."""

from __future__ import annotations

from effbatch.core.configs.base import CheckError, ProblemKind

#: Statements and expressions evaluated in one reading (a long training script needs a few thousand).
MAX_STEPS = 200_000
#: Nested expressions and calls followed into each other.
MAX_DEPTH = 64
#: User functions followed into each other (``main()`` calling ``train(args)`` …).
MAX_CALL_DEPTH = 8
#: Passes of one loop; a longer loop leaves what it assigns unknown.
MAX_ITERATIONS = 10_000
#: Steps one loop may take (a training loop ``while True`` runs until ``max_iters``): beyond them the loop is left,
#: what it assigns unknown, and the reading goes on.
MAX_LOOP_STEPS = 20_000
#: The largest magnitude a number may reach (a batch of tokens is ~10¹⁰); beyond it a value is unknown.
MAX_MAGNITUDE = 10**30
#: Elements of one list, tuple, dict or set built.
MAX_ITEMS = 10_000
#: Characters of one string built.
MAX_STRING = 65_536


def too_much(detail: str, limit: int, line: int | None = None) -> CheckError:
    """The error a bound raises: ``detail`` names it (``bot.texts.checks`` words it)."""
    return CheckError(ProblemKind.UNREADABLE, detail=detail, max=limit, line=line)
