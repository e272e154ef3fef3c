"""What whoever runs the bot reads: settings, start-up, the command lines' own help."""

from __future__ import annotations

BOT_DESCRIPTION = "Der effbatch-Slack-Bot: effektive Batch-Größe und Tokens je Optimierer-Schritt."
BOT_MODE_HELP = (
    "socket (Socket Mode, Standard mit SLACK_APP_TOKEN), http (mit SLACK_BOT_TOKEN allein, oder mit SLACK_CLIENT_ID "
    "und SLACK_CLIENT_SECRET für jeden Workspace, der es installiert) "
    "oder console (lokal, ohne Tokens)"
)
BOT_PORT_HELP = "Port für HTTP bzw. /healthz (Standard: PORT oder 3000)"
BOT_HOST_HELP = "Adresse, an die der Server sich bindet (Standard: 0.0.0.0)"
BOT_ENV_FILE_HELP = "Datei mit Einstellungen (Standard: .env; Umgebungsvariablen haben Vorrang)"

CONFIG_ERROR = "Konfigurationsfehler: {problems}"
CONFIG_ERRORS = "Konfigurationsfehler:\n{problems}"
CONFIG_PROBLEM = "{variable}: {problem}."
CONFIG_BULLET = "• {variable}: {problem}"
CONFIG_HINT = "Alle Einstellungen mit Erklärung: .env.example"
MISSING_FOR_MODE = "fehlt, wird für --mode {mode} gebraucht"
INVALID_VALUE = "ungültiger Wert {value}{allowed}"
HIDDEN = "(verborgen)"
PREFIX_REQUIRED = "muss mit {prefix} beginnen ({what})"
BOT_TOKEN_WHERE = "Bot User OAuth Token unter „OAuth & Permissions“"
APP_TOKEN_WHERE = "App-Level Token mit connections:write unter „Basic Information“"
API_URL_REQUIRED = "muss eine http(s)-URL sein, z. B. https://slack.com/api/"
ONE_WORKSPACE_OR_ALL = (
    "zusammen mit SLACK_BOT_TOKEN nicht möglich: SLACK_BOT_TOKEN bedient genau einen Workspace, "
    "SLACK_CLIENT_ID und SLACK_CLIENT_SECRET installieren effbatch in beliebig viele – eins von beiden weglassen"
)
OAUTH_NEEDS_HTTP = (
    "die Installation in beliebige Workspaces (OAuth) braucht --mode http: Slack leitet nach der Installation "
    "auf /slack/oauth_redirect weiter"
)
#: What a setting accepts, shown after a value it does not.
ALLOWED = {
    "EFFBATCH_RESPONSE_TYPE": " – erlaubt: in_channel, ephemeral",
    "LOG_LEVEL": " – erlaubt: DEBUG, INFO, WARNING, ERROR",
    "PORT": " – erwartet: eine Portnummer von 1 bis 65535",
    "WEB_CONCURRENCY": " – erwartet: eine Zahl von 1 bis 64",
    "LOG_FORMAT": " – erlaubt: plain, json",
    "EFFBATCH_LOG_COMMAND_TEXT": " – erlaubt: true, false",
    "EFFBATCH_ANSWER_CACHE": " – erwartet: eine Zahl von 0 (aus) bis 4.096",
    "EFFBATCH_DRAIN_SECONDS": " – erwartet: Sekunden von 0 bis 60",
    "EFFBATCH_MIGRATE": " – erlaubt: startup, off",
}

USAGE_PREFIX = "Aufruf: "
OPTIONS_TITLE = "Optionen"
POSITIONALS_TITLE = "Argumente"
HELP_OPTION = "diese Hilfe zeigen und beenden"
ARGUMENT_ERROR = "{prog}: Fehler: {message}\n"
#: argparse's English messages (as Python 3.11 words them) and their German wording.
ARGPARSE_MESSAGES = (
    (r"argument (\S+): invalid choice: (.+) \(choose from (.+)\)", "Argument {0}: ungültige Wahl {1} (möglich: {2})"),
    (r"argument (\S+): invalid int value: (.+)", "Argument {0}: {1} ist keine ganze Zahl"),
    (r"argument (\S+): invalid \w+ value: (.+)", "Argument {0}: ungültiger Wert {1}"),
    (r"argument (\S+): expected one argument", "Argument {0}: braucht einen Wert"),
    (r"unrecognized arguments: (.+)", "unbekannte Argumente: {0}"),
    (r"ambiguous option: (\S+) could match (.+)", "mehrdeutige Option {0}, passt zu {1}"),
    (r"the following arguments are required: (.+)", "es fehlt: {0}"),
    (r"argument (\S+): not allowed with argument (\S+)", "Argument {0} geht nicht zusammen mit {1}"),
)
PORT_IN_USE = "Port {port} ist nicht verfügbar ({detail}). Wähle mit --port oder PORT einen anderen."

SLACK_REJECTED = (
    "Slack hat die Anmeldung abgelehnt ({detail}). Prüfe SLACK_BOT_TOKEN und SLACK_APP_TOKEN; Erklärung in .env.example"
)
SLACK_UNREACHABLE = "Slack ist unter {url} nicht erreichbar ({detail}). Prüfe das Netz oder SLACK_API_URL."

UNKNOWN_COMMAND = "„{typed}“ kenne ich nicht – meintest du {meant}? Alles Weitere: effbatch --help"
JSON_NEEDS_VALUES = "Mit --json gibt es keine Hilfe als JSON; ruf effbatch hilfe ohne --json auf."

# --- effbatch check ---------------------------------------------------------------------------

#: ``{count}`` and ``{frameworks}`` come from the registry (``bot.texts.checks.framework_list``), never by hand.
CHECK_DESCRIPTION = (
    "Prüft Trainingskonfigurationen und Startzeilen von {count} Frameworks ({frameworks}): die Batch-Größe, "
    "die das Framework wirklich verwendet, und was es ablehnt. "
    "Exit-Code 0: stimmig (Warnungen erlaubt), 1: mindestens ein Fehler, 2: nicht lesbar oder es fehlt etwas."
)
CHECK_EPILOG = (
    "Beispiele: effbatch check ds_config.json --world-size 64 · effbatch check train.sh · "
    "effbatch check --each --json configs/*.yaml"
)
CHECK_FILES_HELP = "Konfigurationsdateien oder Startskripte; - liest von der Standardeingabe"
CHECK_WORLD_HELP = "Zahl der GPUs (Prozesse) insgesamt, wenn keine Startzeile sie nennt"
CHECK_NODES_HELP = "Knoten, mit --nproc-per-node statt --world-size"
CHECK_PER_NODE_HELP = "GPUs je Knoten, mit --nnodes"
CHECK_FRAMEWORK_HELP = "Framework statt der Erkennung am Inhalt"
CHECK_GPU_HELP = (
    "GPU, mit deren Speicher der geschätzte Speicher je GPU verglichen wird (h100, h200, b200, a100-40, a100-80, "
    "l40s, mi300x, tpu-v5e, tpu-v5p); eine Warnung, wenn der Micro-Batch nicht passt"
)
CHECK_JSON_HELP = "ein JSON-Objekt statt Text (Schema: schema/effbatch.schema.json); mit --each eins je Zeile"
CHECK_FORMAT_HELP = (
    "text (Standard), json (wie --json) oder github: jeder Befund als Annotation der GitHub Actions "
    "(::error file=…,line=…::…) an der Zeile des Werts, dann der Text"
)
CHECK_EACH_HELP = "jede Datei für sich prüfen (pre-commit, CI); Dateien ohne Batch-Einstellungen werden übersprungen"
CHECK_SKIPPED = "{name}: keine Batch-Einstellungen eines Frameworks gefunden – übersprungen"
CHECK_SET_HELP = (
    "ein Wert, den erst der Start des Skripts festlegt, so wie seine Startzeile ihn übergäbe: --set bs=16 liest "
    "args.bs als 16 (mehrfach möglich)"
)
CHECK_VERSION_HELP = (
    "die Version eines Frameworks, mit der der Lauf startet, wie eine requirements.txt sie nennt: "
    "--framework-version trl==0.18.0 (Regeln, die erst ab oder nur bis zu einer Version gelten)"
)
CHECK_VERSION_FORM = "--framework-version erwartet PAKET==VERSION, z. B. trl==0.18.0; „{item}“ hat diese Form nicht."
CHECK_SET_FORM = "--set erwartet NAME=WERT, z. B. --set bs=16; „{item}“ hat diese Form nicht."
CHECK_WORLD_BOTH = "--world-size oder --nnodes mit --nproc-per-node, nicht beides"
CHECK_WORLD_PAIR = "--nnodes und --nproc-per-node gehören zusammen"
CHECK_NOT_POSITIVE = "{option} braucht eine ganze Zahl ab 1"
CHECK_NO_FILE = "{name}: Datei nicht gefunden"
CHECK_NOT_TEXT = "{name}: kein UTF-8-Text"
CHECK_NOT_A_FILE = "{name}: keine gewöhnliche Datei (ein Gerät, eine Pipe oder ein Verzeichnis) – ich lese nur Dateien"
CHECK_STREAM_TOO_LARGE = "{name} ist größer als {max}; mehr lese ich nicht"
STDIN = "Standardeingabe"
