"""Every German text effbatch shows, in one place.

Messages for input problems are keyed by ``ProblemKind`` and filled from the
problem's argument, text and ``ctx``; user text only ever appears through
``formatting.quote`` (shortened and escaped).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.formatting import number, quote
from core import Argument, Problem, ProblemKind
from core.model import UPPER_BOUNDS
from core.parser import KEY_ALIASES

COMMAND = "/effbatch"

ARGUMENT_NAMES = {
    Argument.MICRO_BATCH: "Batch je Gerät",
    Argument.DATA_PARALLEL: "Datenparallele Geräte",
    Argument.ACCUMULATION: "Akkumulationsschritte",
    Argument.SEQ_LEN: "Sequenzlänge",
}


def label(argument: Argument) -> str:
    """'Batch je Gerät (b)'."""
    return f"{ARGUMENT_NAMES[argument]} ({argument.symbol})"


# --- the answer ---------------------------------------------------------------------------


def result_header(global_batch: str) -> str:
    return f"Effektive Batchgröße: {global_batch} Sequenzen"


GLOBAL_BATCH_TITLE = "Globale Batchgröße – Sequenzen je Optimizer-Schritt"
TOKENS_TITLE = "Tokens je Optimizer-Schritt"
TOKENS_UNIT = "Tokens"


def tokens_rounded(reading: str) -> str:
    return f"≈ {reading} Tokens"


TOKENS_HINT = (
    "*Tokens je Schritt:* Mit der Sequenzlänge als viertem Wert oder `L=` rechne ich auch T = B · L aus, "
    f"z. B. `{COMMAND} 8 64 4 4096` oder `{COMMAND} 8 64 4 L=4k`."
)
MODEL_LIMITS = (
    "d zählt nur datenparallele Replikate: Tensor-, Pipeline-, Kontext- und Sequenzparallelität teilen ein "
    "Replikat auf und zählen nicht mit, d = GPUs / (TP · PP · CP · SP). "
    "T setzt feste (gepackte) Sequenzlängen voraus."
)


def result_fallback(batch_formula: str, token_formula: str | None, token_reading: str | None) -> str:
    """The notification text: the whole result in one line."""
    text = f"Effektive Batchgröße {batch_formula} Sequenzen je Optimizer-Schritt"
    if token_formula is None:
        return text
    text = f"{text}; {token_formula} Tokens"
    return text if token_reading is None else f"{text} ({tokens_rounded(token_reading)})"


# --- errors -------------------------------------------------------------------------------

ERROR_TITLE = "Das habe ich nicht verstanden"
ERROR_USAGE = (
    f"*So geht's:* `{COMMAND} b d a [L]`, z. B. `{COMMAND} 8 64 4 4096`, "
    f"oder benannt `{COMMAND} b=8 d=64 a=4 L=4k`. Alle Schlüssel und Formate: `{COMMAND} hilfe`."
)
POSITIVE_WHOLE = "eine ganze Zahl ab 1, z. B. `8`, `4.096`, `4_096` oder `4k`"
MAX_PROBLEMS_SHOWN = 10


def _list_de(items: Iterable[str]) -> str:
    """'a', 'a und b', 'a, b und c'."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " und " + items[-1]


def _about(problem: Problem) -> str:
    return f"{label(Argument(problem.argument))}: " if problem.argument else ""


def _missing(p: Problem) -> str:
    missing = p.ctx["missing"]
    verb = "fehlt" if len(missing) == 1 else "fehlen"
    return f"Es {verb} {_list_de(label(a) for a in missing)}. Nötig sind mindestens drei Werte: b d a, z. B. `8 64 4`."


def _unknown_key(p: Problem) -> str:
    text = f"Unbekannter Schlüssel {quote(p.ctx['key'])} in {quote(p.text or '')}."
    if p.ctx["suggestions"]:
        text += " Meintest du " + " oder ".join(f"`{s}=`" for s in p.ctx["suggestions"]) + "?"
    return text + " Bekannt sind `b`, `d`, `a`, `L` und ihre Aliase (siehe Hilfe)."


def _too_long(p: Problem) -> str:
    bound = number(UPPER_BOUNDS[Argument(p.argument)])
    return f"{quote(p.text or '')} hat zu viele Stellen. Erwartet: eine ganze Zahl von 1 bis {bound}."


def _unknown_suffix(p: Problem) -> str:
    allowed = ", ".join(dict.fromkeys(p.ctx["allowed"]))
    text = f"{quote(p.text or '')} hat die unbekannte Endung {quote(p.ctx['suffix'])}. Erlaubt: {allowed}"
    if p.argument == Argument.SEQ_LEN:
        return text + " (bei der Sequenzlänge heißt k ×1.024, also 4k = 4.096)."
    return text + " (k ×1.000, M ×1.000.000, Ki ×1.024, Mi ×1.048.576)."


_PROBLEM_TEXTS: dict[ProblemKind, Callable[[Problem], str]] = {
    ProblemKind.MISSING_VALUES: _missing,
    ProblemKind.TOO_MANY_VALUES: lambda p: (
        f"{quote(p.text or '')} ist ein Wert zu viel: höchstens vier Zahlen ohne Namen, in der Reihenfolge b d a L."
    ),
    ProblemKind.POSITIONAL_AFTER_NAMED: lambda p: (
        f"{quote(p.text or '')} steht ohne Namen hinter einem benannten Wert. Zahlen ohne Namen kommen zuerst "
        "(b d a L), benannte danach, z. B. `8 64 a=4`."
    ),
    ProblemKind.UNKNOWN_KEY: _unknown_key,
    ProblemKind.RESERVED_KEY: lambda p: (
        f"{quote(p.text or '')}: `{p.ctx['key']}` (groß) ist für die globale Batchgröße B und die Tokens je "
        "Schritt T reserviert und kann noch nicht vorgegeben werden. Für den Batch je Gerät schreib `b=` (klein)."
    ),
    ProblemKind.DUPLICATE: lambda p: (
        f"doppelt angegeben, als {quote(p.ctx['first'])} und als {quote(p.text or '')}. Bitte nur einmal."
    ),
    ProblemKind.EMPTY_VALUE: lambda p: f"in {quote(p.text or '')} fehlt der Wert nach `=`. Erwartet: {POSITIVE_WHOLE}.",
    ProblemKind.NOT_A_NUMBER: lambda p: f"{quote(p.text or '')} ist keine Zahl. Erwartet: {POSITIVE_WHOLE}.",
    ProblemKind.BAD_GROUPING: lambda p: (
        f"{quote(p.text or '')} ist keine ganze Zahl: Der Punkt trennt nur Dreiergruppen (4.096, 1.048.576). "
        f"Erwartet: {POSITIVE_WHOLE}."
    ),
    ProblemKind.NOT_WHOLE: lambda p: f"{quote(p.text or '')} ist keine ganze Zahl. Erwartet: {POSITIVE_WHOLE}.",
    ProblemKind.NOT_POSITIVE: lambda p: f"{quote(p.text or '')} ist nicht positiv. Erwartet: {POSITIVE_WHOLE}.",
    ProblemKind.SCIENTIFIC: lambda p: (
        f"{quote(p.text or '')}: Exponentenschreibweise lese ich hier nicht. Schreib z. B. `1000` oder `1k`."
    ),
    ProblemKind.UNKNOWN_SUFFIX: _unknown_suffix,
    ProblemKind.TOO_LONG: _too_long,
    ProblemKind.TOO_LARGE: lambda p: (
        f"{quote(p.text or '')} liegt über der Obergrenze von {number(p.ctx['le'])}. Das ist vermutlich ein Tippfehler."
    ),
}


def problem_lines(problems: Iterable[Problem]) -> list[str]:
    """One German sentence per problem, at most ``MAX_PROBLEMS_SHOWN`` plus a count of the rest."""
    problems = list(problems)
    lines = [_about(p) + _PROBLEM_TEXTS[p.kind](p) for p in problems[:MAX_PROBLEMS_SHOWN]]
    if len(problems) > MAX_PROBLEMS_SHOWN:
        lines.append(f"… und {len(problems) - MAX_PROBLEMS_SHOWN} weitere Probleme.")
    return lines


def error_fallback(lines: list[str]) -> str:
    return f"{ERROR_TITLE}: {lines[0]}"


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
    f"`{COMMAND} b=8 d=64 a=4 L=4096` – benannt, in beliebiger Reihenfolge, auch nach den Zahlen"
)


def help_keys() -> str:
    """Every key with its aliases, straight from the parser's table."""
    lines = ["*Schlüssel* (Groß-/Kleinschreibung egal, außer `B` und `T`)"]
    for argument in Argument:
        aliases = ", ".join(f"`{key}`" for key, target in KEY_ALIASES.items() if target is argument)
        optional = " – optional" if argument is Argument.SEQ_LEN else ""
        lines.append(f"• {label(argument)}{optional}: {aliases}")
    lines.append("`B` und `T` (groß) sind für globale Batchgröße und Tokens je Schritt reserviert.")
    return "\n".join(lines)


def help_numbers() -> str:
    bounds = ", ".join(f"{a.symbol} {number(UPPER_BOUNDS[a])}" for a in Argument)
    return (
        "*Zahlen*\n"
        "`4096`, `4.096`, `1.048.576` (Punkt zwischen Dreiergruppen), `4_096`\n"
        "Endungen: `k` ×1.000, `M` ×1.000.000, `Ki` ×1.024, `Mi` ×1.048.576 – bei der Sequenzlänge heißt `k` "
        "×1.024 (`4k` = 4.096, `128k` = 131.072)\n"
        f"Ganze Zahlen ab 1; Obergrenzen: {bounds}"
    )


HELP_EXAMPLES = (
    "*Beispiele*\n"
    f"`{COMMAND} 8 64 4 4096` → B = 2.048, T = 8.388.608\n"
    f"`{COMMAND} 8 64 8 4k` → doppelte Akkumulation: B = 4.096\n"
    f"`{COMMAND} micro=2 dp=8 gas=128 seq=2048`\n"
    f"`{COMMAND} 8 64 4 4096 privat` → Antwort nur für dich"
)


def help_visibility(shared_by_default: bool) -> str:
    if shared_by_default:
        who = "Antworten sieht der ganze Kanal; mit `privat` nur du."
    else:
        who = "Antworten sieht in diesem Workspace nur, wer fragt."
    return who + " Hilfe und Fehlermeldungen sieht immer nur du."


INTERNAL_ERROR = (
    ":x: Da ist bei mir etwas schiefgegangen – nicht an deiner Eingabe. Der Fehler ist protokolliert; "
    "bitte versuch es gleich noch einmal."
)


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
