"""What answers say: titles, formula words, notes, buttons, the form and the console.

Templates take already formatted numbers (``{batch}`` is "2.048"); ``bot.rendering``
fills them in.
"""

from __future__ import annotations

from effbatch.bot.texts.glossary import COMMAND

# --- a computed setup -----------------------------------------------------------------------

RESULT_TITLE = "Effektive Batch-Größe: {batch} Sequenzen"
GLOBAL_BATCH_TITLE = "Effektive Batch-Größe – Sequenzen je Optimierer-Schritt"
SEQUENCES = "{formula} Sequenzen"
TOKENS_TITLE = "Tokens je Optimierer-Schritt"
TOKENS = "{formula} Tokens"
TOKENS_ROUNDED = "(≈ {reading})"
SOLVED_MARK = "berechnet"
DERIVED_MARK = "aus den GPUs"
MODEL_PARALLEL_FIELD = "TP · PP · CP · SP"
GPUS_TITLE = "d aus den GPUs"
GPUS_DERIVED_TITLE = "GPUs gesamt"
SOLVED_TITLE = "Gesucht: {label}"
TARGET_MET_TITLE = "Ziel erreicht: {symbol} = {value}"
TARGET_MET = "b, d und a ergeben genau das vorgegebene Ziel."
TOKENS_HINT_TITLE = "Tokens je Optimierer-Schritt"
TOKENS_HINT = (
    "Mit der Sequenzlänge als viertem Wert oder `L=` rechne ich auch T = B · L aus, "
    "z. B. `{command} 8 64 4 4096` oder `{command} 8 64 4 L=4k`."
)
PARALLEL_NOTE = (
    "d zählt die datenparallelen Replikate; Tensor-, Pipeline-, Kontext- und Sequenz-Parallelität verteilen ein "
    "Replikat auf mehrere GPUs und zählen nicht mit: d = GPUs / (TP · PP · CP · SP)."
)
PACKED_NOTE = "T setzt feste (gepackte) Sequenzlängen voraus; mit Padding oder variabler Länge sind es weniger Tokens."
ROLLOUT_TITLE = "Rollout – Prompts, Antworten und Optimierer-Schritte"
#: (formula, remark) per line of a rollout.
ROLLOUT_LINES = (
    ("P · n = {prompts} × {samples} = {sequences} Sequenzen", "je Rollout"),
    ("B = mini · n = {mini} × {samples} = {batch} Sequenzen", "je Optimierer-Schritt"),
    ("s = P / mini · Epochen = {prompts} / {mini} × {epochs} = {steps}", "Optimierer-Schritte je Rollout"),
)
#: A rollout in a comparison's column: P, n, mini and s, the optimizer steps a rollout makes (k is B₂ / B₁ there).
ROLLOUT_COLUMN = "P = {0}, n = {1}, mini = {2}, s = {3}"
ROLLOUT_NOTE = (
    "Der Mini-Batch zählt Prompts wie ppo_mini_batch_size bei verl; TRL und OpenRLHF zählen ihre Batch-Größe in "
    "Antworten (Sequenzen)."
)
BUDGET_TITLE = "Optimierer-Schritte für das Token-Budget"
BUDGET_READING = "(Budget ≈ {reading} Tokens)"
STEPS = "Schritte"
BUDGET = "Budget"
ACTIVATION_TITLE = "Aktivierungsspeicher je GPU"
ACTIVATION_NOTE = (
    "Die Akkumulation erhöht ihn nicht: Die a Durchläufe laufen nacheinander, gleichzeitig liegen nur "
    "b Sequenzen im Speicher. Deshalb kann Akkumulation einen größeren Micro-Batch ersetzen."
)
#: With PP > 1 the note above is not true: 1F1B keeps up to PP micro-batches in flight per stage.
ACTIVATION_NOTE_PIPELINE = (
    "Mit Pipeline-Parallelität (PP = {pp}) liegen gleichzeitig mehr als b Sequenzen im Speicher: Im 1F1B-Ablauf "
    "hält eine Stufe bis zu PP Micro-Batches auf einmal (die erste Stufe die meisten), hier bis zu {in_flight} "
    "(das Kleinere von PP und a) – jede Stufe nur für ihre eigenen Schichten."
)
SUMMARY = "Effektive Batch-Größe: {batch} Sequenzen je Optimierer-Schritt"
SUMMARY_TOKENS = "Effektive Batch-Größe: {batch} Sequenzen, {tokens} Tokens je Optimierer-Schritt"
SUMMARY_ROUNDED = "≈ {reading}"

# --- a target that whole numbers do not reach -------------------------------------------------

UNREACHABLE_TITLE = "Nicht genau erreichbar: {symbol} = {value}"
UNREACHABLE_EXPLANATION = (
    "{symbol} wäre {quotient} – keine ganze Zahl. Mit ganzen Werten ist das Ziel nicht genau erreichbar; "
    "am nächsten liegen:"
)
UNREACHABLE_EXPLANATION_ONE = (
    "{symbol} wäre {quotient} – keine ganze Zahl. Mit ganzen Werten ist das Ziel nicht genau erreichbar; "
    "am nächsten liegt:"
)
#: The one option is far above the target: the other factors are too large; smaller ones come closer.
SMALLER_FACTORS = "Näher ans Ziel kommst du nur mit kleineren Werten, z. B. {options}."
SMALLER_OPTION = "`{symbol} = {value}` → B = {batch}"
BINARY_HINT = "Mit `{key}={binary}` (binär, {value}) geht es genau auf: {symbol} = {solved}."
OPTION = "`{symbol} = {value}` → B = {batch}"
OPTION_TOKENS = ", T = {tokens}"
OPTION_STEPS = ", {steps} Schritte"
OR = "oder"
UNREACHABLE_SUMMARY = "Ziel {target} nicht genau erreichbar: {choices}"
UNREACHABLE_CHOICE = "{symbol} = {value} (B = {batch})"

# --- comparison ---------------------------------------------------------------------------

BEFORE = "Vorher"
AFTER = "Nachher"
DERIVED_TITLE = "{side}: abgeleitete Werte"
FACTOR_TITLE = "Faktor der effektiven Batch-Größe"
LR_TITLE = "Lernrate"
LR_LINEAR = "Linear ×k (Goyal et al. 2017, für SGD mit Warmup)"
LR_SQRT = "Wurzel ×√k (Malladi et al. 2022, für Adam-artige Optimierer)"
LR_RULE = "{rule}: ×{factor}"
LR_RULE_SCALED = "{rule}: `{base} × {factor} {equals} {scaled}`"
#: Between a scaled learning rate's factors and its result: „=“ where the numbers shown multiply exactly.
EXACT, ROUNDED = "=", "≈"
LR_HINT = "Mit `lr=3e-4` rechne ich die neuen Lernraten aus."
LR_UNCHANGED = "Die effektive Batch-Größe bleibt gleich – die Lernrate auch."
WARMUP_TITLE = "Bei k ≥ 8 das Warmup anpassen"
WARMUP_WARNING = (
    "Einen so großen Sprung verträgt das Training mit hochskalierter Lernrate nur mit längerem Warmup "
    "(Goyal et al. fahren sie über 5 Epochen hoch); achte früh auf Divergenz."
)
RULES_OF_THUMB = "Skalierungsregeln sind Faustregeln für den Start, kein Ersatz für einen kurzen Sweep."
COMPARISON_TITLE = "Vergleich: B ×{factor} ({before} → {after})"
COMPARISON_SUMMARY = "Vergleich: B {before} → {after}, k = {factor}; Lernrate linear ×{factor}, Wurzel ×{sqrt}"

# --- what-if buttons and the form ---------------------------------------------------------------

WHATIF_ACCUMULATION_DOUBLE = "Akkumulation ×2"
WHATIF_ACCUMULATION_HALF = "Akkumulation ÷2"
WHATIF_DEVICES_DOUBLE = "Replikate ×2"
WHATIF_DEVICES_HALF = "Replikate ÷2"
WHATIF_MICRO_DOUBLE = "Micro-Batch ×2"
WHATIF_MICRO_HALF = "Micro-Batch ÷2"
WHATIF_SAMPLES_DOUBLE = "Antworten ×2"
WHATIF_MINI_DOUBLE = "Mini-Batch ×2"
WHATIF_ADJUST = "Anpassen…"
WHATIF_TAKE = "{symbol} = {value} übernehmen"
WHATIF_TAKEN = "Vorschlag übernommen"
CHANGED_BY = "Zuletzt geändert von {user}: {action}"
#: A message holds 50 blocks: what did not fit is counted, and where the whole answer is.
LEFT_OUT = (
    "… und {count} weitere Abschnitte – mehr fasst eine Slack-Nachricht nicht. Die ganze Antwort zeigt `effbatch` "
    "im Terminal."
)

FORM_TITLE = "Effektive Batch-Größe"
FORM_SUBMIT = "Berechnen"
FORM_CLOSE = "Abbrechen"
RESULT_CLOSE = "Schließen"
FORM_PARALLELISM = "Batch-Aufteilung"
FORM_SEQUENCE = "Sequenz"
FORM_CLUSTER = "Cluster (optional)"
FORM_CLUSTER_HINT = (
    "Mit „GPUs gesamt“ ergibt sich d = GPUs / (TP · PP); lass d dann leer oder trag den passenden Wert ein."
)
FORM_DATA_PARALLEL_HINT = "Leer lassen, wenn du unten „GPUs gesamt“ ausfüllst."
FORM_MEMORY = "Modell und GPU (optional)"
FORM_MEMORY_HINT = (
    "Mit einem Modell schätze ich den Speicher je GPU, mit der GPU auch, ob das Training hineinpasst und wie lange "
    "es dauert. "
    "Weitere Schlüssel wie `zero=` oder `recompute=` im Befehl, siehe `/effbatch hilfe speicher`."
)
FORM_MODEL = "Modell"
FORM_GPU = "GPU"
FORM_SELECT_NONE = "– keine Angabe –"
FORM_VISIBILITY = "Antwort"
FORM_SHARE = "im Channel teilen"
FORM_PRIVATE = "nur für mich"
FORM_NEEDS_DEVICES = "Gib d an oder füll unten „GPUs gesamt“ aus."
FORM_REQUIRED = "Trag eine ganze Zahl ab 1 ein."
#: A form or button whose hidden state (private_metadata, a button's value) cannot be read: old, or not ours.
FORM_DAMAGED = (
    "Dieses Formular ist abgelaufen oder beschädigt: Ich kann nicht mehr lesen, wofür es war. Öffne es neu, "
    "z. B. mit `/effbatch` ohne Text oder über „Anpassen…“ unter einer Antwort."
)
FORM_REPLACE_NOTE = "Die Antwort im Channel wird durch die neue ersetzt."
FORM_POST_FAILED = (
    "Die Antwort ließ sich nicht in den Channel senden (Slack hat abgelehnt oder nicht geantwortet). "
    "Hier ist sie für dich:"
)
OPEN_FORM_FAILED = (
    ":warning: Das Formular ließ sich gerade nicht öffnen ({detail}). Du kannst die Werte auch direkt "
    f"angeben, z. B. `{COMMAND} 8 64 4 4096`."
)
SLACK_TIMEOUT = "Zeitüberschreitung"
SLACK_NO_CONNECTION = "keine Verbindung"
SLACK_REFUSED = "Slack: {error}"
INTERNAL_ERROR = (
    ":x: Da ist bei mir etwas schiefgegangen – es lag nicht an deiner Eingabe. Der Fehler ist protokolliert; "
    "bitte versuch es gleich noch einmal."
)

# --- the local console ----------------------------------------------------------------------

CONSOLE_INTRO = (
    "effbatch – lokale Konsole: dieselbe Antwort wie in Slack, ganz ohne Slack.\n"
    f"Tipp einen Befehl wie in Slack, z. B. {COMMAND} 8 64 4 4096 oder {COMMAND} hilfe; "
    "eine Zahl wie 1 wählt einen Button der letzten Antwort. Konfigurationen: `prüfe DATEI` oder `prüfe` und die "
    "Konfiguration darunter einfügen (abschließen mit einer Leerzeile). Beenden mit exit, Strg+D oder Strg+C."
)
CONSOLE_PROMPT = "> "
CONSOLE_MORE_PROMPT = "… "
CONSOLE_UNKNOWN_COMMAND = "„{typed}“ kenne ich nicht – der Befehl heißt {command}, z. B. {command} 8 64 4 4096."
CONSOLE_CHECK_FILE = (
    "Lässt sich der eingefügte Text nicht lesen, prüfe stattdessen die Datei: hier mit `prüfe DATEI` oder im "
    "Terminal mit `{program} check DATEI`."
)
CONSOLE_EPHEMERAL = "(nur für dich sichtbar)"
CONSOLE_NO_FORM = (
    f"Das Formular öffnet sich nur in Slack. Hier tippst du die Werte direkt, z. B. {COMMAND} 8 64 4 4096 "
    f"(b d a L) oder {COMMAND} gpus=512 tp=8 b=2 B=2048."
)
CONSOLE_NO_CHOICE = "Die letzte Antwort hat keinen Button {number}; wählbar: 1 bis {last}."
CONSOLE_NO_CHOICES = "Die letzte Antwort hat keine Buttons; tipp einen Befehl, z. B. {command} 8 64 4 4096."
CONSOLE_CHOSEN = "→ {label}"
