"""What a config check says: frameworks, findings by rule, the formulas, and why a config cannot be read.

Templates take formatted numbers; the framework's own error text arrives as ``{message}`` and is
quoted as the framework writes it (English), so it can be searched for.
"""

from __future__ import annotations

from collections.abc import Mapping

from effbatch.bot.texts.frameworks import Name, collected
from effbatch.bot.texts.glossary import COMMAND, list_de
from effbatch.core.configs import Derivation, Level, Origin, ProblemKind

#: Names by framework id; each rule's finding by its code, its placeholders exactly the fields of the rule's context
#: (the framework's own message is quoted after it, the fix after that); each framework's own formulas. One module
#: per framework in ``bot.texts.frameworks``.
FRAMEWORKS, FINDINGS, _FRAMEWORK_FORMULAS, LOOKS_FOR = collected()
__all__ = ["FINDINGS", "FRAMEWORKS", "LOOKS_FOR", "Name", "framework_list"]


def framework_list() -> tuple[int, str]:
    """How many frameworks the registry checks, and their German titles in alphabetical order, as a list."""
    from effbatch.core.configs import FRAMEWORK_IDS

    titles = sorted((FRAMEWORKS[framework].title for framework in FRAMEWORK_IDS), key=str.casefold)
    return len(titles), list_de(titles)


LEVELS: Mapping[Level, str] = {Level.ERROR: "Fehler", Level.WARNING: "Warnung", Level.INFO: "Hinweis"}
LEVEL_MARKS: Mapping[Level, str] = {Level.ERROR: "✖", Level.WARNING: "⚠", Level.INFO: "ℹ"}

TITLE_OK = "{framework}: effektive Batch-Größe {batch} Sequenzen"
TITLE_FAILED = "{framework}: So startet dieser Lauf nicht"
TITLE_DIFFERS = "{framework}: trainiert mit B = {batch} statt {intended}"
TITLE_CHANGED = "{framework}: trainiert mit B = {batch} – anders als angegeben"
TITLE_UNKNOWN = "{framework}: Batch-Größe offen"
SUMMARY_OK = "{framework}: effektive Batch-Größe {batch} Sequenzen{tokens}, {findings}"
SUMMARY_TOKENS = ", {tokens} Tokens je Optimierer-Schritt"
SUMMARY_ROLLOUT = ", je Rollout {sequences} Sequenzen in {steps} Optimierer-Schritten"
SUMMARY_FAILED = "{framework}: {count} Fehler – der Lauf startet so nicht"
SUMMARY_DIFFERS = "{framework}: trainiert mit B = {batch} statt {intended} Sequenzen"
SUMMARY_UNKNOWN = "{framework}: Die Batch-Größe lässt sich aus dieser Konfiguration allein nicht bestimmen"
NO_FINDINGS = "keine Auffälligkeiten"
#: How many warnings, by whether it is one: (several, one).
WARNINGS = ("{count} Warnungen", "eine Warnung")
READ_TITLE = "Gelesen"
#: A value read: key and value as the file writes them, as code (findable there), then where.
READ_LINE = "`{key} = {value}` ({where})"
#: Where a script's expression (``args.bs``, ``BATCH``) only names the value: where that was set, by how.
READ_VIA = {
    Origin.WRITTEN: ", aus {name} ({where})",
    Origin.DEFAULT: ", Vorgabe von {name} ({where})",
    Origin.LAUNCH: ", {name} in der Startzeile ({where})",
    Origin.SET: ", aus `{name}`",
}
READ_VIA_REPLACED = " statt der Vorgabe {value} ({where})"
#: A later layer of the run (a launch flag, the script) set the value again.
READ_OVER = ", überschreibt {value} ({where})"
#: A text value overridden (DeepSpeed's "auto"): quoted, so that it reads as a value, not a word.
READ_OVER_TEXT = '"{value}"'
READ_MORE = "… und {count} weitere Werte"
#: Several lines of one file read together.
PLACE_LINES = "{file}, Zeilen {lines}"
#: How a world size came about, where a launcher or a SLURM header set it.
WHERE_SBATCH = "#SBATCH {nodes} Knoten × {per_node} GPUs"
WHERE_NODES = "{nodes} Knoten × {per_node} GPUs"
WHERE_LAUNCH = "Startzeile `{launcher}`"
WHERE_PROFILE = "Channel-Profil"
LAUNCHERS = ("torchrun", "deepspeed", "accelerate", "python", "torch.distributed.run", "srun", "mpirun")
#: A switch read (a flag given, ``packing: true``).
READ_TRUE, READ_FALSE = "ja", "nein"
DERIVED_TITLE = "So rechnet {framework}"
FINDINGS_TITLE = "Befunde"
FINDING_LINE = "{mark} {level}: {text}"
#: A fix in the config's own syntax: each alternative as code, joined by ``FIX_OR``.
FIX = "Passend wäre: {fix}."
FIX_SECTION = "{fix} (unter `{section}`)"
FIX_WORLD = "Passend wären {fix} {devices}."
#: What a world size counts, by framework where it is not GPUs (MaxText's configs are TPU slices: chips).
DEVICES = "GPUs"
DEVICES_BY_FRAMEWORK: Mapping[str, str] = {"maxtext": "Chips"}
FIX_OR = " oder "
#: ``of``: the framework after „Meldung“ („von DeepSpeed“, „des Hugging Face Trainers“).
QUOTED = "Meldung {of}: `{message}`"
#: A bare ``assert`` a framework fails with has no message of its own: the assertion is quoted instead.
QUOTED_ASSERT = "Assertion in {framework}: `{message}`"
#: Where a long list in the framework's own message was shortened (inside the quote).
QUOTED_MORE = " … und {count} weitere … "
#: Findings beyond those shown one by one.
FINDINGS_MORE = "… und {count} weitere Befunde; alle zeigt `effbatch check --json`."
SCHEDULE_TITLE = "Batch-Größen-Plan"
SCHEDULE_PHASE = "ab {start} Sequenzen: B = {batch}{until}"
SCHEDULE_UNTIL = " für {samples} Sequenzen ≈ {steps} Optimierer-Schritte{tokens}"
SCHEDULE_TOKENS = ", {tokens} Tokens"
SCHEDULE_MORE = "… und {count} weitere Stufen"
NOTE = "Geprüft nach den Regeln {framework}, wie sie in dessen Quelltext stehen."
NOTE_TOKENS = "Tokens je Schritt setzen gepackte Sequenzen voraus."
#: Reinforcement learning: L is the longest prompt plus the longest answer, so T is a bound, not a count.
NOTE_TOKENS_RL = "L ist die Höchstlänge aus Prompt und Antwort; echte Rollouts haben meist weniger Tokens."
SHARE = "Im Thread teilen"

FIELDS: Mapping[str, str] = {
    "world": "GPUs gesamt",
    "data_parallel": "Datenparallele Replikate (d)",
    "micro_batch": "Micro-Batch je Gerät (b)",
    "accumulation": "Akkumulationsschritte (a)",
    "global_batch": "Effektive Batch-Größe (B)",
    "seq_len": "Sequenzlänge (L)",
    "tokens": "Tokens je Optimierer-Schritt (T)",
}
#: Where a framework's world is no count of GPUs, and a rollout's T, which is only a bound.
FIELDS_BY_FRAMEWORK: Mapping[str, Mapping[str, str]] = {"maxtext": {"world": "Chips gesamt"}}
FIELD_TOKENS_RL = "Max. Tokens je Optimierer-Schritt (T)"
#: A reinforcement-learning run's rollout (TRL: its generation batch), beside the fields above.
RL_FIELDS: Mapping[str, str] = {
    "prompts": "Prompts je Rollout (P)",
    "samples": "Antworten je Prompt (n)",
    "sequences": "Sequenzen je Rollout (P · n)",
    "steps": "Optimierer-Schritte je Rollout (s)",
    "prompt_len": "Max. Prompt-Länge",
    "response_len": "Max. Antwortlänge",
    "token_bound": "Max. Tokens je Micro-Batch und GPU",
}

#: Each derivation as its formula; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: Mapping[str, str] = {
    Derivation.WORLD: "GPUs = Knoten × GPUs je Knoten = {0} × {1} = {r}",
    Derivation.DP_MODEL_PARALLEL: "d = GPUs / (TP · PP · CP) = {0} / ({1} · {2} · {3}) = {r}",
    Derivation.DP_SEQUENCE_PARALLEL: "d = GPUs / SP = {0} / {1} = {r}",
    Derivation.DP_HF: "d = GPUs // TP // CP // SP = {0} // {1} // {2} // {3} = {r}",
    Derivation.DP_TITAN: "d = replicate · shard = {0} · {1} = {r}  (shard = {2} / ({0} · {3} · {4} · {5}))",
    Derivation.DP_AXOLOTL: "d = GPUs // CP // TP = {0} // {1} // {2} = {r}",
    Derivation.DP_WORLD: "d = GPUs = {r}",
    Derivation.B_PRODUCT: "B = b · d · a = {0} × {1} × {2} = {r}",
    Derivation.A_FROM_B: "a = B / (b · d) = {0} / ({1} · {2}) = {r}",
    Derivation.A_DEEPSPEED: "a = train_batch_size // b // d = {0} // {1} // {2} = {r}",
    Derivation.B_DEEPSPEED: "b = train_batch_size // d // a = {0} // {1} // {2} = {r}",
    Derivation.T_PRODUCT: "T = B · L = {0} × {1} = {r}",
    **_FRAMEWORK_FORMULAS,
}

PROBLEM_TITLE = "Diese Konfiguration kann ich nicht prüfen"
PROBLEMS: Mapping[ProblemKind, str] = {
    ProblemKind.TOO_LARGE: "{name} ist mit {size} Bytes zu groß; ich lese höchstens {max}.",
    ProblemKind.UNREADABLE: "{name} lässt sich nicht lesen{line}; der Parser meldet: „{detail}“.",
    ProblemKind.UNSAFE: "{name} enthält {detail}; solche YAML-Konstrukte lese ich aus Sicherheitsgründen nicht.",
    ProblemKind.UNKNOWN_FORMAT: (
        "{in_name} erkenne ich kein Format: Erwartet ist JSON, YAML, TOML, eine Python-Konfiguration oder eine "
        "Startzeile bzw. ein Bash-Skript."
    ),
    ProblemKind.NOTHING_TO_CHECK: (
        "{in_name} finde ich keine Batch-Einstellungen, die ich einem Framework sicher zuordnen kann. Ich lese "
        "Konfigurationen von {frameworks}; ich erkenne sie an Schlüsseln, die nur das jeweilige Framework schreibt "
        "(z. B. train_micro_batch_size_per_gpu bei DeepSpeed, --micro-batch-size bei Megatron-LM). {how}"
    ),
    ProblemKind.NOT_THIS_FRAMEWORK: (
        "{in_name} steht nichts, was {subject} liest: Ich habe {looks_for} gesucht und nichts davon gefunden. Ohne "
        "eigene Werte bliebe nur die Rechnung mit den Vorgaben {rules_of} – das wäre geraten, keine Prüfung."
    ),
    ProblemKind.WORLD_SIZE_NEEDED: ("Für {framework} brauche ich die Zahl der {devices}; {launchers} {how}"),
    ProblemKind.BAD_VALUE: "{key} = {value} ({where}) ist keine ganze Zahl ab 1.",
    ProblemKind.EMPTY: "{name} ist leer.",
    ProblemKind.UNKNOWN_SETTING: "`--set {setting}={value}`: {why}.",
    ProblemKind.BAD_SETTING: "`--set {setting}={value}`: „{value}“ ist keine {type}.",
    ProblemKind.UNKNOWN_GPU: "Die GPU {gpu} kenne ich nicht; für den Speicher je GPU kenne ich {gpus}.",
}
#: Why a ``--set`` name is not read: the scripts' options listed, or none there are.
SETTING_UNKNOWN = "{setting} kommt in {files} nicht vor (gelesen werden {known})"
SETTING_UNKNOWN_NONE = "{setting} kommt in {files} nicht vor, und dort steht keine Option"
SETTING_NO_SCRIPT = "`--set` gilt für Python-Skripte, und unter den Dateien ist keins"
SETTING_TYPES = {"int": "ganze Zahl", "float": "Zahl"}
NOTHING_HOW_CLI = (
    "Ist es doch die Konfiguration eines dieser Frameworks, gib es mit `--framework` an, z. B. `--framework deepspeed`."
)
NOTHING_HOW_SLACK = "Füge die Konfiguration des Frameworks ein, nicht das Trainingsskript, das sie liest."
EMPTY_COMMAND = (
    f"Hinter `prüfe` fehlt die Konfiguration: Füge sie in derselben Nachricht an, z. B. `{COMMAND} prüfe` und "
    "darunter das DeepSpeed-JSON oder die Startzeile."
)
PASTED_SUBJECT = "Der eingefügte Text"
FILE_SUBJECT = "Die Datei {name}"
IN_PASTED = "Im eingefügten Text"
IN_FILES = "In den Dateien {names}"
IN_SEVERAL = "In {names}"
IN_FILE = "In der Datei {name}"
#: A value that is still a shell variable or a script argument once everything readable is resolved.
UNRESOLVED = (
    "{key} = {value} ({where}) steht erst beim Start fest (ein Argument des Skripts oder eine Variable, die es "
    "nicht selbst setzt). Setze die Zahl ein, z. B. `{key} 8`, oder gib die Variable im Skript vor "
    "(`VAR=${{VAR:-8}}`)."
)
#: A finding of some releases of a framework only, where no file of the run pins the release.
UNPINNED_SINCE = "Betrifft {framework} ab `{version}`{change}; welche Version läuft, geht aus keiner Datei hervor. "
UNPINNED_UNTIL = "Betrifft {framework} vor `{version}`{change}; welche Version läuft, geht aus keiner Datei hervor. "
UNPINNED_CHANGE = " ({change})"
UNPINNED_OLDER = (
    "Mit einer älteren Version läuft es. Gib die Version an – `--framework-version {package}==…` oder eine "
    "`requirements.txt` neben der Konfiguration."
)
UNPINNED_NEWER = (
    "Mit einer neueren Version läuft es. Gib die Version an – `--framework-version {package}==…` oder eine "
    "`requirements.txt` neben der Konfiguration."
)
#: A value a Python script only knows when it runs (``args.bs`` without a default, ``os.environ["X"]``).
UNRESOLVED_SCRIPT = "{key} = {value} ({where}) steht erst beim Start fest: Es hängt von {needs} ab. {how}"
UNRESOLVED_HOW_CLI = (
    "Gib die Startzeile dazu (`python train.py --{name} 8`) oder setze den Wert, z. B. `--set {name}=8`; die Zahl "
    "der GPUs mit `--world-size`."
)
UNRESOLVED_HOW_SLACK = (
    "Füge die Startzeile als weiteren Codeblock dazu (`python train.py --{name} 8`); die Zahl der GPUs mit "
    "`gpus=` vor der Konfiguration."
)
UNRESOLVED_HOW_ENV_CLI = (
    "Gib die Startzeile dazu (`{name}=8 python train.py`) oder setze die Variable, z. B. `--set {name}=8`; die Zahl "
    "der GPUs mit `--world-size`."
)
UNRESOLVED_HOW_ENV_SLACK = (
    "Füge die Startzeile als weiteren Codeblock dazu (`{name}=8 python train.py`); die Zahl der GPUs mit `gpus=` "
    "vor der Konfiguration."
)
#: Who could have said the world size: launchers for GPUs; a TPU slice's chips only the config or the command.
WORLD_LAUNCHERS = "weder die Konfiguration noch eine Startzeile (torchrun, deepspeed, accelerate) nennt sie."
WORLD_LAUNCHERS_CHIPS = "die Konfiguration nennt sie nicht."
WORLD_HOW_CHIPS_CLI = "Gib sie an, z. B. `--world-size 16`."
WORLD_HOW_CHIPS_SLACK = (
    f"Gib sie an, z. B. `{COMMAND} prüfe gpus=16` vor der Konfiguration (`gpus=` zählt hier die Chips)."
)
WORLD_HOW_CLI = "Gib sie an, z. B. `--world-size 64` oder `--nnodes 8 --nproc-per-node 8`."
WORLD_HOW_SLACK = f"Gib sie an, z. B. `{COMMAND} prüfe gpus=64` vor der Konfiguration."
TOO_BIG = "{key} = {value} ({where}) ist größer als jede Einstellung eines Laufs (höchstens {max})."
UNSAFE_DETAILS = {
    "aliases": "mehr als {max} YAML-Aliase",
    "expanded": "YAML-Aliase, die aufgelöst mehr als {max} Werte ergeben",
    "tag": "einen Python-Tag (!!python/…)",
}
UNREADABLE_LINE = " (Zeile {line})"
#: What to paste instead of a launch script effbatch refuses to evaluate.
_SHELL_INSTEAD = (
    "Füge nur die Startzeile ein, z. B. `torchrun --nproc-per-node 8 pretrain_gpt.py --micro-batch-size 4`."
)
#: A check stopped before it had an answer (``bot.check_runner.Abort``); the bot goes on answering everyone else.
ABORTED_TITLE = "Diese Konfiguration ist zu aufwendig, um sie hier zu prüfen"
ABORTED: Mapping[str, str] = {
    "deadline": (
        "Die Prüfung hätte mehr als {seconds} s Rechenzeit gebraucht und wurde abgebrochen. Echte Konfigurationen "
        "brauchen Millisekunden; kürze den Text auf die Batch-Einstellungen und die Startzeile."
    ),
    "memory": (
        "Die Prüfung hätte mehr als {memory} Speicher gebraucht und wurde abgebrochen. Echte Konfigurationen "
        "brauchen wenige MB; kürze den Text auf die Batch-Einstellungen und die Startzeile."
    ),
    "busy": "Gerade laufen zu viele Prüfungen gleichzeitig. Versuch es in ein paar Sekunden noch einmal.",
    "slow": (
        "Der Rechner des Bots ist gerade ausgelastet; die Prüfung kam nicht rechtzeitig dran. An der Konfiguration "
        "liegt es nicht – versuch es in ein paar Sekunden noch einmal."
    ),
}
#: ``effbatch check`` has the bot's deadline too (``BoundedCheck``), only more memory: no promise of no limits.
ABORTED_HINT = (
    "Auf deinem eigenen Rechner prüft `effbatch check DATEI` die Datei mit mehr Speicher, aber derselben "
    "Zeitgrenze, z. B. `effbatch check --world-size 64 ds_config.json`."
)
#: A check ``effbatch check`` stopped (the bot's deadline and a memory cap, in its own process): what to pass instead.
ABORTED_CLI: Mapping[str, str] = {
    "deadline": (
        "Die Prüfung hätte mehr als {seconds} s Rechenzeit gebraucht und wurde abgebrochen. Echte Konfigurationen "
        "brauchen Millisekunden; gib nur die Dateien des Laufs an: die Konfiguration mit den Batch-Einstellungen "
        "und die Startzeile."
    ),
    "memory": (
        "Die Prüfung hätte mehr als {memory} Speicher gebraucht und wurde abgebrochen. Echte Konfigurationen "
        "brauchen wenige MB; gib nur die Dateien des Laufs an: die Konfiguration mit den Batch-Einstellungen und die "
        "Startzeile."
    ),
    "busy": "Der Prozess für die Prüfung ist nicht rechtzeitig gestartet; der Rechner ist ausgelastet. Versuch es "
    "noch einmal.",
    "slow": "Die Prüfung kam nicht rechtzeitig dran; der Rechner ist ausgelastet. Versuch es noch einmal.",
}
#: Our own reasons for refusing a parsed text, in place of a parser's message.
UNREADABLE_REASONS: Mapping[str, str] = {
    "not_a_mapping": "{name} lässt sich nicht lesen: Oben steht keine Zuordnung von Schlüsseln zu Werten "
    '(erwartet z. B. „micro_batch_size: 4“ oder {{"train_batch_size": 256}}).',
    "nesting": (
        "{name} lässt sich nicht lesen: Die Daten sind zu tief verschachtelt{line} – ich lese höchstens {max} "
        "Ebenen, echte Konfigurationen brauchen eine Handvoll."
    ),
    "long_number": (
        "{name} lässt sich nicht lesen: Dort steht eine Zahl mit über {max} Ziffern{line} (auch als 0x…, 0b… "
        "oder mit _ geschrieben). Eine Batch-Größe hat eine Handvoll Ziffern, z. B. 256."
    ),
    "memory": (
        "{name} lässt sich nicht lesen: Beim Lesen wäre der Speicher ausgegangen. Kürze den Text auf die "
        "Batch-Einstellungen und die Startzeile."
    ),
    "invalid": "{name} lässt sich nicht lesen: Der Text enthält Zeichen, die in diesem Format nicht stehen dürfen.",
    # the bounds of the bash reader (core/configs/shell/limits.py): what it refused, then what to paste instead
    "shell_long_value": "{name} lässt sich nicht lesen: Ein Wert im Skript würde länger als {max} Zeichen{line}. "
    + _SHELL_INSTEAD,
    "shell_long_array": "{name} lässt sich nicht lesen: Ein Array im Skript bekäme mehr als {max} Einträge{line}. "
    + _SHELL_INSTEAD,
    "shell_long_number": "{name} lässt sich nicht lesen: Eine Rechnung in `$((…))` ergibt eine Zahl mit mehr als "
    "{max} Ziffern{line}; eine Batch-Größe hat wenige. Schreib die Zahl selbst hin, z. B. `GBS=1024`.",
    "shell_work": "{name} lässt sich nicht lesen: Das Skript auszuwerten bräuchte mehr als {max} Schritte{line}. "
    + _SHELL_INSTEAD,
    "shell_chars": "{name} lässt sich nicht lesen: Die Werte des Skripts ergäben zusammen mehr als {max} Zeichen"
    "{line}. " + _SHELL_INSTEAD,
    "shell_parse": "{name} lässt sich nicht lesen: Schon das Zerlegen nach der Bash-Grammatik bräuchte mehr als {max} "
    "ms, so verschachtelt oder unvollständig ist der Text. " + _SHELL_INSTEAD,
    "shell_nesting": "{name} lässt sich nicht lesen: Das Skript ist tiefer als {max} Ebenen verschachtelt{line}; "
    "so tief schachtelt kein Startskript Blöcke, `if`, `$(…)`, `bash -c` oder Funktionen. " + _SHELL_INSTEAD,
    # Hydra's composition (core/configs/frameworks/_shared/hydra.py): a defaults tree too large or too deep
    "hydra_work": (
        "{name} lässt sich nicht zusammensetzen: Ihre `defaults:` ergäben zusammen mehr als {max} Einträge und "
        "Werte – zu groß für eine Trainings-Config; meist nennt dort jede Config die nächste mehrmals, an "
        "verschiedenen Stellen (`gruppe@a`, `gruppe@b`). Gib nur die Config mit den Batch-Einstellungen an und die "
        "Configs, aus denen sie ihre Werte erbt."
    ),
    "hydra_nesting": (
        "{name} lässt sich nicht zusammensetzen: Ihre `defaults:` sind tiefer als {max} Ebenen verschachtelt (eine "
        "Config nennt eine, die wieder eine nennt …); echte Hydra-Configs brauchen eine Handvoll Ebenen."
    ),
    "shell_branches": "{name} lässt sich nicht lesen: Mehr als {max} Bedingungen hängen von Werten ab, die erst beim "
    "Start feststehen{line}, etwa von `$1`. Gib sie im Skript vor, z. B. `MODE=${{MODE:-big}}`, oder "
    + _SHELL_INSTEAD[0].lower()
    + _SHELL_INSTEAD[1:],
}
PASTED = "eingefügter Text"
BLOCK = "Codeblock"

# --- Slack: command, shortcut, the world-size form ------------------------------------------

#: The message shortcut as the manifests name it (Slack allows 24 characters).
SHORTCUT_NAME = "Batch-Konfig prüfen"
CHECK_USAGE = (
    f"So prüfst du eine Konfiguration: `{COMMAND} prüfe` und dahinter die Konfiguration oder Startzeile "
    f"(gern als Codeblock), z. B. `{COMMAND} prüfe gpus=64` und ein DeepSpeed-JSON. Oder im Menü einer Nachricht "
    f"„{SHORTCUT_NAME}“."
)
WORLD_FORM_TITLE = "Wie viele GPUs?"
WORLD_FORM_SUBMIT = "Prüfen"
WORLD_FORM_INTRO = "Für {framework} brauche ich die Größe des Clusters."
WORLD_FORM_NODES = "Knoten"
WORLD_FORM_PER_NODE = "GPUs je Knoten"
NOT_IN_CHANNEL = "Teilen im Thread ging nicht: Ich bin nicht in diesem Channel. Lade mich mit `/invite @effbatch` ein."
SHARE_FAILED = "Teilen im Thread ging nicht ({detail})."
SHARED = "Im Thread geteilt."
#: The world-size form or the share button carries the pasted config; when that cannot be read (old, or forged).
CHECK_STATE_DAMAGED = (
    "Dieses Formular (oder dieser Button) ist abgelaufen oder beschädigt: Die Konfiguration darin kann ich "
    f"nicht mehr lesen. Prüfe sie neu mit `{COMMAND} prüfe` oder im Menü der Nachricht über „{SHORTCUT_NAME}“."
)
#: A check's answer that Slack did not take at the response URL (too long, or blocks it refused): said in plain text.
ANSWER_NOT_TAKEN = (
    ":warning: Die Antwort auf diese Prüfung hat Slack nicht angenommen (vermutlich ist sie zu lang). Prüfe nur den "
    f"Ausschnitt mit den Batch-Einstellungen mit `{COMMAND} prüfe` oder die ganze Datei im Terminal mit "
    "`effbatch check DATEI`."
)


def accusative(subject: str) -> str:
    """A framework's name after „für“: „der Hugging Face Trainer“ → „den Hugging Face Trainer“, „DeepSpeed“ stays."""
    return "den " + subject.removeprefix("der ") if subject.startswith("der ") else subject
