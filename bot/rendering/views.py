"""Modal and App Home views, built by pure functions from slack_sdk's typed classes.

The form carries what it needs in ``private_metadata`` (where to answer, and any
values the form has no field for), so any replica can handle the submission.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    HeaderBlock,
    InputBlock,
    MarkdownTextObject,
    NumberInputElement,
    Option,
    RadioButtonsElement,
    SectionBlock,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from effbatch.bot.document import Document, Visibility
from effbatch.bot.rendering import block_kit
from effbatch.bot.rendering.problems import problem_text
from effbatch.bot.texts import answers as texts
from effbatch.bot.texts import checks as check_texts
from effbatch.bot.texts import help as help_texts
from effbatch.bot.texts.glossary import label
from effbatch.core import Argument, InputError, Plan, PlanRequest, ProblemKind, plan
from effbatch.core.memory import GPUS, MODELS
from effbatch.core.numbers import NumberError, parse_whole_number
from effbatch.core.parser import parse_fields
from effbatch.core.training import assess

FORM_CALLBACK = "effbatch_form"
RESULT_CALLBACK = "effbatch_result"
OPEN_FORM_ACTION = "open_form"
VALUE_ACTION = "value"
VISIBILITY_BLOCK = "visibility"
VISIBILITY_ACTION = "choice"

#: The web calculator's prefill: 8, 64, 4 and 4.096.
DEFAULTS = {
    Argument.MICRO_BATCH: 8,
    Argument.DATA_PARALLEL: 64,
    Argument.ACCUMULATION: 4,
    Argument.SEQ_LEN: 4096,
}
PARALLELISM_FIELDS = (Argument.MICRO_BATCH, Argument.DATA_PARALLEL, Argument.ACCUMULATION)
SEQUENCE_FIELDS = (Argument.SEQ_LEN,)
CLUSTER_FIELDS = (Argument.GPUS, Argument.TP, Argument.PP)
FORM_FIELDS = (*PARALLELISM_FIELDS, *SEQUENCE_FIELDS, *CLUSTER_FIELDS)
_REQUIRED = {Argument.MICRO_BATCH, Argument.ACCUMULATION}
#: Values an answer may have that the form shows no field for; they travel through private_metadata.
_NOT_IN_FORM = {"cp", "sp", "budget", "activation_per_sample", "training"}
#: The model and the GPU as choices; the other memory keys travel with ``training``.
MODEL_BLOCK = "model"
GPU_BLOCK = "gpu"
SELECT_ACTION = "select"


def _number_input(argument: Argument, initial: int | None) -> InputBlock:
    hint = texts.FORM_DATA_PARALLEL_HINT if argument is Argument.DATA_PARALLEL else None
    return InputBlock(
        block_id=argument.value,
        label=label(argument),
        element=NumberInputElement(
            action_id=VALUE_ACTION,
            is_decimal_allowed=False,
            min_value="1",
            max_value=str(argument.upper_bound),
            initial_value=None if initial is None else str(initial),
        ),
        optional=argument not in _REQUIRED,
        hint=hint,
    )


def _visibility_input(default: Visibility) -> InputBlock:
    options = [
        Option(value=Visibility.IN_CHANNEL.value, text=texts.FORM_SHARE),
        Option(value=Visibility.EPHEMERAL.value, text=texts.FORM_PRIVATE),
    ]
    initial = options[0] if default is Visibility.IN_CHANNEL else options[1]
    return InputBlock(
        block_id=VISIBILITY_BLOCK,
        label=texts.FORM_VISIBILITY,
        element=RadioButtonsElement(action_id=VISIBILITY_ACTION, options=options, initial_option=initial),
    )


def form_view(
    default_visibility: Visibility,
    response_url: str | None,
    request: PlanRequest | None = None,
    replace: bool = False,
) -> View:
    """The calculator as a modal, prefilled 8, 64, 4, 4.096 or with ``request``'s values."""
    values = {a: request.value(a) for a in FORM_FIELDS} if request else dict(DEFAULTS)
    extra = request.model_dump(include=_NOT_IN_FORM, exclude_none=True) if request else {}
    blocks: list[Block] = [HeaderBlock(text=texts.FORM_PARALLELISM)]
    blocks += [_number_input(a, values.get(a)) for a in PARALLELISM_FIELDS]
    blocks.append(HeaderBlock(text=texts.FORM_SEQUENCE))
    blocks += [_number_input(a, values.get(a)) for a in SEQUENCE_FIELDS]
    blocks.append(HeaderBlock(text=texts.FORM_CLUSTER))
    blocks.append(SectionBlock(text=MarkdownTextObject(text=texts.FORM_CLUSTER_HINT)))
    blocks += [_number_input(a, values.get(a)) for a in CLUSTER_FIELDS]
    blocks += _memory_inputs(request)
    if replace:
        blocks.append(SectionBlock(text=MarkdownTextObject(text=texts.FORM_REPLACE_NOTE)))
    elif response_url is not None:
        blocks.append(_visibility_input(default_visibility))
    metadata = {"response_url": response_url, "replace": replace, "extra": extra}
    return View(
        type="modal",
        callback_id=FORM_CALLBACK,
        title=texts.FORM_TITLE,
        submit=texts.FORM_SUBMIT,
        close=texts.FORM_CLOSE,
        private_metadata=json.dumps(metadata),
        blocks=blocks,
    )


def _memory_inputs(request: PlanRequest | None) -> list[Block]:
    """The model and the GPU as optional choices, preset from ``request``."""
    training = request.training if request else None
    models = [(name, model.title) for name, model in MODELS.items()]
    gpus = [(name, gpu.title) for name, gpu in GPUS.items()]
    return [
        HeaderBlock(text=texts.FORM_MEMORY),
        SectionBlock(text=MarkdownTextObject(text=texts.FORM_MEMORY_HINT)),
        _select(MODEL_BLOCK, texts.FORM_MODEL, models, training.model if training else None),
        _select(GPU_BLOCK, texts.FORM_GPU, gpus, training.gpu if training else None),
    ]


def _select(block: str, label_text: str, choices: list[tuple[str, str]], initial: str | None) -> InputBlock:
    options = [Option(value=value, text=shown) for value, shown in choices]
    chosen = next((option for option in options if option.value == initial), None)
    element = StaticSelectElement(
        action_id=SELECT_ACTION, options=options, initial_option=chosen, placeholder=texts.FORM_SELECT_NONE
    )
    return InputBlock(block_id=block, label=label_text, element=element, optional=True)


def _chosen_training(state: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """The memory keys of a submitted form: those it carried, with the model and GPU as chosen now."""
    training = dict(extra.get("training") or {})
    for block in (MODEL_BLOCK, GPU_BLOCK):
        selected = state.get(block, {}).get(SELECT_ACTION, {}).get("selected_option")
        if selected:
            training[block] = selected.get("value")
    return {"training": training} if training else {}


class FormError(Exception):
    """A submission with bad values; ``errors`` maps block ids to German messages."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__(errors)


class FormDamagedError(Exception):
    """A submitted form whose private_metadata is not what ``form_view`` wrote (old, or forged)."""


def damaged_view(text: str = texts.FORM_DAMAGED) -> View:
    """The modal's answer when its hidden state cannot be read: what happened and how to start again."""
    blocks: list[Block] = [block_kit.section(f":warning: {text}")]
    return View(
        type="modal", callback_id=RESULT_CALLBACK, title=texts.FORM_TITLE, close=texts.RESULT_CLOSE, blocks=blocks
    )


def form_metadata(text: object) -> dict[str, Any]:
    """``form_view``'s private_metadata, checked field by field; ``FormDamagedError`` for anything else."""
    try:
        metadata = json.loads(text if isinstance(text, str) and text else "{}")
    except (ValueError, RecursionError):  # not JSON, 5.000-digit numbers, 20.000-deep nesting
        raise FormDamagedError from None
    if not isinstance(metadata, dict):
        raise FormDamagedError
    url, replace, extra = metadata.get("response_url"), metadata.get("replace", False), metadata.get("extra", {})
    if not (url is None or isinstance(url, str)) or not isinstance(replace, bool) or not isinstance(extra, dict):
        raise FormDamagedError
    if not set(extra) <= _NOT_IN_FORM:
        raise FormDamagedError
    return {"response_url": url, "replace": replace, "extra": extra}


def read_form(view: Mapping[str, Any]) -> tuple[Plan, Visibility | None, dict[str, Any]]:
    """The computed plan, the chosen visibility and the metadata of a submitted form; ``FormError`` if bad,
    ``FormDamagedError`` if its metadata is not ours."""
    state = view.get("state", {}).get("values", {})
    metadata = form_metadata(view.get("private_metadata"))
    fields = {}
    for argument in FORM_FIELDS:
        value = state.get(argument.value, {}).get(VALUE_ACTION, {}).get("value")
        if value:
            fields[argument] = str(value)
    try:
        typed = parse_fields(fields)
        # The extra values were validated when the answer was made; they come back from our own view.
        data = typed.model_dump() | metadata["extra"] | _chosen_training(state, metadata["extra"])
        result = plan(PlanRequest.model_validate(data))
        if result.request.training is not None and result.outcome is not None:
            assess(result.request, result.outcome)  # a step time the new b makes impossible (MFU above 100 %)
    except InputError as error:
        raise FormError(_errors_by_block(error)) from None
    except ValidationError:  # extra values no answer carried: the metadata is not ours
        raise FormDamagedError from None
    choice = state.get(VISIBILITY_BLOCK, {}).get(VISIBILITY_ACTION, {}).get("selected_option")
    visibility = Visibility(choice["value"]) if choice else None
    return result, visibility, metadata


def _errors_by_block(error: InputError) -> dict[str, str]:
    """Each problem under the field it concerns; problems without a field under b."""
    errors: dict[str, list[str]] = {}
    for problem in error.problems:
        if problem.kind is ProblemKind.MISSING_VALUES:
            for argument in problem.ctx["missing"]:
                message = texts.FORM_NEEDS_DEVICES if argument is Argument.DATA_PARALLEL else texts.FORM_REQUIRED
                errors.setdefault(argument.value, []).append(message)
            continue
        block = problem.argument if problem.argument in FORM_FIELDS else Argument.MICRO_BATCH
        errors.setdefault(block.value, []).append(problem_text(problem).replace("`", ""))
    return {block: " ".join(messages) for block, messages in errors.items()}


def result_view(document: Document, warning: str | None = None) -> View:
    """An answer shown in the modal itself, where there is no channel to post to (from the App Home)."""
    blocks: list[Block] = [block_kit.section(f":warning: {warning}", block_kit.VIEW)] if warning else []
    blocks += block_kit.blocks(document, choices=False, limits=block_kit.VIEW, reserved=len(blocks))
    return View(
        type="modal", callback_id=RESULT_CALLBACK, title=texts.FORM_TITLE, close=texts.RESULT_CLOSE, blocks=blocks
    )


def home_view() -> View:
    """The App Home: what B is, why it matters, the formula, the limits, how to ask, and the form."""
    blocks: list[Block] = [HeaderBlock(text=help_texts.HOME_TITLE)]
    blocks += [
        SectionBlock(text=MarkdownTextObject(text="\n".join([f"*{title}*", *lines])))
        for title, lines in help_texts.HOME_SECTIONS
    ]
    blocks.append(
        ActionsBlock(
            elements=[ButtonElement(text=help_texts.HOME_OPEN_FORM, action_id=OPEN_FORM_ACTION, style="primary")]
        )
    )
    return View(type="home", blocks=blocks)


# --- the world-size form of a config check ------------------------------------------------------

WORLD_FORM_CALLBACK = "effbatch_check_world"
NODES_BLOCK = "nodes"
PER_NODE_BLOCK = "per_node"


def world_form(framework: str, state: str, guess: tuple[int, int]) -> View:
    """Nodes × GPUs per node (starting at ``guess``), for a check that needs the world size; ``state`` carries it."""

    def count(block: str, label_text: str, initial: int) -> InputBlock:
        element = NumberInputElement(
            action_id=VALUE_ACTION,
            is_decimal_allowed=False,
            min_value="1",
            max_value=str(Argument.GPUS.upper_bound),
            initial_value=str(initial),
        )
        return InputBlock(block_id=block, label=label_text, element=element)

    blocks: list[Block] = [
        SectionBlock(
            text=MarkdownTextObject(text=block_kit.escape(check_texts.WORLD_FORM_INTRO.format(framework=framework)))
        ),
        count(NODES_BLOCK, check_texts.WORLD_FORM_NODES, guess[0]),
        count(PER_NODE_BLOCK, check_texts.WORLD_FORM_PER_NODE, guess[1]),
    ]
    return View(
        type="modal",
        callback_id=WORLD_FORM_CALLBACK,
        title=check_texts.WORLD_FORM_TITLE,
        submit=check_texts.WORLD_FORM_SUBMIT,
        close=texts.FORM_CLOSE,
        private_metadata=state,
        blocks=blocks,
    )


def read_world_form(view: Mapping[str, Any]) -> tuple[int, int]:
    """Nodes and GPUs per node of a submitted world-size form; ``FormError`` if either is not a whole number ≥ 1."""
    state = view.get("state", {}).get("values", {})
    values, errors = [], {}
    for block in (NODES_BLOCK, PER_NODE_BLOCK):
        text = str(state.get(block, {}).get(VALUE_ACTION, {}).get("value") or "").strip()
        try:
            values.append(_count(text))
        except NumberError as error:
            errors[block] = problem_text(error.for_argument(Argument.GPUS, text)) if text else texts.FORM_REQUIRED
    if errors:
        raise FormError(errors)
    return values[0], values[1]


def _count(text: str) -> int:
    """A count typed into the form; ``NumberError`` naming why not. Slack checks its number input only in the browser:
    a crafted submission may hold „²“ (a digit to ``str.isdigit``) or 5.000 digits (which ``int`` refuses)."""
    value = parse_whole_number(text)
    if value > Argument.GPUS.upper_bound:
        raise NumberError(ProblemKind.TOO_LARGE, le=Argument.GPUS.upper_bound)
    return value
