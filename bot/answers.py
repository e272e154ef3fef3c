"""From command text to the message Slack gets: parse, compute, build. Pure."""

from __future__ import annotations

from bot.blocks import Message, Visibility, error_message, help_message, result_message
from core import CalculationRequest, HelpRequest, InputError, compute, parse_command


def answer_command(text: str, default_visibility: Visibility) -> tuple[str, Message]:
    """The kind of answer (for logs and metrics) and the message for ``text``."""
    try:
        request = parse_command(text)
    except InputError as error:
        return "input_error", error_message(error)
    match request:
        case HelpRequest():
            return "help", help_message(default_visibility)
        case CalculationRequest(setup=setup, private=private):
            visibility = Visibility.EPHEMERAL if private else default_visibility
            return "calculation", result_message(compute(setup), visibility)
