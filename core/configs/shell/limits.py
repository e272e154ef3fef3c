"""The shell reader's bounds: each growth is limited, and reaching a limit is a ``CheckError`` that names it."""

from __future__ import annotations

from effbatch.core.configs.base import CheckError, ProblemKind

#: The longest value or word a script may build (a long Megatron argument string is ~4 KiB).
MAX_VALUE_CHARS = 64 * 1024
#: The most elements an array (or the words of one command) may have.
MAX_ARRAY = 10_000
#: Digits of any integer in ``$((…))``: bash computes with 64 bits and wraps around beyond them (``2**63`` is
#: -9223372036854775808 there), so a value from 2**63 on (19 digits and more) is refused, never wrapped.
MAX_DIGITS = 18
#: Steps of one reading: nodes visited, each ``bash -c``/``eval`` text parsed (a step per 64 bytes). The largest
#: launch script of Megatron-LM's 132 needs ~3.900; a step costs 3-10 µs here, so the bound is ~50-150 ms.
MAX_STEPS = 15_000
#: Steps one loop may take to be run pass by pass (at most half of the reading's steps left); a loop beyond it is
#: read once, what it assigns unknown after it, and the steps of the run given up are not the reading's …
MAX_LOOP_STEPS = MAX_STEPS // 3
#: … but come from these, for all loops of a reading together (~50-150 ms at most).
MAX_GIVEN_UP_STEPS = MAX_STEPS
#: Steps of all readings ``alternatives`` makes together (checked between readings).
MAX_ALTERNATIVE_STEPS = 3 * MAX_STEPS
#: Characters all values and words of one reading may add up to (a 64 KiB launch script produces ~150.000).
MAX_CHARS = 1_000_000
#: Nested constructs: commands in commands, ``bash -c`` and ``eval`` texts, function calls, expansions.
MAX_DEPTH = 100
#: Conditions one reading may find undecided (a real launch script has a handful).
MAX_UNDECIDED = 64
#: CPU time the grammar may take to parse the texts of one reading (64 KiB of a real script take ~10 ms).
MAX_PARSE_SECONDS = 0.25
#: Files sourced one in another (``source a.sh`` in ``source b.sh`` …), and the characters of all files one reading
#: sources together (a file sourced in a loop is read each time).
MAX_SOURCE_DEPTH = 4
MAX_SOURCED_CHARS = 256 * 1024
#: Branch choices enumerated by ``alternatives``.
MAX_ALTERNATIVES = 8

#: Integers in ``$((…))`` stay within -LIMIT … LIMIT - 1, bash's 64 bits.
LIMIT = 2**63


def too_much(detail: str, limit: int, line: int | None = None) -> CheckError:
    """The error a bound raises: ``detail`` names it (``bot.texts.checks.UNREADABLE_REASONS`` words it)."""
    return CheckError(ProblemKind.UNREADABLE, detail=detail, max=limit, line=line)
