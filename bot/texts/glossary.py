"""The names of things, one spelling each, used by every other text.

The German reference ("Effektive Batch-Größe Rechner") writes Batch-Größe and
Optimierer-Schritt; effbatch follows it, and addresses people with du (the reference
says Sie; a Slack bot among engineers says du). README → "Glossar" lists every term.
"""

from __future__ import annotations

from collections.abc import Iterable

from effbatch.core import Argument

#: The slash command, as Slack and the console take it.
COMMAND = "/effbatch"
#: The program, as a terminal takes it: the same words without the slash, plus its own options.
PROGRAM = "effbatch"

ARGUMENT_NAMES = {
    Argument.MICRO_BATCH: "Micro-Batch je Gerät",
    Argument.DATA_PARALLEL: "Datenparallele Replikate",
    Argument.ACCUMULATION: "Akkumulationsschritte",
    Argument.SEQ_LEN: "Sequenzlänge",
    Argument.GPUS: "GPUs gesamt",
    Argument.TP: "Tensor-Parallelität",
    Argument.PP: "Pipeline-Parallelität",
    Argument.CP: "Kontext-Parallelität",
    Argument.SP: "Sequenz-Parallelität (Ulysses)",
    Argument.TARGET_BATCH: "Ziel-Batch-Größe",
    Argument.TARGET_TOKENS: "Ziel-Tokens je Schritt",
    Argument.BUDGET: "Token-Budget",
    Argument.ACTIVATION: "Aktivierungsspeicher je Sequenz",
    Argument.LR: "Lernrate",
    Argument.PARAMS: "Modellgröße",
    Argument.PROMPTS: "Prompts je Rollout",
    Argument.SAMPLES: "Antworten je Prompt",
    Argument.MINI: "Mini-Batch in Prompts",
    Argument.EPOCHS: "Epochen je Rollout",
}


#: The memory and time keys by their ``TrainingKey`` value.
SETTING_NAMES = {
    "model": "Modell",
    "layers": "Schichten",
    "hidden": "Breite (hidden)",
    "heads": "Attention-Köpfe",
    "kv_heads": "KV-Köpfe",
    "ffn": "FFN-Breite",
    "vocab": "Vokabular",
    "swiglu": "SwiGLU",
    "tied": "Geteilte Embedding-Gewichte (tied)",
    "experts": "Experten",
    "topk": "Experten je Token (top-k)",
    "moe_ffn": "FFN-Breite je Experte",
    "head_dim": "Größe eines Attention-Kopfs",
    "gpu": "GPU",
    "gpu_mem": "Speicher der GPU",
    "dtype": "Präzision",
    "zero": "ZeRO-Stufe",
    "distributed_optimizer": "Verteilter Optimierer",
    "offload": "Auslagerung auf die CPU",
    "recompute": "Neuberechnung der Aktivierungen",
    "sequence_parallel": "Sequenz-Parallelität von Megatron-LM",
    "ep": "Experten-Parallelität",
    "etp": "Tensor-Parallelität der Experten (Megatron-LM, Standard: tp)",
    "vpp": "Virtuelle Pipeline-Stufen",
    "largest_layer": "Größte Schicht",
    "zero_init": "Modell direkt verteilt anlegen (DeepSpeed zero.Init)",
    "compile": "torch.compile an",
    "use_cache": "KV-Cache des Modells im Training an (Hugging Face)",
    "loss_fusion": "Fusionierte Cross-Entropy von Megatron-LM (--cross-entropy-loss-fusion)",
    "tp_comm_overlap": "TP-Kommunikation überlappt mit den GEMMs (Megatron-LM --tp-comm-overlap, Userbuffers)",
    "autocast": "FP32-Parameter unter torch.autocast, ohne MixedPrecision von FSDP",
    "optimizer": "Optimierer: der des Frameworks oder Apex' DistributedFusedAdam (NeMo optim.name)",
    "grad_sync": "Datentyp der Gradienten bei DistributedFusedAdam (NeMo optim.grad_sync_dtype)",
    "optim_dtype": "Datentyp der Adam-Zustände bei DistributedFusedAdam (NeMo optim.dtype)",
    "fp8_params": "Gewichte in FP8 (NeMo fp8_params)",
    "nodes": "Knoten",
    "rules": "Regeln",
    "framework": "Trainings-Framework",
    "attention": "Attention-Kernel",
    "net_gbps": "Netz zwischen Knoten je GPU",
    "mfu": "MFU",
    "peak": "Peak (Spitzenleistung je GPU, BF16, dense)",
    "step_time": "Zeit je Schritt",
    "tokens_per_second": "Tokens je Sekunde",
}


def label(argument: Argument) -> str:
    """'Micro-Batch je Gerät (b)'; without the symbol where the name already contains it ('GPUs gesamt')."""
    name = ARGUMENT_NAMES[argument]
    redundant = len(argument.symbol) > 1 and argument.symbol.casefold() in name.casefold()
    return name if redundant else f"{name} ({argument.symbol})"


def symbol_first(argument: Argument) -> str:
    """'a (Akkumulationsschritte)': the symbol people type, then its name."""
    return f"{argument.symbol} ({ARGUMENT_NAMES[argument]})"


#: Counted nouns and their singular: after a lone 1 an answer says „1 Sequenz“, never „1 Sequenzen“
#: (``bot.rendering.grammar`` applies it to every text an answer shows, whichever template wrote it).
SINGULARS = {
    "Sequenzen": "Sequenz",
    "Tokens": "Token",
    "Antworten": "Antwort",
    "Prompts": "Prompt",
    "GPUs": "GPU",
    "GPU-Stunden": "GPU-Stunde",
    "Chip-Stunden": "Chip-Stunde",
    "Chips": "Chip",
    "Geräte": "Gerät",
    "Replikate": "Replikat",
    "Ranks": "Rank",
    "Prozesse": "Prozess",
    "Knoten": "Knoten",
    "Optimierer-Schritte": "Optimierer-Schritt",
    "Optimierer-Schritten": "Optimierer-Schritt",
    "Schritte": "Schritt",
    "Schritten": "Schritt",
    "Akkumulationsschritte": "Akkumulationsschritt",
    "Akkumulationsschritten": "Akkumulationsschritt",
    "Durchläufe": "Durchlauf",
    "Micro-Batches": "Micro-Batch",
    "Mini-Batches": "Mini-Batch",
    "Packs": "Pack",
    "Beispiele": "Beispiel",
    "Epochen": "Epoche",
    "Stufen": "Stufe",
    "Varianten": "Variante",
    "Runden": "Runde",
    "Attention-Heads": "Attention-Head",
    "KV-Heads": "KV-Head",
    "Zeichen": "Zeichen",
    "Bytes": "Byte",
    "Werte": "Wert",
}

#: The rest of a list too long to name: „a, b, c und 107 weitere“.
_MORE = "{count} weitere"


def list_de(items: Iterable[str], conjunction: str = "und", limit: int | None = None) -> str:
    """'a', 'a und b', 'a, b und c'; beyond ``limit`` items 'a, b, c und 107 weitere'."""
    items = list(items)
    if limit is not None and len(items) > limit + 1:
        items = [*items[:limit], _MORE.format(count=len(items) - limit)]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {conjunction} " + items[-1]
