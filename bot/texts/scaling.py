"""What the scaling answer (``… skalierung``) says: the table, where more GPUs stop paying, what was held.

Templates take formatted numbers; ``bot.rendering.scaling`` fills them in, once for Slack, the terminal and
the chart.
"""

from __future__ import annotations

from collections.abc import Mapping

TITLE = "Skalierung: {what} auf {gpu}"
SUMMARY_STOP = "Skalierung {what}: Mehr {devices} lohnen sich bis {gpus} {devices}, danach {reason}."
SUMMARY_THROUGH = "Skalierung {what}: Bis {gpus} {devices} bleibt die Effizienz bei {efficiency} oder mehr."

FIELD_MODEL = "Modell"
#: The accelerator field and the GPU column are worded by ``bot.texts.memory.DEVICE_WORDS`` (a TPU has chips).
FIELD_MICRO = "Micro-Batch je Gerät (b)"
FIELD_BATCH = "Globale Batch-Größe (B)"
FIELD_SEQ_LEN = "Sequenzlänge (L)"
FIELD_PARALLEL = "Modellparallel je Replikat"
FIELD_SETUP = "Euer Aufbau"
BATCH_HELD = "{batch} Sequenzen, gehalten"
BATCH_GROWS = "wächst mit d (a = {accumulation} gehalten)"
MICRO_HELD = "{micro}, gehalten"
SETUP_VALUE = "d = {d}, {gpus} {devices}"
PARALLEL_VALUE = "TP · PP · CP · SP = {degrees}"

BRIEF_TITLE = "Skalierung"
BRIEF_MORE = "Durchsatz und Effizienz für d = 1, 2, 4, …: `{command}`"
STOP_TITLE = "Wo mehr {devices} nicht mehr lohnen"
STOP_COMMUNICATION = (
    "Ab {gpus} {devices} (d = {d}) bringt jede weitere {device} weniger als die Hälfte ihres Durchsatzes allein: "
    "Der Schritt wartet dann vor allem auf {part} ({step} je Schritt, Effizienz {efficiency})."
)
STOP_CRITICAL = (
    "Ab {gpus} {devices} (d = {d}) wächst T = B · L auf {tokens} Tokens je Schritt, über die kritische Batch-Größe "
    "von etwa {critical} Tokens hinaus, die Step Law und DeepSeek für dieses Budget schätzen: mehr Tokens je "
    "Schritt, aber kaum weniger Schritte bis zum selben Verlust."
)
NO_STOP = (
    "Bis {gpus} {devices} (d = {d}) bringt jede Verdopplung mindestens das Anderthalbfache an Durchsatz; das Modell "
    "sieht hier keine Grenze."
)
REASON_COMMUNICATION = "bremst {part}"
REASON_CRITICAL = "ist B größer als die kritische Batch-Größe"

TABLE_TITLE = "Durchsatz und Effizienz je Anzahl Replikate"
#: Column heads of the text chart; the widths are the rendering's.
HEAD_ACCUMULATION = "a"
HEAD_BATCH = "B"
HEAD_STEP = "s/Schritt"
HEAD_RATE = "Tokens/s"
HEAD_EFFICIENCY = "Effizienz"
SETUP_MARK = "◀ euer Aufbau"
STOP_MARK = "◀ lohnt nicht mehr"
GROWN_MARK = "*"

#: What each part of a step is called where it bounds the step.
PARTS: Mapping[str, str] = {
    "compute": "das Rechnen",
    "recompute": "die Neuberechnung",
    "data_parallel": "die Gradienten-Kommunikation zwischen den Replikaten",
    "tensor_parallel": "die Tensor-parallele Kommunikation",
    "pipeline_bubble": "die Pipeline-Blase",
    "context_parallel": "den Kontext-parallelen Austausch",
    "expert_parallel": "das Experten-All-to-All",
    "moe_routing": "das Verteilen der Tokens auf die Experten",
    "optimizer": "den Optimierer-Schritt",
}

HELD_NOTE_BATCH = (
    "Gehalten: die Modellparallelität je Replikat, b = {micro} und B = {batch} Sequenzen – mit mehr Replikaten "
    "sinkt a = B / (b · d)."
)
HELD_NOTE_GROWS = " Ab {gpus} {devices} ist a = 1: B wächst dann mit d (in der Tabelle mit * markiert)."
HELD_NOTE_ACCUMULATION = (
    "Gehalten: die Modellparallelität je Replikat, b = {micro} und a = {accumulation}; ohne `B=` wächst B = b · d · a "
    "mit d. Mit `B=` halte ich B fest und passe a an."
)
EFFICIENCY_NOTE = (
    "Effizienz = Tokens/s bei d Replikaten ÷ (d × Tokens/s eines Replikats). „Lohnt nicht mehr“: die erste "
    "Verdopplung, deren zusätzliche {devices} weniger als die Hälfte des Durchsatzes eines Replikats je {device} "
    "bringen."
)
CRITICAL_NOTE = (
    "Kritische Batch-Größe: die obere der beiden Schätzungen von Step Law und DeepSeek LLM für {budget} Tokens "
    "Budget, etwa {critical} Tokens je Schritt – eine Schätzung, keine Regel."
)
NO_CRITICAL_NOTE = (
    "Mit `budget=` prüfe ich auch, ab wann B über die kritische Batch-Größe der Skalierungsgesetze wächst."
)
#: What the step model took without it being given is said as in the time answer
#: (``bot.texts.memory.STEP_ASSUMED``), with the set-up row's numbers.

CHART_TITLE = "Skalierung {what} auf {gpu}"
CHART_RATE = "Tokens/s"
CHART_IDEAL = "linear"
CHART_EFFICIENCY = "Effizienz"
CHART_SETUP = "euer Aufbau"
CHART_STOP = "lohnt nicht mehr"
CHART_ALT = "Diagramm: Tokens je Sekunde und Effizienz über der Anzahl {devices}, {what} auf {gpu}."
#: In Slack while the chart is drawn: the answer follows in the channel, the chart in its thread.
PENDING = "Ich rechne die Skalierung und zeichne das Diagramm – die Antwort erscheint gleich im Kanal."
