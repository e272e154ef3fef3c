"""Block Kit messages, built by pure functions from slack_sdk's typed block classes.

One layout per kind of answer: a plan (B and T, with whatever was derived), a target
that whole numbers do not reach (the nearest options), a comparison, an error, the help.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    SectionBlock,
)

from bot import formulas, texts, whatif
from bot.formatting import byte_size, decimal, number, rounded, significant
from core import Argument, Comparison, InputError, Outcome, Plan
from core.model import FACTORS, Solution


class Visibility(StrEnum):
    """Slack's ``response_type``: the whole channel or only the caller."""

    IN_CHANNEL = "in_channel"
    EPHEMERAL = "ephemeral"


@dataclass(frozen=True)
class Message:
    """A complete slash-command answer: fallback text, blocks and visibility."""

    text: str
    blocks: tuple[Block, ...]
    visibility: Visibility

    def to_slack(self) -> dict[str, Any]:
        """The payload Slack receives (``ack(**message.to_slack())``)."""
        return {
            "response_type": self.visibility.value,
            "text": self.text,
            "blocks": [block.to_dict() for block in self.blocks],
        }

    def replacing(self) -> dict[str, Any]:
        """The payload that replaces the message a button was clicked on (its visibility stays)."""
        return {"replace_original": True, "text": self.text, "blocks": [block.to_dict() for block in self.blocks]}


def _section(mrkdwn: str) -> SectionBlock:
    return SectionBlock(text=MarkdownTextObject(text=mrkdwn))


def _titled(title: str, formula: str, note: str = "") -> SectionBlock:
    return _section(f"*{title}*\n`{formula}`{note}")


def _context(mrkdwn: str) -> ContextBlock:
    return ContextBlock(elements=[MarkdownTextObject(text=mrkdwn)])


def _field(title: str, value: str) -> MarkdownTextObject:
    return MarkdownTextObject(text=f"*{title}*\n{value}")


# --- plans --------------------------------------------------------------------------------


def _input_fields(plan: Plan, outcome: Outcome | None) -> SectionBlock:
    """The values as understood: given, derived from the GPUs, or solved for."""
    request, solved = plan.request, plan.solution.argument if plan.solution else None
    fields = []
    for argument in (*FACTORS, Argument.SEQ_LEN):
        value = getattr(outcome.setup, argument.value) if outcome else request.value(argument)
        if value is None:
            continue
        mark = ""
        if argument is solved:
            mark = f" {texts.SOLVED_MARK}"
        elif argument is Argument.DATA_PARALLEL and request.gpus is not None:
            mark = f" {texts.DERIVED_MARK}"
        fields.append(_field(texts.label(argument), number(value) + mark))
    parallelism = outcome.parallelism if outcome else None
    if parallelism is not None:
        fields.append(_field(texts.label(Argument.GPUS), number(parallelism.gpus)))
        shown = formulas.degrees((parallelism.tp, parallelism.pp, parallelism.cp, parallelism.sp))
        fields.append(_field(texts.MODEL_PARALLEL_FIELD, shown))
    if plan.solution is not None:
        target = plan.solution.target
        fields.append(_field(texts.label(target.argument), number(target.value)))
    if request.budget is not None:
        fields.append(_field(texts.label(Argument.BUDGET), number(request.budget)))
    if request.activation_per_sample is not None:
        fields.append(_field(texts.label(Argument.ACTIVATION), byte_size(request.activation_per_sample)))
    return SectionBlock(fields=fields)


def _token_section(outcome: Outcome) -> SectionBlock:
    formula = formulas.tokens(outcome)
    if formula is None or outcome.tokens_per_step is None:
        return _section(texts.TOKENS_HINT)
    reading = rounded(outcome.tokens_per_step)
    note = f"  ({texts.tokens_rounded(reading)})" if reading else f" {texts.TOKENS_UNIT}"
    return _titled(texts.TOKENS_TITLE, formula, note)


def _solution_section(plan: Plan, solution: Solution) -> SectionBlock:
    return _titled(texts.solved_title(solution.argument), formulas.solution(plan, solution))


def _derived_sections(outcome: Outcome) -> list[Block]:
    """GPUs ↔ d, optimizer steps for a budget, activation memory: each where it applies."""
    blocks: list[Block] = []
    if outcome.parallelism is not None:
        title = texts.GPUS_TITLE if outcome.parallelism.gpus_given else texts.GPUS_DERIVED_TITLE
        blocks.append(_titled(title, formulas.data_parallel(outcome.parallelism, outcome.setup.data_parallel)))
    if (steps := formulas.optimizer_steps(outcome)) is not None and outcome.budget is not None:
        reading = rounded(outcome.budget)
        blocks.append(_titled(texts.BUDGET_TITLE, steps, f"  ({texts.budget_reading(reading)})" if reading else ""))
    if (memory := formulas.activation(outcome)) is not None:
        blocks.append(_titled(texts.ACTIVATION_TITLE, memory, f"\n{texts.ACTIVATION_NOTE}"))
    return blocks


def _closing(blocks: list[Block], context: str, actions: ActionsBlock, note: str | None) -> tuple[Block, ...]:
    """The context line, the what-if buttons and, after a click, who changed the answer."""
    blocks += [_context(context), actions]
    if note is not None:
        blocks.append(_context(note))
    return tuple(blocks)


def plan_message(plan: Plan, visibility: Visibility, note: str | None = None) -> Message:
    """The answer to one setup: B (and T) with every derived value broken down, and what-if buttons."""
    if plan.outcome is None:
        return _unreachable_message(plan, visibility, note)
    outcome = plan.outcome
    blocks: list[Block] = [
        HeaderBlock(text=texts.result_header(number(outcome.global_batch))),
        _input_fields(plan, outcome),
    ]
    if plan.solution is not None:
        blocks.append(_solution_section(plan, plan.solution))
    blocks += [_titled(texts.GLOBAL_BATCH_TITLE, formulas.batch(outcome)), _token_section(outcome)]
    blocks += _derived_sections(outcome)
    reading = rounded(outcome.tokens_per_step) if outcome.tokens_per_step else None
    fallback = texts.result_fallback(formulas.batch(outcome), formulas.tokens(outcome), reading)
    closed = _closing(blocks, texts.MODEL_LIMITS, whatif.plan_actions(plan), note)
    return Message(text=fallback, blocks=closed, visibility=visibility)


def _unreachable_message(plan: Plan, visibility: Visibility, note: str | None) -> Message:
    """A target whole numbers miss: the division, then the nearest feasible values below and above."""
    solution = plan.solution
    assert solution is not None  # only a solved-for factor can miss
    symbol = solution.argument.symbol
    lines = []
    for option in plan.options:
        tokens = number(option.tokens_per_step) if option.tokens_per_step else None
        steps = number(option.optimizer_steps) if option.optimizer_steps else None
        value = getattr(option.setup, solution.argument.value)
        lines.append(texts.option_line(symbol, number(value), number(option.global_batch), tokens, steps))
    blocks: list[Block] = [
        HeaderBlock(text=texts.unreachable_header(solution.target.argument, number(solution.target.value))),
        _input_fields(plan, None),
        _solution_section(plan, solution),
        _section(texts.unreachable_explanation(solution.argument) + "\n" + "\n".join(lines)),
    ]
    choices = [(number(getattr(o.setup, solution.argument.value)), number(o.global_batch)) for o in plan.options]
    target = f"{solution.target.argument.symbol} = {number(solution.target.value)}"
    closed = _closing(blocks, texts.MODEL_LIMITS, whatif.plan_actions(plan), note)
    return Message(text=texts.unreachable_fallback(symbol, target, choices), blocks=closed, visibility=visibility)


# --- comparisons ------------------------------------------------------------------------------


def _side_field(title: str, plan: Plan, outcome: Outcome) -> MarkdownTextObject:
    setup = outcome.setup
    values = ", ".join(
        f"{a.symbol} = {number(v)}" for a in (*FACTORS, Argument.SEQ_LEN) if (v := getattr(setup, a.value)) is not None
    )
    lines = [f"*{title}*", values, f"B = {number(outcome.global_batch)}"]
    if outcome.tokens_per_step is not None:
        lines.append(f"T = {number(outcome.tokens_per_step)}")
    if plan.solution is not None:
        lines.append(f"{plan.solution.argument.symbol} {texts.SOLVED_MARK}")
    return MarkdownTextObject(text="\n".join(lines))


def _derived_formulas(plan: Plan, outcome: Outcome) -> list[str]:
    """Every value of one side that was derived rather than given, as its formula."""
    found = []
    if outcome.parallelism is not None:
        found.append(formulas.data_parallel(outcome.parallelism, outcome.setup.data_parallel))
    if plan.solution is not None:
        found.append(formulas.solution(plan, plan.solution))
    found += [f for f in (formulas.optimizer_steps(outcome), formulas.activation(outcome)) if f is not None]
    return found


def comparison_message(comparison: Comparison, visibility: Visibility, note: str | None = None) -> Message:
    """Both setups, k = B₂ / B₁ and the learning-rate rules, with a warmup warning from k ≥ 8 on."""
    before, after = comparison.before, comparison.after
    k, sqrt_k = decimal(float(comparison.factor)), decimal(comparison.sqrt_factor)
    blocks: list[Block] = [
        HeaderBlock(text=texts.comparison_header(k, number(before.global_batch), number(after.global_batch))),
        SectionBlock(
            fields=[
                _side_field(texts.BEFORE, comparison.before_plan, before),
                _side_field(texts.AFTER, comparison.after_plan, after),
            ]
        ),
    ]
    for title, side_plan, outcome in (
        (texts.BEFORE, comparison.before_plan, before),
        (texts.AFTER, comparison.after_plan, after),
    ):
        if derived := _derived_formulas(side_plan, outcome):
            blocks.append(_section(f"*{texts.derived_title(title)}*\n" + "\n".join(f"`{f}`" for f in derived)))
    blocks += [
        _titled(texts.FACTOR_TITLE, formulas.factor(comparison.factor, before.global_batch, after.global_batch)),
        _section(_learning_rate_text(comparison, k, sqrt_k)),
    ]
    if comparison.factor >= 8:
        blocks.append(_section(texts.WARMUP_WARNING))
    blocks.append(DividerBlock())
    context = f"{texts.RULES_OF_THUMB} {texts.MODEL_LIMITS}"
    closed = _closing(blocks, context, whatif.comparison_actions(comparison), note)
    fallback = texts.comparison_fallback(k, number(before.global_batch), number(after.global_batch), sqrt_k)
    return Message(text=fallback, blocks=closed, visibility=visibility)


def _learning_rate_text(comparison: Comparison, k: str, sqrt_k: str) -> str:
    if comparison.factor == 1:
        return f"*{texts.LR_TITLE}*\n{texts.LR_UNCHANGED}"
    rates = comparison.lr
    base = significant(rates.base) if rates else None
    lines = [
        f"*{texts.LR_TITLE}*",
        texts.lr_line(texts.LR_LINEAR, k, base, significant(rates.linear) if rates else None),
        texts.lr_line(texts.LR_SQRT, sqrt_k, base, significant(rates.sqrt) if rates else None),
    ]
    if rates is None:
        lines.append(texts.LR_HINT)
    return "\n".join(lines)


# --- errors and help --------------------------------------------------------------------------


def error_message(error: InputError) -> Message:
    """What was wrong, what is expected, an example; always only to the caller."""
    lines = texts.problem_lines(error.problems)
    blocks = (
        _section(f":warning: *{texts.ERROR_TITLE}*\n" + "\n".join(f"• {line}" for line in lines)),
        _context(texts.ERROR_USAGE),
    )
    return Message(text=texts.error_fallback(lines), blocks=blocks, visibility=Visibility.EPHEMERAL)


def help_message(default_visibility: Visibility) -> Message:
    """Usage, every key with its aliases and an example, number formats; only to the caller."""
    blocks = (
        HeaderBlock(text=texts.HELP_TITLE),
        _section(texts.HELP_INTRO),
        DividerBlock(),
        _section(texts.HELP_USAGE),
        *(_section(section) for section in texts.help_keys()),
        _context(texts.HELP_CASE),
        _section(texts.help_numbers()),
        _section(texts.HELP_EXAMPLES),
        _context(texts.WHATIF_HELP),
        _context(texts.help_visibility(default_visibility is Visibility.IN_CHANNEL)),
    )
    return Message(text=texts.HELP_TITLE, blocks=blocks, visibility=Visibility.EPHEMERAL)
