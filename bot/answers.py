"""From command text to the message Slack gets: parse, compute, build. Pure."""

from __future__ import annotations

from bot.blocks import Message, Visibility, comparison_message, error_message, help_message, plan_message
from core import CompareCommand, HelpRequest, InputError, PlanCommand, compare, parse_command, plan


def answer_command(text: str, default_visibility: Visibility, note: str | None = None) -> tuple[str, Message]:
    """The kind of answer (for logs and metrics) and the message for ``text``; ``note`` closes it."""
    try:
        command = parse_command(text)
        match command:
            case HelpRequest():
                return "help", help_message(default_visibility)
            case PlanCommand(request=request, private=private):
                result = plan(request)
                kind = "calculation" if result.solution is None else "solve" if result.exact else "options"
                return kind, plan_message(result, _visibility(private, default_visibility), note)
            case CompareCommand(before=before, after=after, lr=lr, private=private):
                compared = compare(before, after, lr)
                return "comparison", comparison_message(compared, _visibility(private, default_visibility), note)
    except InputError as error:
        return "input_error", error_message(error)


def _visibility(private: bool, default: Visibility) -> Visibility:
    return Visibility.EPHEMERAL if private else default
