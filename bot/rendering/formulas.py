"""Each derived value as its formula with the numbers filled in, German-formatted.

``B = b · d · a = 8 × 64 × 4 = 2.048`` — the symbols, the values, the result.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

from effbatch.bot.rendering.formatting import byte_size, decimal, number
from effbatch.bot.texts import answers as texts
from effbatch.core import FACTORS, MODEL_PARALLEL, Argument, Outcome, Plan
from effbatch.core.model import Parallelism, Solution


def batch(outcome: Outcome) -> str:
    """'B = b · d · a = 8 × 64 × 4 = 2.048'."""
    setup = outcome.setup
    factors = " × ".join(number(v) for v in (setup.micro_batch, setup.data_parallel, setup.accumulation))
    return f"B = b · d · a = {factors} = {number(outcome.global_batch)}"


def tokens(outcome: Outcome) -> str | None:
    """'T = B · L = 2.048 × 4.096 = 8.388.608', or None without L."""
    if outcome.tokens_per_step is None or outcome.setup.seq_len is None:
        return None
    return (
        f"T = B · L = {number(outcome.global_batch)} × {number(outcome.setup.seq_len)} "
        f"= {number(outcome.tokens_per_step)}"
    )


def data_parallel(parallelism: Parallelism, d: int) -> str:
    """'d = GPUs / (TP · PP · CP · SP) = 512 / (8 · 2 · 1 · 1) = 32', or the GPU count from d."""
    shown = degrees(_degrees(parallelism))
    if parallelism.gpus_given:
        return f"d = GPUs / (TP · PP · CP · SP) = {number(parallelism.gpus)} / ({shown}) = {number(d)}"
    return f"GPUs = d · TP · PP · CP · SP = {number(d)} · {shown} = {number(parallelism.gpus)}"


def degrees(values: Iterable[int]) -> str:
    """TP, PP, CP, SP as in the formulas: '8 · 2 · 1 · 1'."""
    return " · ".join(number(v) for v in values)


def _degrees(parallelism: Parallelism) -> list[int]:
    return [getattr(parallelism, a.value) for a in MODEL_PARALLEL]


def solution(plan: Plan, solved: Solution) -> str:
    """'a = B / (b · d) = 2.048 / (2 · 8) = 128'; a quotient that is not whole ends in '…'."""
    request, reference = plan.request, plan.reference
    others = [a for a in FACTORS if a is not solved.argument]
    symbols = [a.symbol for a in others]
    values = [getattr(reference.setup, a.value) if reference else request.value(a) for a in others]
    if solved.target.argument is Argument.TARGET_TOKENS:
        symbols.append("L")
        values.append(request.seq_len)
    target = solved.target.argument.symbol
    shown = " · ".join(number(v) for v in values if v is not None)
    return (
        f"{solved.argument.symbol} = {target} / ({' · '.join(symbols)}) = "
        f"{number(solved.target.value)} / ({shown}) = {quotient(solved.quotient)}"
    )


#: Decimal places an exact quotient is shown with before it is cut and marked with '…'.
EXACT_PLACES = 4


def quotient(value: Fraction) -> str:
    """Exact values as they are (128; 0,5; 15,625), others cut after two decimals and marked: 83,33…."""
    if value.denominator == 1:
        return number(value.numerator)
    if (value * 10**EXACT_PLACES).denominator == 1:
        return decimal(float(value), "#,##0.####")
    cut = Fraction(math.floor(value * 100), 100)
    return decimal(float(cut), "#,##0.00") + "…"


def optimizer_steps(outcome: Outcome) -> str | None:
    """'Schritte = ⌈Budget / T⌉ = ⌈2.000.000.000.000 / 8.388.608⌉ = 238.419'."""
    if outcome.optimizer_steps is None or outcome.budget is None or outcome.tokens_per_step is None:
        return None
    return (
        f"{texts.STEPS} = ⌈{texts.BUDGET} / T⌉ = ⌈{number(outcome.budget)} / {number(outcome.tokens_per_step)}⌉ "
        f"= {number(outcome.optimizer_steps)}"
    )


def activation(outcome: Outcome) -> str | None:
    """'b · act = 8 × 1,5 GiB = 12 GiB'."""
    if outcome.activation is None:
        return None
    act = outcome.activation
    return f"b · act = {number(outcome.setup.micro_batch)} × {byte_size(act.per_sample)} = {byte_size(act.per_device)}"


def factor(comparison_factor: Fraction, before: int, after: int) -> str:
    """'k = B₂ / B₁ = 16.384 / 2.048 = 8'."""
    return f"k = B₂ / B₁ = {number(after)} / {number(before)} = {quotient(comparison_factor)}"
