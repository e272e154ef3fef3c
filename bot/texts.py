"""Every German text effbatch shows, in one place.

Messages for input problems are keyed by ``ProblemKind`` and filled from the
problem's argument, text and ``ctx``; user text only ever appears through
``formatting.quote`` (shortened and escaped).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot import formulas
from bot.formatting import number, quote
from core import Argument, Problem, ProblemKind
from core.model import MODEL_PARALLEL, UPPER_BOUNDS
from core.parser import CASE_SENSITIVE_KEYS, KEY_ALIASES

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


def _list_de(items: Iterable[str]) -> str:
    """'a', 'a und b', 'a, b und c'."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " und " + items[-1]


# --- answers ------------------------------------------------------------------------------


def result_header(global_batch: str) -> str:
    return f"Effektive Batchgröße: {global_batch} Sequenzen"


GLOBAL_BATCH_TITLE = "Globale Batchgröße – Sequenzen je Optimizer-Schritt"
TOKENS_TITLE = "Tokens je Optimizer-Schritt"
TOKENS_UNIT = "Tokens"
SOLVED_MARK = "_berechnet_"
DERIVED_MARK = "_aus den GPUs_"
MODEL_PARALLEL_FIELD = "TP · PP · CP · SP"
GPUS_TITLE = "Datenparallele Replikate"
GPUS_DERIVED_TITLE = "GPUs gesamt"


def tokens_rounded(reading: str) -> str:
    return f"≈ {reading} Tokens"


def solved_title(argument: Argument) -> str:
    return f"Gesucht: {label(argument)}"


TOKENS_HINT = (
    "*Tokens je Schritt:* Mit der Sequenzlänge als viertem Wert oder `L=` rechne ich auch T = B · L aus, "
    f"z. B. `{COMMAND} 8 64 4 4096` oder `{COMMAND} 8 64 4 L=4k`."
)
MODEL_LIMITS = (
    "d zählt nur datenparallele Replikate: Tensor-, Pipeline-, Kontext- und Sequenzparallelität teilen ein "
    "Replikat auf und zählen nicht mit, d = GPUs / (TP · PP · CP · SP). "
    "T setzt feste (gepackte) Sequenzlängen voraus."
)
BUDGET_TITLE = "Optimizer-Schritte für das Budget"


def budget_reading(reading: str) -> str:
    return f"Budget ≈ {reading} Tokens"


ACTIVATION_TITLE = "Aktivierungsspeicher je Gerät"
ACTIVATION_NOTE = (
    "Gradientenakkumulation erhöht ihn nicht: die a Durchläufe laufen nacheinander, gleichzeitig liegen nur "
    "b Sequenzen im Speicher. Deshalb kann Akkumulation einen größeren Micro-Batch ersetzen."
)


def result_fallback(batch_formula: str, token_formula: str | None, token_reading: str | None) -> str:
    """The notification text: the whole result in one line."""
    text = f"Effektive Batchgröße {batch_formula} Sequenzen je Optimizer-Schritt"
    if token_formula is None:
        return text
    text = f"{text}; {token_formula} Tokens"
    return text if token_reading is None else f"{text} ({tokens_rounded(token_reading)})"


# --- a target that whole numbers do not reach -------------------------------------------------


def unreachable_header(target: Argument, value: str) -> str:
    return f"Nicht genau erreichbar: {target.symbol} = {value}"


def unreachable_explanation(argument: Argument) -> str:
    return (
        f"{argument.symbol} müsste keine ganze Zahl sein, also ist das Ziel mit ganzen Werten nicht genau "
        "erreichbar. Die nächsten möglichen Werte:"
    )


def option_line(symbol: str, value: str, batch: str, tokens: str | None, steps: str | None) -> str:
    line = f"• `{symbol} = {value}` → B = {batch}"
    if tokens is not None:
        line += f", T = {tokens}"
    if steps is not None:
        line += f", {steps} Schritte"
    return line


def unreachable_fallback(symbol: str, target: str, options: list[tuple[str, str]]) -> str:
    choices = " oder ".join(f"{symbol} = {value} (B = {batch})" for value, batch in options)
    return f"Ziel {target} nicht genau erreichbar: {choices}"


# --- comparison ---------------------------------------------------------------------------

BEFORE = "Vorher"


def derived_title(side: str) -> str:
    return f"{side} – hergeleitet"


AFTER = "Nachher"
FACTOR_TITLE = "Faktor der globalen Batchgröße"
LR_TITLE = "Lernrate"
LR_LINEAR = "Linear ×k (Goyal et al. 2017, für SGD mit Warmup)"
LR_SQRT = "Wurzel ×√k (Malladi et al. 2022, für Adam-artige Optimierer)"
LR_HINT = "Mit `lr=3e-4` rechne ich die neuen Lernraten aus."
LR_UNCHANGED = "Die globale Batchgröße bleibt gleich: die Lernrate auch."
WARMUP_WARNING = (
    ":warning: *Ab k ≥ 8 das Warmup anpassen:* Ein so großer Sprung verträgt die hochskalierte Lernrate nur mit "
    "längerem Warmup (Goyal et al. fahren sie über 5 Epochen hoch); früh auf Divergenz achten."
)
RULES_OF_THUMB = "Skalierungsregeln sind Faustregeln für den Start, kein Ersatz für einen kurzen Sweep."


def comparison_header(factor: str, before: str, after: str) -> str:
    return f"Vergleich: B ×{factor} ({before} → {after})"


def comparison_fallback(factor: str, before: str, after: str, sqrt: str) -> str:
    return f"Vergleich: B {before} → {after}, k = {factor}; Lernrate linear ×{factor}, Wurzel ×{sqrt}"


def lr_line(rule: str, factor: str, base: str | None, scaled: str | None) -> str:
    if base is None or scaled is None:
        return f"• {rule}: ×{factor}"
    return f"• {rule}: `{base} × {factor} = {scaled}`"


# --- errors -------------------------------------------------------------------------------

ERROR_TITLE = "Das habe ich nicht verstanden"
ERROR_USAGE = (
    f"*So geht's:* `{COMMAND} b d a [L]`, z. B. `{COMMAND} 8 64 4 4096`, "
    f"oder benannt `{COMMAND} b=8 d=64 a=4 L=4k`. Alle Schlüssel und Formate: `{COMMAND} hilfe`."
)
POSITIVE_WHOLE = "eine ganze Zahl ab 1, z. B. `8`, `4.096`, `4_096` oder `4k`"
MAX_PROBLEMS_SHOWN = 10
_SIDES = {"before": "vor `vs`", "after": "nach `vs`"}


def _about(problem: Problem) -> str:
    where = f"({_SIDES[problem.ctx['side']]}) " if problem.ctx.get("side") == "after" else ""
    return where + (f"{label(Argument(problem.argument))}: " if problem.argument else "")


def _typed(p: Problem) -> str:
    return quote(p.text or "")


def _missing(p: Problem) -> str:
    missing = p.ctx["missing"]
    verb = "fehlt" if len(missing) == 1 else "fehlen"
    return (
        f"Es {verb} {_list_de(label(a) for a in missing)}. Nötig sind b d a (für d auch `gpus=`), "
        "z. B. `8 64 4` – oder zwei davon und ein Ziel `B=` bzw. `T=`, dann rechne ich den dritten aus."
    )


def _not_enough(p: Problem) -> str:
    missing = p.ctx["missing"]
    return (
        f"Für ein Ziel brauche ich zwei der drei Werte b, d, a; es fehlen {_list_de(label(a) for a in missing)}. "
        "Gib einen davon an, den anderen rechne ich aus, z. B. `gpus=512 tp=8 b=2 B=2048`."
    )


def _unknown_key(p: Problem) -> str:
    text = f"Unbekannter Schlüssel {quote(p.ctx['key'])} in {_typed(p)}."
    if p.ctx["suggestions"]:
        text += " Meintest du " + " oder ".join(f"`{s}=`" for s in p.ctx["suggestions"]) + "?"
    return text + " Alle Schlüssel zeigt `/effbatch hilfe`."


def _too_long(p: Problem) -> str:
    bound = number(UPPER_BOUNDS[Argument(p.argument)])
    return f"{_typed(p)} hat zu viele Stellen. Erwartet: höchstens {bound}."


def _unknown_suffix(p: Problem) -> str:
    allowed = ", ".join(dict.fromkeys(p.ctx["allowed"]))
    text = f"{_typed(p)} hat die unbekannte Endung {quote(p.ctx['suffix'])}. Erlaubt: {allowed}"
    if p.argument == Argument.SEQ_LEN:
        return text + " (bei der Sequenzlänge heißt k ×1.024, also 4k = 4.096)."
    return text + "."


def _degrees(by_argument: dict[Any, int]) -> str:
    return formulas.degrees(by_argument[a] for a in MODEL_PARALLEL)


def _gpus_not_divisible(p: Problem) -> str:
    ctx = p.ctx
    fits = [number(v) for v in (ctx["below"], ctx["above"]) if v]
    return (
        f"{number(ctx['gpus'])} GPUs lassen sich nicht auf TP · PP · CP · SP = {_degrees(ctx['degrees'])} = "
        f"{number(ctx['product'])} aufteilen (Rest {number(ctx['remainder'])}). "
        f"Passend wären z. B. {' oder '.join(fits)} GPUs."
    )


def _data_parallel_conflict(p: Problem) -> str:
    ctx = p.ctx
    return (
        f"angegeben ist d = {number(ctx['given'])}, aus den GPUs folgt aber d = {number(ctx['gpus'])} / "
        f"({_degrees(ctx['degrees'])}) = {number(ctx['derived'])}. Gib nur eins von beiden an."
    )


def _target_conflict(p: Problem) -> str:
    ctx, target = p.ctx, Argument(p.argument)
    values = [*ctx["factors"].values()] + ([ctx["seq_len"]] if ctx["seq_len"] else [])
    formula = "b · d · a · L" if ctx["seq_len"] else "b · d · a"
    shown = " × ".join(number(v) for v in values)
    return (
        f"{formula} = {shown} = {number(ctx['product'])}, vorgegeben ist aber {target.symbol} = "
        f"{number(ctx['target'])}. Lass einen der Werte b, d, a weg, dann rechne ich ihn passend aus."
    )


def _side_not_exact(p: Problem) -> str:
    return (
        f"Im Vergleich geht die Seite {_SIDES[p.ctx['side']]} nicht in ganzen Zahlen auf. "
        "Rechne sie erst einzeln und übernimm einen der vorgeschlagenen Werte."
    )


_PROBLEM_TEXTS: dict[ProblemKind, Callable[[Problem], str]] = {
    ProblemKind.MISSING_VALUES: _missing,
    ProblemKind.TOO_MANY_VALUES: lambda p: (
        f"{_typed(p)} ist ein Wert zu viel: höchstens vier Zahlen ohne Namen, in der Reihenfolge b d a L."
    ),
    ProblemKind.POSITIONAL_AFTER_NAMED: lambda p: (
        f"{_list_de(quote(t) for t in p.ctx['texts'])} {'steht' if len(p.ctx['texts']) == 1 else 'stehen'} "
        "ohne Namen hinter einem benannten Wert. Zahlen ohne Namen kommen zuerst (b d a L), benannte danach, "
        "z. B. `8 64 a=4` – oder alles benannt: `tp=8 b=8 d=64 a=4`."
    ),
    ProblemKind.UNKNOWN_KEY: _unknown_key,
    ProblemKind.DUPLICATE: lambda p: (
        f"doppelt angegeben, als {quote(p.ctx['first'])} und als {_typed(p)}. Bitte nur einmal."
    ),
    ProblemKind.EMPTY_VALUE: lambda p: f"in {_typed(p)} fehlt der Wert nach `=`. Erwartet: {POSITIVE_WHOLE}.",
    ProblemKind.NOT_A_NUMBER: lambda p: f"{_typed(p)} ist keine Zahl. Erwartet: {POSITIVE_WHOLE}.",
    ProblemKind.BAD_GROUPING: lambda p: (
        f"{_typed(p)} ist keine ganze Zahl: Der Punkt trennt nur Dreiergruppen (4.096, 1.048.576). "
        f"Erwartet: {POSITIVE_WHOLE}."
    ),
    ProblemKind.NOT_WHOLE: lambda p: f"{_typed(p)} ist keine ganze Zahl. Erwartet: {POSITIVE_WHOLE}.",
    ProblemKind.NOT_POSITIVE: lambda p: f"{_typed(p)} ist nicht positiv. Erwartet: {POSITIVE_WHOLE}.",
    ProblemKind.SCIENTIFIC: lambda p: (
        f"{_typed(p)}: Exponentenschreibweise lese ich hier nicht. Schreib z. B. `1000` oder `1k`."
    ),
    ProblemKind.UNKNOWN_SUFFIX: _unknown_suffix,
    ProblemKind.TOO_LONG: _too_long,
    ProblemKind.TOO_LARGE: lambda p: (
        f"{_typed(p)} liegt über der Obergrenze von {number(p.ctx['le'])}. Das ist vermutlich ein Tippfehler."
    ),
    ProblemKind.MISSING_UNIT: lambda p: (
        f"{_typed(p)} braucht eine Einheit: B, KB, MB, GB, TB (×1.000) oder KiB, MiB, GiB, TiB (×1.024), "
        "z. B. `act=1,5GiB`."
    ),
    ProblemKind.GPUS_NOT_DIVISIBLE: _gpus_not_divisible,
    ProblemKind.DATA_PARALLEL_CONFLICT: _data_parallel_conflict,
    ProblemKind.TARGET_CONFLICT: _target_conflict,
    ProblemKind.NOT_ENOUGH_FACTORS: _not_enough,
    ProblemKind.NEEDS_SEQ_LEN: lambda p: "braucht die Sequenzlänge, z. B. `L=4096` oder als vierten Wert.",
    ProblemKind.TWO_TARGETS: lambda p: "`B=` und `T=` zusammen geht nicht: Gib nur ein Ziel vor.",
    ProblemKind.SOLVED_OUT_OF_RANGE: lambda p: (
        f"dafür wäre {Argument(p.argument).symbol} = {number(p.ctx['value'])} nötig, mehr als die Obergrenze "
        f"{number(p.ctx['bound'])}."
    ),
    ProblemKind.LR_WITHOUT_COMPARISON: lambda p: (
        f"`lr=` skaliere ich nur im Vergleich zweier Setups, z. B. `{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4`."
    ),
    ProblemKind.TOO_MANY_COMPARISONS: lambda p: (
        f"Nur ein `vs` je Befehl: Ich vergleiche zwei Setups, z. B. `{COMMAND} 8 64 4 vs d=128`."
    ),
    ProblemKind.EMPTY_SIDE: lambda p: f"Vor und nach `vs` gehört ein Setup, z. B. `{COMMAND} 8 64 4 4096 vs d=512`.",
    ProblemKind.NOT_EXACT_IN_COMPARISON: _side_not_exact,
}


def problem_text(problem: Problem) -> str:
    """One problem in German, without naming the argument (a form shows it under the field)."""
    return _PROBLEM_TEXTS[problem.kind](problem)


def problem_lines(problems: Iterable[Problem]) -> list[str]:
    """One German sentence per problem, at most ``MAX_PROBLEMS_SHOWN`` plus a count of the rest."""
    problems = list(problems)
    lines = [_about(p) + _PROBLEM_TEXTS[p.kind](p) for p in problems[:MAX_PROBLEMS_SHOWN]]
    if len(problems) > MAX_PROBLEMS_SHOWN:
        lines.append(f"… und {len(problems) - MAX_PROBLEMS_SHOWN} weitere Probleme.")
    return lines


def error_fallback(lines: list[str]) -> str:
    return f"{ERROR_TITLE}: {lines[0]}"


INTERNAL_ERROR = (
    ":x: Da ist bei mir etwas schiefgegangen – nicht an deiner Eingabe. Der Fehler ist protokolliert; "
    "bitte versuch es gleich noch einmal."
)


# --- help ---------------------------------------------------------------------------------

HELP_TITLE = "effbatch – Hilfe"
HELP_INTRO = (
    "Ich rechne die *effektive (globale) Batchgröße* eines verteilten Trainings aus – die Zahl, auf die sich "
    "Lernrate, Warmup und veröffentlichte Rezepte beziehen – und die *Tokens je Optimizer-Schritt*:\n"
    "`B = b · d · a`   `T = B · L`"
)
HELP_USAGE = (
    "*Aufruf*\n"
    f"`{COMMAND} b d a [L]` – Zahlen in dieser Reihenfolge\n"
    f"`{COMMAND} b=8 d=64 a=4 L=4096` – benannt, in beliebiger Reihenfolge, auch nach den Zahlen\n"
    f"`{COMMAND} 8 64 4 4096 vs d=512` – zwei Setups vergleichen; was nach `vs` fehlt, gilt aus dem ersten weiter"
)
_HELP_GROUPS: tuple[tuple[str, tuple[Argument, ...], str], ...] = (
    (
        "Grundwerte",
        (Argument.MICRO_BATCH, Argument.DATA_PARALLEL, Argument.ACCUMULATION, Argument.SEQ_LEN),
        "`8 64 4 4096`",
    ),
    (
        "Cluster – d = GPUs / (TP · PP · CP · SP), Standard je 1",
        (Argument.GPUS, *MODEL_PARALLEL),
        "`gpus=512 tp=8 pp=2 b=2 a=16` → d = 32",
    ),
    (
        "Ziele – zwei von b, d, a angeben, den dritten rechne ich aus",
        (Argument.TARGET_BATCH, Argument.TARGET_TOKENS),
        "`gpus=512 tp=8 b=2 B=2048` → a = 16;  `b=2 d=32 T=4M L=2048`",
    ),
    (
        "Budget und Speicher",
        (Argument.BUDGET, Argument.ACTIVATION),
        "`8 64 4 4096 budget=2T` → Schritte;  `8 64 4 act=1,5GiB` → Speicher je Gerät",
    ),
    ("Vergleich", (Argument.LR,), "`8 64 4 4096 vs d=512 lr=3e-4`"),
)


def _keys_of(argument: Argument) -> list[str]:
    exact = [key for key, target in CASE_SENSITIVE_KEYS.items() if target is argument]
    return exact + [key for key, target in KEY_ALIASES.items() if target is argument]


def help_keys() -> list[str]:
    """One section per group of keys: every key with its aliases and an example, from the parser's tables."""
    sections = []
    for title, arguments, example in _HELP_GROUPS:
        lines = [f"*{title}*"]
        for argument in arguments:
            keys = ", ".join(f"`{key}`" for key in _keys_of(argument))
            lines.append(f"• {ARGUMENT_NAMES[argument]}: {keys}")
        lines.append(f"z. B. {example}")
        sections.append("\n".join(lines))
    return sections


HELP_CASE = (
    "Schlüssel: Groß-/Kleinschreibung egal, außer `B` (Ziel-Batchgröße) und `T` (Ziel-Tokens) – `b` ist der "
    "Batch je Gerät. Expertenparallelität (EP) ändert die dichte Datenparallelität nicht und zählt nicht mit. "
    "Lernraten im Vergleich: linear ×k (Goyal et al. 2017, SGD) und Wurzel ×√k (Malladi et al. 2022, Adam)."
)


_BOUNDS_SHOWN = (Argument.MICRO_BATCH, Argument.DATA_PARALLEL, Argument.ACCUMULATION, Argument.SEQ_LEN, Argument.GPUS)


def help_numbers() -> str:
    bounds = ", ".join(f"{a.symbol} {number(UPPER_BOUNDS[a])}" for a in _BOUNDS_SHOWN)
    return (
        "*Zahlen*\n"
        "`4096`, `4.096`, `1.048.576` (Punkt zwischen Dreiergruppen), `4_096`\n"
        "Endungen: `k` ×1.000, `M` ×1.000.000, `Ki` ×1.024, `Mi` ×1.048.576 – bei der Sequenzlänge heißt `k` "
        "×1.024 (`4k` = 4.096, `128k` = 131.072); bei Tokens auch `G`/`B` ×10⁹ und `T` ×10¹² (`budget=2T`)\n"
        "Speicher: `B`, `KB`, `MB`, `GB`, `TB` oder `KiB`, `MiB`, `GiB`, `TiB`; Lernrate: `3e-4` oder `0,0003`\n"
        f"Ganze Zahlen ab 1; Obergrenzen: {bounds}"
    )


HELP_EXAMPLES = (
    "*Beispiele*\n"
    f"`{COMMAND} 8 64 4 4096` → B = 2.048, T = 8.388.608\n"
    f"`{COMMAND} 8 64 8 4k` → doppelte Akkumulation: B = 4.096\n"
    f"`{COMMAND} gpus=384 tp=4 pp=12 b=2 B=2048 L=2048` → d = 8, a = 128 (BLOOM-176B)\n"
    f"`{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4` → k = 8 und neue Lernraten\n"
    f"`{COMMAND} 8 64 4 4096 privat` → Antwort nur für dich"
)


def help_visibility(shared_by_default: bool) -> str:
    if shared_by_default:
        who = "Antworten sieht der ganze Kanal; mit `privat` nur du."
    else:
        who = "Antworten sieht in diesem Workspace nur, wer fragt."
    return who + " Hilfe und Fehlermeldungen sieht immer nur du."


# --- console ------------------------------------------------------------------------------

CONSOLE_INTRO = (
    "effbatch – lokale Konsole: dieselbe Antwort wie in Slack, ganz ohne Slack.\n"
    f"Tipp einen Befehl wie in Slack, z. B. {COMMAND} 8 64 4 4096 oder {COMMAND} hilfe; "
    "Ende mit exit oder Strg+D."
)
CONSOLE_PROMPT = "> "
CONSOLE_EPHEMERAL = "(nur für dich sichtbar)\n"


# --- effbatch-bot (messages for whoever runs the bot) -----------------------------------------

BOT_DESCRIPTION = "Der effbatch-Slack-Bot: effektive Batchgröße und Tokens je Optimizer-Schritt."
BOT_MODE_HELP = (
    "socket (Socket Mode, Standard mit SLACK_APP_TOKEN), http (mit SLACK_BOT_TOKEN allein) "
    "oder console (lokal, ohne Tokens)"
)
BOT_PORT_HELP = "Port für HTTP bzw. /healthz (Standard: PORT oder 3000)"
BOT_HOST_HELP = "Adresse, an die der Server sich bindet (Standard: 0.0.0.0)"
BOT_ENV_FILE_HELP = "Datei mit Einstellungen (Standard: .env; Umgebungsvariablen haben Vorrang)"


def config_error(variable: str, problem: str) -> str:
    return f"Konfigurationsfehler: {variable} {problem}. Alle Einstellungen mit Erklärung: .env.example"


def slack_rejected(detail: str) -> str:
    return (
        f"Slack hat die Anmeldung abgelehnt ({detail}). Prüfe SLACK_BOT_TOKEN und SLACK_APP_TOKEN; "
        "Erklärung in .env.example"
    )


def slack_unreachable(url: str, detail: str) -> str:
    return f"Slack ist unter {url} nicht erreichbar ({detail}). Prüfe das Netz oder SLACK_API_URL."


JSON_NEEDS_VALUES = "Mit --json gibt es keine Hilfe als JSON; ohne --json aufrufen: effbatch hilfe"


# --- interactivity ------------------------------------------------------------------------

WHATIF_ACCUMULATION_DOUBLE = "Akkumulation ×2"
WHATIF_ACCUMULATION_HALF = "Akkumulation ÷2"
WHATIF_DEVICES_DOUBLE = "Geräte ×2"
WHATIF_DEVICES_HALF = "Geräte ÷2"
WHATIF_MICRO_DOUBLE = "Micro-Batch ×2"
WHATIF_MICRO_HALF = "Micro-Batch ÷2"
WHATIF_ADJUST = "Anpassen…"


def whatif_take(symbol: str, value: int) -> str:
    return f"{symbol} = {number(value)} übernehmen"


def changed_by(user_mention: str, action: str) -> str:
    return f"Zuletzt geändert von {user_mention}: {action}"


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
    ":warning: Die Antwort konnte nicht in den Kanal gesendet werden (Slack hat abgelehnt oder nicht "
    "geantwortet). Hier ist sie für dich:"
)
OPEN_FORM_FAILED = (
    ":warning: Das Formular ließ sich gerade nicht öffnen ({detail}). Du kannst die Werte auch direkt "
    f"angeben, z. B. `{COMMAND} 8 64 4 4096`."
)
WHATIF_HELP = (
    "Unter jeder Antwort stehen Was-wäre-wenn-Knöpfe (Akkumulation, Geräte, Micro-Batch ×2 bzw. ÷2, Anpassen…). "
    "Jede*r im Kanal kann sie drücken – es ist ein gemeinsames Planungswerkzeug; die Antwort wird ersetzt "
    "und nennt, wer zuletzt geändert hat. Ohne Argumente öffnet `/effbatch` ein Formular."
)

# --- App Home -----------------------------------------------------------------------------

HOME_TITLE = "effbatch – effektive Batchgröße"
HOME_WHAT = (
    "*Was ist die effektive Batchgröße?*\n"
    "Die Zahl der Sequenzen, über die ein Optimizer-Schritt mittelt: B = b · d · a – Batch je Gerät (b) mal "
    "datenparallele Geräte (d) mal Akkumulationsschritte (a). Mit der Sequenzlänge L ergibt T = B · L die "
    "Tokens je Schritt."
)
HOME_WHY = (
    "*Warum die globale und nicht die Micro-Batch?*\n"
    "Lernrate, Warmup-Länge und veröffentlichte Rezepte sind für die globale Batchgröße angegeben, nicht für "
    "das, was auf einen Chip passt. Wer von 8 auf 64 Geräte skaliert und B nicht neu rechnet, macht jedes "
    "Update achtmal größer – das Training kann divergieren oder stagnieren."
)
HOME_EXAMPLE = (
    "*Die Formel am Beispiel*\n"
    "`B = b · d · a = 8 × 64 × 4 = 2.048 Sequenzen`\n"
    "`T = B · L = 2.048 × 4.096 = 8.388.608 Tokens` (≈ 8,4 Mio.)\n"
    "Doppelte Akkumulation (a = 8) hebt B auf 4.096 – ohne mehr Speicher je Gerät."
)
HOME_LIMITS = (
    "*Grenzen*\n"
    "• Tensor-, Pipeline-, Kontext- und Sequenzparallelität teilen ein Replikat auf und zählen nicht zu d: "
    "d = GPUs / (TP · PP · CP · SP).\n"
    "• Tokens setzen feste (gepackte) Sequenzlängen voraus; mit Padding oder variabler Länge sind es weniger.\n"
    "• Prüfe, wie dein Framework Micro-Batches und Akkumulation zählt: DeepSpeed, Megatron-LM, Hugging Face "
    "Trainer und nanoGPT benennen und teilen sie unterschiedlich (nanoGPT teilt die Akkumulation z. B. durch "
    "die Zahl der GPUs)."
)
HOME_USAGE = (
    "*So fragst du*\n"
    f"`{COMMAND} 8 64 4 4096` – b d a L\n"
    f"`{COMMAND} gpus=512 tp=8 b=2 B=2048` – welches a ergibt B = 2.048?\n"
    f"`{COMMAND} 8 64 4 4096 budget=2T` – Schritte für 2 Billionen Tokens\n"
    f"`{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4` – Vergleich mit Lernraten-Skalierung\n"
    f"`{COMMAND} hilfe` – alle Schlüssel und Formate"
)
HOME_OPEN_FORM = "Rechner öffnen"
