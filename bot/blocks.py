"""Block Kit messages, built by pure functions from slack_sdk's typed block classes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from slack_sdk.models.blocks import (
    Block,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    SectionBlock,
)

from bot import texts
from bot.formatting import number, rounded
from core import Argument, BatchResult, InputError


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


def _section(mrkdwn: str) -> SectionBlock:
    return SectionBlock(text=MarkdownTextObject(text=mrkdwn))


def _context(mrkdwn: str) -> ContextBlock:
    return ContextBlock(elements=[MarkdownTextObject(text=mrkdwn)])


def batch_formula(result: BatchResult) -> str:
    """'B = b · d · a = 8 × 64 × 4 = 2.048'."""
    setup = result.setup
    factors = " × ".join(number(v) for v in (setup.micro_batch, setup.data_parallel, setup.accumulation))
    return f"B = b · d · a = {factors} = {number(result.global_batch)}"


def token_formula(result: BatchResult) -> str | None:
    """'T = B · L = 2.048 × 4.096 = 8.388.608', or None without L."""
    if result.tokens_per_step is None or result.setup.seq_len is None:
        return None
    return (
        f"T = B · L = {number(result.global_batch)} × {number(result.setup.seq_len)} = {number(result.tokens_per_step)}"
    )


def _input_fields(result: BatchResult) -> SectionBlock:
    values = result.setup.model_dump()
    return SectionBlock(
        fields=[
            MarkdownTextObject(text=f"*{texts.label(argument)}*\n{number(values[argument.value])}")
            for argument in Argument
            if values[argument.value] is not None
        ]
    )


def result_message(result: BatchResult, visibility: Visibility) -> Message:
    """The answer to a calculation: header with B, inputs, breakdown, limits."""
    b_formula, t_formula = batch_formula(result), token_formula(result)
    reading = None if result.tokens_per_step is None else rounded(result.tokens_per_step)
    blocks: list[Block] = [
        HeaderBlock(text=texts.result_header(number(result.global_batch))),
        _input_fields(result),
        _section(f"*{texts.GLOBAL_BATCH_TITLE}*\n`{b_formula}`"),
    ]
    if t_formula is not None:
        suffix = f"  ({texts.tokens_rounded(reading)})" if reading else f" {texts.TOKENS_UNIT}"
        blocks.append(_section(f"*{texts.TOKENS_TITLE}*\n`{t_formula}`{suffix}"))
    else:
        blocks.append(_section(texts.TOKENS_HINT))
    blocks.append(_context(texts.MODEL_LIMITS))
    return Message(
        text=texts.result_fallback(b_formula, t_formula, reading), blocks=tuple(blocks), visibility=visibility
    )


def error_message(error: InputError) -> Message:
    """What was wrong, what is expected, an example; always only to the caller."""
    lines = texts.problem_lines(error.problems)
    blocks = (
        _section(f":warning: *{texts.ERROR_TITLE}*\n" + "\n".join(f"• {line}" for line in lines)),
        _context(texts.ERROR_USAGE),
    )
    return Message(text=texts.error_fallback(lines), blocks=blocks, visibility=Visibility.EPHEMERAL)


def help_message(default_visibility: Visibility) -> Message:
    """Usage, every key with its aliases, number formats, examples; only to the caller."""
    blocks = (
        HeaderBlock(text=texts.HELP_TITLE),
        _section(texts.HELP_INTRO),
        DividerBlock(),
        _section(texts.HELP_USAGE),
        _section(texts.help_keys()),
        _section(texts.help_numbers()),
        _section(texts.HELP_EXAMPLES),
        _context(texts.help_visibility(default_visibility is Visibility.IN_CHANNEL)),
    )
    return Message(text=texts.HELP_TITLE, blocks=blocks, visibility=Visibility.EPHEMERAL)
