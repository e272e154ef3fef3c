"""What answers say: titles, formula words, notes, buttons, the form and the console.

Templates take already formatted numbers (``{batch}`` is "2.048"); ``bot.rendering``
fills them in.
"""

from __future__ import annotations

from bot.texts.glossary import COMMAND

# --- a computed setup -----------------------------------------------------------------------

RESULT_TITLE = "Effektive Batchgröße: {batch} Sequenzen"
GLOBAL_BATCH_TITLE = "Globale Batchgröße – Sequenzen je Optimizer-Schritt"
TOKENS_TITLE = "Tokens je Optimizer-Schritt"
TOKENS_UNIT = "Tokens"
TOKENS_ROUNDED = "≈ {reading} Tokens"
SOLVED_MARK = "berechnet"
DERIVED_MARK = "aus den GPUs"
MODEL_PARALLEL_FIELD = "TP · PP · CP · SP"
GPUS_TITLE = "Datenparallele Replikate"
GPUS_DERIVED_TITLE = "GPUs gesamt"
SOLVED_TITLE = "Gesucht: {label}"
TOKENS_HINT_TITLE = "Tokens je Schritt"
TOKENS_HINT = (
    "Mit der Sequenzlänge als viertem Wert oder `L=` rechne ich auch T = B · L aus, "
    f"z. B. `{COMMAND} 8 64 4 4096` oder `{COMMAND} 8 64 4 L=4k`."
)
MODEL_LIMITS = (
    "d zählt nur datenparallele Replikate: Tensor-, Pipeline-, Kontext- und Sequenzparallelität teilen ein "
    "Replikat auf und zählen nicht mit, d = GPUs / (TP · PP · CP · SP). "
    "T setzt feste (gepackte) Sequenzlängen voraus."
)
BUDGET_TITLE = "Optimizer-Schritte für das Budget"
BUDGET_READING = "Budget ≈ {reading} Tokens"
STEPS = "Schritte"
BUDGET = "Budget"
ACTIVATION_TITLE = "Aktivierungsspeicher je Gerät"
ACTIVATION_NOTE = (
    "Gradientenakkumulation erhöht ihn nicht: die a Durchläufe laufen nacheinander, gleichzeitig liegen nur "
    "b Sequenzen im Speicher. Deshalb kann Akkumulation einen größeren Micro-Batch ersetzen."
)
RESULT_SUMMARY = "Effektive Batchgröße {batch_formula} Sequenzen je Optimizer-Schritt"
RESULT_SUMMARY_TOKENS = "; {token_formula} Tokens"
RESULT_SUMMARY_READING = " (≈ {reading} Tokens)"

# --- a target that whole numbers do not reach -------------------------------------------------

UNREACHABLE_TITLE = "Nicht genau erreichbar: {symbol} = {value}"
UNREACHABLE_EXPLANATION = (
    "{symbol} müsste keine ganze Zahl sein, also ist das Ziel mit ganzen Werten nicht genau "
    "erreichbar. Die nächsten möglichen Werte:"
)
OPTION = "`{symbol} = {value}` → B = {batch}"
OPTION_TOKENS = ", T = {tokens}"
OPTION_STEPS = ", {steps} Schritte"
UNREACHABLE_SUMMARY = "Ziel {target} nicht genau erreichbar: {choices}"
UNREACHABLE_CHOICE = "{symbol} = {value} (B = {batch})"

# --- comparison ---------------------------------------------------------------------------

BEFORE = "Vorher"
AFTER = "Nachher"
DERIVED_TITLE = "{side} – hergeleitet"
FACTOR_TITLE = "Faktor der globalen Batchgröße"
LR_TITLE = "Lernrate"
LR_LINEAR = "Linear ×k (Goyal et al. 2017, für SGD mit Warmup)"
LR_SQRT = "Wurzel ×√k (Malladi et al. 2022, für Adam-artige Optimierer)"
LR_RULE = "{rule}: ×{factor}"
LR_RULE_SCALED = "{rule}: `{base} × {factor} = {scaled}`"
LR_HINT = "Mit `lr=3e-4` rechne ich die neuen Lernraten aus."
LR_UNCHANGED = "Die globale Batchgröße bleibt gleich: die Lernrate auch."
WARMUP_TITLE = "Ab k ≥ 8 das Warmup anpassen:"
WARMUP_WARNING = (
    "Ein so großer Sprung verträgt die hochskalierte Lernrate nur mit "
    "längerem Warmup (Goyal et al. fahren sie über 5 Epochen hoch); früh auf Divergenz achten."
)
RULES_OF_THUMB = "Skalierungsregeln sind Faustregeln für den Start, kein Ersatz für einen kurzen Sweep."
COMPARISON_TITLE = "Vergleich: B ×{factor} ({before} → {after})"
COMPARISON_SUMMARY = "Vergleich: B {before} → {after}, k = {factor}; Lernrate linear ×{factor}, Wurzel ×{sqrt}"

# --- what-if buttons and the form ---------------------------------------------------------------

WHATIF_ACCUMULATION_DOUBLE = "Akkumulation ×2"
WHATIF_ACCUMULATION_HALF = "Akkumulation ÷2"
WHATIF_DEVICES_DOUBLE = "Geräte ×2"
WHATIF_DEVICES_HALF = "Geräte ÷2"
WHATIF_MICRO_DOUBLE = "Micro-Batch ×2"
WHATIF_MICRO_HALF = "Micro-Batch ÷2"
WHATIF_ADJUST = "Anpassen…"
WHATIF_TAKE = "{symbol} = {value} übernehmen"
WHATIF_TAKEN = "Vorschlag übernommen"
CHANGED_BY = "Zuletzt geändert von {user}: {action}"

FORM_TITLE = "Effektive Batchgröße"
FORM_SUBMIT = "Berechnen"
FORM_CLOSE = "Abbrechen"
RESULT_CLOSE = "Schließen"
FORM_PARALLELISM = "Parallelität"
FORM_SEQUENCE = "Sequenz"
FORM_CLUSTER = "Cluster (optional)"
FORM_CLUSTER_HINT = "Mit GPUs gesamt ergibt sich d = GPUs / (TP · PP); d dann leer lassen oder passend setzen."
FORM_DATA_PARALLEL_HINT = "Leer lassen, wenn unten die GPUs gesamt stehen."
FORM_VISIBILITY = "Antwort"
FORM_SHARE = "im Kanal teilen"
FORM_PRIVATE = "nur für mich"
FORM_NEEDS_DEVICES = "Gib d an oder unten die GPUs gesamt."
FORM_REQUIRED = "Bitte eine ganze Zahl ab 1 eintragen."
FORM_REPLACE_NOTE = "Die Antwort im Kanal wird durch die neue ersetzt."
FORM_POST_FAILED = (
    "Die Antwort konnte nicht in den Kanal gesendet werden (Slack hat abgelehnt oder nicht "
    "geantwortet). Hier ist sie für dich:"
)
OPEN_FORM_FAILED = (
    ":warning: Das Formular ließ sich gerade nicht öffnen ({detail}). Du kannst die Werte auch direkt "
    f"angeben, z. B. `{COMMAND} 8 64 4 4096`."
)
SLACK_TIMEOUT = "Zeitüberschreitung"
SLACK_NO_CONNECTION = "keine Verbindung"
SLACK_REFUSED = "Slack: {error}"
INTERNAL_ERROR = (
    ":x: Da ist bei mir etwas schiefgegangen – nicht an deiner Eingabe. Der Fehler ist protokolliert; "
    "bitte versuch es gleich noch einmal."
)

# --- the local console ----------------------------------------------------------------------

CONSOLE_INTRO = (
    "effbatch – lokale Konsole: dieselbe Antwort wie in Slack, ganz ohne Slack.\n"
    f"Tipp einen Befehl wie in Slack, z. B. {COMMAND} 8 64 4 4096 oder {COMMAND} hilfe; "
    "Ende mit exit oder Strg+D."
)
CONSOLE_PROMPT = "> "
CONSOLE_EPHEMERAL = "(nur für dich sichtbar)"
