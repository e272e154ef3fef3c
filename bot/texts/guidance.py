"""What the „Einordnung“ says (batch-size laws as estimates) and how published runs are listed.

Templates take already formatted numbers; ``bot.rendering.guidance`` fills them in.
"""

from __future__ import annotations

# --- „Einordnung“: the laws beside a setup ---------------------------------------------------

TITLE = "Einordnung"
INTRO = (
    "Schätzungen aus gefitteten Skalierungsgesetzen für N = {params} Parameter und D = {tokens} Tokens – "
    "Anhaltspunkte, keine Vorschrift."
)
STEP_LAW_BATCH = "Step Law: B_opt = 0,58 · D^0,571 = 0,58 · {tokens}^0,571 ≈ {batch} Tokens"
STEP_LAW_LR = "Step Law: η_opt = 1,79 · N^−0,713 · D^0,307 ≈ {lr}"
STEP_LAW_N = (
    "Step Law zählt N ohne Embedding-Parameter; `params=` ist meist die Gesamtzahl mit Embeddings. Ich rechne mit "
    "dem angegebenen Wert, das N der Step-Law-Formel liegt dann etwas zu hoch."
)
DEEPSEEK_FLOPS_ESTIMATED = "DeepSeek LLM: M ≈ 6 · N = 6 × {params} = {flops} FLOPs je Token"
DEEPSEEK_FLOPS_ESTIMATED_NOTE = (
    "(nur N bekannt, nicht die Form: 6 · N lässt den Attention-Anteil 12 · n_layer · d_model · l_seq weg, den "
    "DeepSeeks M mitzählt – bei d_model = 4.096 und 4K bis 8K Kontext ist M so 14 bis 25 % zu klein und B_opt "
    "5 bis 10 % zu niedrig)"
)
DEEPSEEK_FLOPS = (
    "DeepSeek LLM: M = 72 · n_layer · d_model² + 12 · n_layer · d_model · l_seq = 72 × {layers} × {hidden}² + "
    "12 × {layers} × {hidden} × {seq_len} = {flops} FLOPs je Token"
)
DEEPSEEK_FLOPS_NOTE = "(aus der Form der Konfiguration, mit dem Attention-Anteil)"
DEEPSEEK_COMPUTE = "DeepSeek LLM: C = M · D = {flops} × {tokens} = {compute} FLOPs"
DEEPSEEK_BATCH = "DeepSeek LLM: B_opt = 0,2920 · C^0,3271 ≈ {batch} Tokens"
DEEPSEEK_LR = "DeepSeek LLM: η_opt = 0,3118 · C^−0,1250 ≈ {lr}"
RATIO = "Dein T = {tokens} Tokens je Optimierer-Schritt ist das {ratio}-Fache der Step-Law-Schätzung."
RATIO_NEEDS_SEQ_LEN = "Mit der Sequenzlänge (`L=`) stelle ich auch dein T neben die Schätzungen."
STEP_LAW_OUTSIDE = (
    "Das Step-Law-Gesetz wurde an Modellen bis etwa 1 Mrd. Parameter und 100 Mrd. Tokens gefittet; hier wird es "
    "extrapoliert."
)
STEP_LAW_INSIDE = (
    "Das Step-Law-Gesetz wurde an Modellen bis etwa 1 Mrd. Parameter und 100 Mrd. Tokens gefittet; das passt hier."
)
DEEPSEEK_OUTSIDE = (
    "Das DeepSeek-Gesetz wurde an C = 10¹⁷ bis 2 · 10¹⁹ FLOPs gefittet; C = {compute} liegt außerhalb – eine "
    "Extrapolation (so hat auch DeepSeek Batch-Größe und Lernrate für 7B und 67B bestimmt)."
)
DEEPSEEK_INSIDE = "Das DeepSeek-Gesetz wurde an C = 10¹⁷ bis 2 · 10¹⁹ FLOPs gefittet; C = {compute} liegt darin."
RUNS_NEAR = "Veröffentlichte Läufe ähnlicher Größe (Vergleich: `{command} … vs {name}`):"
RUN_NEAR = "{title}: {batch} Tokens je Schritt ({sequences} × {seq_len}), Lernrate {lr}"
ESTIMATES = (
    "Das sind Schätzungen: Eine Batch-Größe daneben ist deshalb nicht falsch. Beide Gesetze wurden an kleineren "
    "Läufen gefittet; ein kurzer Sweep entscheidet. Quellen: Li et al. 2025 (Step Law, arXiv 2503.04715), "
    "Bi et al. 2024 (DeepSeek LLM, arXiv 2401.02954, Abschnitt 3.1)."
)
NEEDS_BUDGET = (
    "Für die Einordnung neben Step Law und DeepSeek brauche ich auch die Trainingslänge in Tokens, "
    "z. B. `budget=2T`: `{command} 8 64 4 4096 params=7B budget=2T`."
)

#: A value so small it is surely a typo (7 parameters, 2 tokens): asked, as an odd b is.
TINY_PARAMS = "`params={value}` sind {shown} Parameter – meintest du `params={value}B`?"
TINY_BUDGET = "`budget={value}` sind {shown} Tokens – meintest du `budget={value}{unit}`?"

# --- only N and D: the laws' question on its own (`params=7B budget=2T L=4096`) ----------------

LAWS_TITLE = "Batch-Größe für {params} Parameter auf {tokens} Tokens"
LAWS_SUMMARY = "Step Law und DeepSeek LLM: {low} bis {high} Tokens je Optimierer-Schritt{sequences}"
LAWS_SUMMARY_SEQUENCES = ", bei L = {seq_len} {low} bis {high} Sequenzen"
RANGE_TITLE = "Batch-Größe nach den Gesetzen"
RANGE_TOKENS = "T = {low} bis {high} Tokens je Optimierer-Schritt (Step Law {step}, DeepSeek LLM {deepseek})."
RANGE_SEQUENCES = "B = T / L = {low} bis {high} Sequenzen"
RANGE_SEQUENCES_REMARK = "je Optimierer-Schritt bei L = {seq_len}"
RANGE_POWER = "Als Zweierpotenz: B = {sequences} Sequenzen = {tokens} Tokens je Schritt."
RANGE_NEEDS_SEQ_LEN = (
    "Mit der Sequenzlänge rechne ich das in Sequenzen um, z. B. `{command} params={params} budget={budget} L=4096`."
)
RANGE_NEXT = (
    "Mit b, d und a rechne ich nach, wo dein Setup liegt, z. B. `{command} 8 64 4 4096 params={params} "
    "budget={budget}`."
)

# --- from a config's shape (for config checks) ----------------------------------------------

SHAPE_PARAMS = "N ≈ 12 · n_layer · d_model² = 12 × {layers} × {hidden}² = {params} Parameter"
SHAPE_PARAMS_NOTE = "(ohne Embeddings; die Embedding-Matrix hat vocab · d_model = {embedding})"
SHAPE_PARAMS_NO_VOCAB = "(ohne Embeddings)"
SHAPE_TOKENS = "D = Schritte × Tokens je Schritt = {steps} × {per_step} = {tokens} Tokens"
SHAPE_ESTIMATED = "N und D sind aus der Konfiguration geschätzt, nicht gemessen."

# --- the published runs ---------------------------------------------------------------------

RUNS_TITLE = "Veröffentlichte Läufe"
RUNS_FILTER = "Gefiltert nach {query}: {count} von {total} Läufen."
RUNS_SUMMARY = "{count} veröffentlichte Läufe: Batch-Größe, Sequenzlänge und Lernrate"
RUN_LINE = (
    "`{name}` {title}: {params} Parameter{active}, {tokens} Tokens, {batch} Tokens je Schritt "
    "({sequences} × {seq_len}), Lernrate {lr}{schedule}"
)
RUN_ACTIVE = " ({active} aktiv)"
SCHEDULE = "; Batch-Größen-Plan in Tokens je Schritt: {phases}"
PHASE_START = "{batch}"
PHASE_STEP = "{batch} ab {start} Tokens"
PHASE_RAMP = "linear bis {batch} nach {start} Tokens"
PHASE_RAMP_UNKNOWN = "linear bis {batch} nach 4–12 Mrd. Tokens (je nach Modellgröße)"
RAMP_UNKNOWN = "; Hochlauf über {start} Tokens (Startwert nicht angegeben)"
NO_LR = "nicht angegeben"
RUNS_NONE = "Kein veröffentlichter Lauf passt zu {query}. Es gibt: {families}."
RUNS_USAGE = (
    "Vergleich mit deinem Setup: `{command} 8 64 4 4096 vs llama2-7b`. Die Quelle jedes Laufs (Paper mit Tabelle "
    "oder Konfiguration mit Commit) nennt der Vergleich, alle zusammen `effbatch --json läufe`."
)

# --- a setup compared with a published run ----------------------------------------------------

RUN_COMPARISON_TITLE = "Vergleich mit {title}: B ×{factor} ({before} → {after})"
RUN_COMPARISON_SUMMARY = "Vergleich mit {title}: B {before} → {after}, k = {factor}; Lernrate des Laufs {lr}"
RUN_COLUMN = "{title} (veröffentlicht)"
RUN_BEFORE = "Dein Setup"
RUN_SIDE_LR = "Lernrate {lr}"
RUN_TITLE = "Der veröffentlichte Lauf"
RUN_LR = "{title} trainierte mit einer Spitzen-Lernrate von {lr}."
TOKENS_FACTOR = "Tokens je Schritt: {before} → {after} (×{factor})"
RUN_SOURCE = "Quelle: {source}."
