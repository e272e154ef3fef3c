"""The names of things, one spelling each, used by every other text."""

from __future__ import annotations

from collections.abc import Iterable

from core import Argument

COMMAND = "/effbatch"

ARGUMENT_NAMES = {
    Argument.MICRO_BATCH: "Batch je Gerät",
    Argument.DATA_PARALLEL: "Datenparallele Geräte",
    Argument.ACCUMULATION: "Akkumulationsschritte",
    Argument.SEQ_LEN: "Sequenzlänge",
    Argument.GPUS: "GPUs gesamt",
    Argument.TP: "Tensorparallelität",
    Argument.PP: "Pipelineparallelität",
    Argument.CP: "Kontextparallelität",
    Argument.SP: "Sequenzparallelität (Ulysses)",
    Argument.TARGET_BATCH: "Ziel-Batchgröße",
    Argument.TARGET_TOKENS: "Ziel-Tokens je Schritt",
    Argument.BUDGET: "Token-Budget",
    Argument.ACTIVATION: "Aktivierungsspeicher je Sequenz",
    Argument.LR: "Lernrate",
}


def label(argument: Argument) -> str:
    """'Batch je Gerät (b)'; without the symbol where the name already contains it ('GPUs gesamt')."""
    name = ARGUMENT_NAMES[argument]
    redundant = len(argument.symbol) > 1 and argument.symbol.casefold() in name.casefold()
    return name if redundant else f"{name} ({argument.symbol})"


def list_de(items: Iterable[str], conjunction: str = "und") -> str:
    """'a', 'a und b', 'a, b und c'."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {conjunction} " + items[-1]
