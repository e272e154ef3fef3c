"""What a plan says (``/effbatch plane …``) and the memory answer's „Was hilft“, made of the same search.

Templates take formatted numbers; ``bot.rendering.plan`` fills them in. Glossary: Aufteilung (a layout:
TP, PP, CP, EP, ZeRO, recomputation), Schritt, Reserve.
"""

from __future__ import annotations

from collections.abc import Mapping

TITLE = "Plan: {what} auf {gpus} × {gpu}, B = {batch}"
SUMMARY = "Am schnellsten: {layout}, {seconds} je Schritt"
SUMMARY_NO_TIME = "Passt: {layout}"
SUMMARY_NOTHING = "Keine Aufteilung passt auf {gpus} × {gpu}"
MODEL_FIELD = "Modell"
#: The count and the type of the accelerator take the memory answer's words (``DEVICE_WORDS``): a TPU's are chips.
BATCH_FIELD = "B (Sequenzen)"
SEQ_LEN_FIELD = "Sequenzlänge (L)"
BUDGET_FIELD = "Token-Budget"

ENTRY_TITLE = "{rank}. {layout}"
LAYOUT = "TP {tp} · PP {pp}{vpp} · CP {cp}{ep} · ZeRO {zero}, {recompute}"
LAYOUT_VPP = " (VPP {vpp})"
LAYOUT_EP = " · EP {ep}"
RECOMPUTE: Mapping[str, str] = {
    "none": "ohne Neuberechnung",
    "selective": "selektive Neuberechnung",
    "full": "volle Neuberechnung",
}
BATCH = "B = b · d · a = {micro} × {data_parallel} × {accumulation} = {batch}"
MEMORY = "Speicher je {device}: {total} von {capacity} nutzbar ({free} frei; Reserve, {context_name} eingerechnet)"
STEP = "Schritt: {seconds} ({parts}), MFU {mfu}, {rate} Tokens/s"
STEP_PART = "{part} {seconds}"
BUDGET = "Budget {budget} Tokens: {days} Tage, {hours} {device}-Stunden"
TYPE_IT = "Einzeln nachrechnen: `{command} {keys}`"
PARTS: Mapping[str, str] = {
    "compute": "Rechnen",
    "recompute": "Neuberechnung",
    "data_parallel": "Datenparallel-Kommunikation",
    "tensor_parallel": "TP-Kommunikation",
    "pipeline_bubble": "Pipeline-Blase",
    "context_parallel": "CP-Austausch",
    "expert_parallel": "EP-All-to-all",
    "moe_routing": "MoE-Routing",
    "optimizer": "Optimiererschritt",
}

OBVIOUS_TITLE = "Warum nicht das Naheliegende?"
OBVIOUS_IS_FASTEST = "Das Naheliegende – {layout} mit b = {micro} – ist hier auch das Schnellste."
OBVIOUS_NO_TIME = "Am einfachsten: {layout} mit b = {micro} (ohne GPU-Typ sage ich keine Schrittzeit voraus)."
OBVIOUS_SLOWER = (
    "Naheliegend wäre {layout} mit b = {micro} – die wenigsten {devices} je Modellkopie, die passen: {seconds} je "
    "Schritt, {percent} langsamer als Platz 1."
)
OBVIOUS_COSTS = "Mehr Zeit kostet dort: {parts}."
OBVIOUS_COST = "{part} +{seconds}"
OBVIOUS_SAME_PARTS = "Die Teile kosten zusammen mehr, keiner allein sticht heraus."

NOTHING_TITLE = "Nichts passt"
NOTHING = "Auf {gpus} × {gpu} ({capacity}, {reserve} davon als Spielraum) passt keine Aufteilung mit B = {batch}."
NOTHING_BATCH = (
    "B = {batch} lässt sich auf {gpus} GPUs nicht aufteilen: d = GPUs / (TP · PP · CP) muss B teilen. "
    "Wähle B als Vielfaches einer Zweierpotenz oder andere GPU-Zahlen."
)
FEWEST_GPUS = "Es passt ab {gpus} Karten dieser Art: `{command} {keys}`."
NO_GPUS = "Auch mit {gpus} Karten dieser Art passt nichts mit B = {batch}."
MEMORY_NEEDED = (
    "Oder eine Karte mit mindestens {size} Speicher: So viel braucht die sparsamste Aufteilung mit b = 1 samt Reserve."
)

SEARCH_NOTE = (
    "Gesucht: TP 1–8 innerhalb eines Knotens, PP 1–64 (mit VPP 2 oder 4), CP 1–8, EP bei MoE-Modellen, ZeRO 0–3 "
    "(ZeRO 2 und 3 nur ohne Pipeline), selektive oder volle Neuberechnung, b und a mit B gleich; mit einem "
    "Framework nur, was es aufteilen kann. {layouts} "
    "Aufteilungen geprüft, {predicted} Schrittzeiten vorhergesagt; eine beschnittene Suche, keine vollständige."
)
RESERVE_NOTE = (
    "Spielraum: {reserve} des Speichers je {device} lasse ich frei – die Schätzung trifft den Spitzenwert eines "
    "Laufs nicht aufs Byte."
)
NO_TIME_NOTE = "Ohne GPU-Typ (`gpu=h100`) ordne ich nach Einfachheit statt nach Schrittzeit."

ADVICE_LINE = "`{keys}`: {total} je Karte{time}"
ADVICE_TIME = ", {seconds} je Schritt"
ADVICE_HELD = (
    "Jede Zeile ist eine ganze Kombination, die passt; b und a sind so gewählt, dass B = b · d · a = {batch} "
    "bleibt, auch wo d sich mit TP oder PP ändert."
)
ADVICE_HELD_NO_A = (
    "Jede Zeile ist eine ganze Kombination, die passt; ohne a halte ich b · d = {batch} fest: wo TP oder PP "
    "d verkleinern, gleicht a das aus."
)

INCOMPLETE_TITLE = "Für einen Plan fehlt noch etwas"
INCOMPLETE = "Für einen Plan brauche ich noch: {missing}."
NEEDED: Mapping[str, str] = {
    "model": "das Modell (`llama3.1-70b` oder `layers= hidden= heads= ffn= vocab=`)",
    "gpus": "die Zahl der GPUs (`gpus=256`)",
    "gpu": "den GPU-Typ (`gpu=h100`) oder seinen Speicher (`gpu_mem=80GiB`)",
    "seq_len": "die Sequenzlänge (`L=8k`)",
    "batch": "die globale Batch-Größe (`B=512` oder `T=4M`, das L teilt)",
}
EXAMPLE = "Zum Beispiel: `{command} plane llama3.1-70b gpus=256 gpu=h100 B=512 L=8k budget=15T`"
REFUSED_TITLE = "Das lässt sich nicht planen"
REFUSED: Mapping[str, str] = {
    "pipeline_above_layers": "PP = {pp} Pipeline-Stufen, aber das Modell hat nur {layers} Schichten.",
    "topk_above_experts": "top-k = {topk} Experten je Token, aber das Modell hat nur {experts} Experten.",
    "parallel_above_gpus": "TP · PP · CP = {product} ist mehr als die {gpus} GPUs.",
    "parallel_not_dividing": "TP · PP · CP = {product} teilt die {gpus} GPUs nicht.",
    "tp_not_dividing_heads": "TP = {tp} teilt die {heads} Attention-Köpfe des Modells nicht: Wähle einen Teiler.",
}
#: How a layout with Megatron's sequence parallelism types it (the key's German yes).
SEQUENCE_PARALLEL_KEY = "sequence_parallel=ja"
