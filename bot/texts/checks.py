"""What a config check says: frameworks, findings by rule, the formulas, and why a config cannot be read.

Templates take formatted numbers; the framework's own error text arrives as ``{message}`` and is
quoted as the framework writes it (English), so it can be searched for.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.texts.glossary import COMMAND
from core.configs import Derivation, Framework, Level, ProblemKind, Rule

FRAMEWORKS: Mapping[Framework, str] = {
    Framework.DEEPSPEED: "DeepSpeed",
    Framework.HUGGINGFACE: "Hugging Face Trainer",
    Framework.MEGATRON: "Megatron-LM",
    Framework.NEMO: "NeMo",
    Framework.TORCHTITAN: "torchtitan",
    Framework.NANOGPT: "nanoGPT",
    Framework.AXOLOTL: "axolotl",
    Framework.OLMO: "OLMo",
}
LEVELS: Mapping[Level, str] = {Level.ERROR: "Fehler", Level.WARNING: "Warnung", Level.INFO: "Hinweis"}
LEVEL_MARKS: Mapping[Level, str] = {Level.ERROR: "✖", Level.WARNING: "⚠", Level.INFO: "ℹ"}

TITLE_OK = "{framework}: effektive Batch-Größe {batch} Sequenzen"
TITLE_FAILED = "{framework}: so startet dieser Lauf nicht"
TITLE_DIFFERS = "{framework}: trainiert mit B = {batch} – anders als angegeben"
TITLE_UNKNOWN = "{framework}: Konfiguration geprüft"
SUMMARY_OK = "{framework}: effektive Batch-Größe {batch} Sequenzen{tokens}, {findings}"
SUMMARY_TOKENS = ", {tokens} Tokens je Optimierer-Schritt"
SUMMARY_FAILED = "{framework}: {count} Fehler – der Lauf startet so nicht oder trainiert anders als angegeben"
NO_FINDINGS = "keine Auffälligkeiten"
#: How many warnings, by whether it is one: (several, one).
WARNINGS = ("{count} Warnungen", "eine Warnung")
READ_TITLE = "Gelesen"
READ_LINE = "{key} = {value} ({where})"
READ_MORE = "… und {count} weitere Werte"
DERIVED_TITLE = "So rechnet {framework}"
FINDINGS_TITLE = "Befunde"
FINDING_LINE = "{mark} {level}: {text}"
FIX = "Passend wäre: {fix}."
QUOTED = "{framework} meldet: `{message}`."
SCHEDULE_TITLE = "Batch-Größen-Plan"
SCHEDULE_PHASE = "ab {start} Sequenzen: B = {batch}{until}"
SCHEDULE_UNTIL = " für {samples} Sequenzen ≈ {steps} Optimierer-Schritte{tokens}"
SCHEDULE_TOKENS = ", {tokens} Tokens"
SCHEDULE_MORE = "… und {count} weitere Stufen"
NOTE = (
    "Geprüft nach den Regeln von {framework}, wie sie in dessen Quelltext stehen; Tokens setzen gepackte "
    "Sequenzen voraus."
)
SHARE = "Im Thread teilen"

FIELDS: Mapping[str, str] = {
    "world": "GPUs gesamt (Welt)",
    "data_parallel": "Datenparallele Geräte (d)",
    "micro_batch": "Batch je Gerät (b)",
    "accumulation": "Akkumulationsschritte (a)",
    "global_batch": "Effektive Batch-Größe (B)",
    "seq_len": "Sequenzlänge (L)",
    "tokens": "Tokens je Optimierer-Schritt (T)",
}

#: Each derivation as its formula; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: Mapping[Derivation, str] = {
    Derivation.WORLD: "Welt = Knoten × GPUs je Knoten = {0} × {1} = {r}",
    Derivation.DP_MODEL_PARALLEL: "d = Welt / (TP · PP · CP) = {0} / ({1} · {2} · {3}) = {r}",
    Derivation.DP_SEQUENCE_PARALLEL: "d = Welt / SP = {0} / {1} = {r}",
    Derivation.DP_HF: "d = Welt // TP // CP // SP = {0} // {1} // {2} // {3} = {r}",
    Derivation.DP_TITAN: "d = replicate · shard = {0} · {1} = {r}  (shard = {2} / ({0} · {3} · {4} · {5}))",
    Derivation.DP_AXOLOTL: "d = Welt // CP // TP = {0} // {1} // {2} = {r}",
    Derivation.DP_WORLD: "d = Welt = {r}",
    Derivation.B_PRODUCT: "B = b · d · a = {0} × {1} × {2} = {r}",
    Derivation.A_FROM_B: "a = B / (b · d) = {0} / ({1} · {2}) = {r}",
    Derivation.A_DEEPSPEED: "a = train_batch_size // b // d = {0} // {1} // {2} = {r}",
    Derivation.B_DEEPSPEED: "b = train_batch_size // d // a = {0} // {1} // {2} = {r}",
    Derivation.A_NANOGPT: "a = gradient_accumulation_steps / Welt = {0} / {1} = {r}",
    Derivation.A_AXOLOTL: "a = batch_size // micro_batch_size = {0} // {1} = {r}",
    Derivation.OLMO_DEVICE: "je Gerät = global_train_batch_size // Welt = {0} // {1} = {r}",
    Derivation.OLMO_ACCUMULATION: "a = je Gerät // b = {0} // {1} = {r}",
    Derivation.OLMO_BATCH: "B = je Gerät · Welt = {0} × {1} = {r}",
    Derivation.TITAN_ACCUMULATION: (
        "a = T / (Tokens je Micro-Batch · PP-Micro-Batches · d) = {0} / ({1} · {2} · {3}) = {r}"
    ),
    Derivation.T_PRODUCT: "T = B · L = {0} × {1} = {r}",
}

#: Each finding in German; ``{message}`` is the framework's own text where it has one.
FINDINGS: Mapping[Rule, str] = {
    Rule.DEEPSPEED_ASSERTION: "DeepSpeed bricht beim Start ab: train_batch_size muss b · a · Welt sein.",
    Rule.DEEPSPEED_FILLED: "DeepSpeed ergänzt {key} = {value} durch ganzzahlige Division{inexact}.",
    Rule.DEEPSPEED_NEEDS_WORLD: (
        "Alle drei Werte stehen fest: Diese Konfiguration läuft nur mit {world} GPUs (d = {data_parallel})."
    ),
    Rule.DEEPSPEED_MISSING: "DeepSpeed braucht train_batch_size oder train_micro_batch_size_per_gpu.",
    Rule.DEEPSPEED_SEQUENCE_PARALLEL: (
        "sequence_parallel_size = {sequence_parallel} (Ulysses): DeepSpeed teilt die Welt von {world} GPUs dadurch."
    ),
    Rule.DEEPSPEED_AUTOTP: (
        "AutoTP (autotp_size = {autotp}): DeepSpeed zählt die Tensor-Parallelität-Ränge als datenparallel und rechnet "
        "mit Welt = {world}; dieselben Daten auf {autotp} Rängen ergeben nur {distinct} verschiedene Sequenzen je "
        "Optimierer-Schritt."
    ),
    Rule.DEEPSPEED_WORLD_UNSET: (
        "Liest dein Skript die Konfiguration, bevor torch.distributed läuft, rechnet DeepSpeed mit Welt = 1 "
        "und bricht ab."
    ),
    Rule.DEEPSPEED_AUTO_ALONE: (
        '{keys} = "auto" füllt nur der Hugging Face Trainer; DeepSpeed allein kann damit nicht rechnen. Gib die '
        "TrainingArguments mit an oder setze Zahlen."
    ),
    Rule.HF_TOTAL: "Der Trainer meldet „Total train batch size“ = {total}.",
    Rule.HF_AUTO_FILLED: 'Der Trainer füllt "auto" in der DeepSpeed-Konfiguration: {filled}.',
    Rule.HF_MISMATCH: "Der Trainer bricht ab: DeepSpeed-Konfiguration und TrainingArguments widersprechen sich.",
    Rule.MEGATRON_WORLD: "Megatron-LM bricht ab: TP · PP · CP = {total} teilt die Welt von {world} GPUs nicht.",
    Rule.MEGATRON_DEFAULT_GBS: "Ohne --global-batch-size setzt Megatron B = b · d = {value} (ein Micro-Batch).",
    Rule.MEGATRON_GBS: "Megatron-LM bricht ab: B ist kein Vielfaches von b · d = {divisor}.",
    Rule.MEGATRON_SEQUENCE_PARALLEL: (
        "--sequence-parallel läuft auf den {tp} Rängen der Tensor-Parallelität mit und teilt d nicht "
        "(anders als DeepSpeed-Ulysses' sequence_parallel_size)."
    ),
    Rule.MEGATRON_SEQUENCE_PARALLEL_OFF: (
        "--sequence-parallel ist bei TP = 1 wirkungslos: Megatron-LM schaltet es ab („Disabling sequence "
        "parallelism because tensor model parallelism is disabled“); d bleibt, wie es ist."
    ),
    Rule.MEGATRON_EXPERT: "Megatron-LM bricht ab: ETP · EP · PP teilt die Welt nicht.",
    Rule.MEGATRON_RAMPUP_DEPRECATED: (
        "--rampup-batch-size ist veraltet: Das aktuelle Megatron-LM ignoriert es und trainiert von Anfang an mit "
        "B = {gbs}; ältere Versionen fahren den Plan unten hoch. Nimm --step-batch-size-schedule."
    ),
    Rule.MEGATRON_RAMPUP_INTERVAL: (
        "Der Anstieg von {start} auf {gbs} ist kein Vielfaches der Schrittweite {increment}; ältere Megatron-Versionen "
        "brechen damit ab."
    ),
    Rule.MEGATRON_SCHEDULE_WITH_GBS: "Megatron-LM bricht ab: Plan und --global-batch-size zusammen geht nicht.",
    Rule.MEGATRON_SCHEDULE_START: "Megatron-LM bricht ab: Der Plan muss bei 0 beginnen (erste Schwelle: {first}).",
    Rule.MEGATRON_SCHEDULE_ORDER: (
        "Megatron-LM bricht ab: Die Schwellen des Plans sind nicht lesbar oder nicht steigend ({entry})."
    ),
    Rule.MEGATRON_PHASE: (
        "{count} Stufe(n) des Plans sind kein Vielfaches von b · d; Megatron-LM bricht ab, sobald die erste "
        "erreicht ist (ab {start} Sequenzen, B = {gbs})."
    ),
    Rule.NEMO_GBS: "NeMo bricht ab: model.global_batch_size ist kein Vielfaches von b · d = {divisor}.",
    Rule.NEMO_WORLD: "NeMo bricht ab: TP · PP · CP = {total} teilt die Welt von {world} GPUs nicht.",
    Rule.TITAN_DIMS: "torchtitan bricht ab: replicate · shard · CP · TP · PP ergibt nicht die Welt.",
    Rule.TITAN_GBS: "torchtitan bricht ab: global_batch_size ist kein Vielfaches von local_batch_size · d.",
    Rule.TITAN_TOKENS: "torchtitan bricht ab: num_tokens_per_train_step passt nicht auf einen Akkumulationsschritt.",
    Rule.TITAN_LEGACY: (
        "training.batch_size ist die ältere Schreibweise für local_batch_size = {local}, ohne Akkumulation."
    ),
    Rule.TITAN_REGISTRY: (
        "Die Datei definiert {count} Konfigurationen; gelesen habe ich die erste, {function}(). Für eine andere "
        "füge nur deren Funktion ein."
    ),
    Rule.NANOGPT_GLOBAL: (
        "gradient_accumulation_steps ist bei nanoGPT global: train.py teilt {configured} durch {world} GPUs, "
        "je GPU also a = {per_gpu} Akkumulationsschritte."
    ),
    Rule.NANOGPT_DIVISIBLE: (
        "train.py bricht ab (assert gradient_accumulation_steps % ddp_world_size == 0): {accumulation} ist nicht "
        "durch {world} GPUs teilbar."
    ),
    Rule.NANOGPT_DEFAULTS: "Nicht gesetzt, also die Vorgaben aus train.py: {defaults}.",
    Rule.AXOLOTL_TWO_OF_THREE: (
        "axolotl bricht ab: Zwei von micro_batch_size, gradient_accumulation_steps, batch_size müssen gesetzt sein."
    ),
    Rule.AXOLOTL_ONLY_ONE: "axolotl bricht ab: gradient_accumulation_steps und batch_size zusammen geht nicht.",
    Rule.AXOLOTL_FLOORED: (
        "axolotl rundet stillschweigend ab: batch_size {batch_size} // micro_batch_size {micro} = {accumulation}, "
        "je Gerät also {real} statt {batch_size} Sequenzen."
    ),
    Rule.AXOLOTL_PARALLEL: "axolotl teilt die Welt durch CP = {cp} und TP = {tp}.",
    Rule.OLMO_FLOORED: (
        "OLMo rundet stillschweigend ab: global_train_batch_size {configured} // {world} GPUs, trainiert also mit "
        "B = {real} statt {configured}."
    ),
    Rule.OLMO_UNEVEN: (
        "Je Gerät {device} Sequenzen in Micro-Batches zu {micro}: Der letzte Micro-Batch hat nur {rest}."
    ),
}

PROBLEM_TITLE = "Diese Konfiguration kann ich nicht prüfen"
PROBLEMS: Mapping[ProblemKind, str] = {
    ProblemKind.TOO_LARGE: "{name} ist mit {size} Bytes zu groß; ich lese höchstens {max}.",
    ProblemKind.UNREADABLE: "{name} lässt sich nicht lesen{line}; der Parser meldet: „{detail}“.",
    ProblemKind.UNSAFE: "{name} enthält {detail}; solche YAML-Konstrukte lese ich aus Sicherheitsgründen nicht.",
    ProblemKind.UNKNOWN_FORMAT: (
        "Bei {name} erkenne ich kein Format: erwartet ist JSON, YAML, TOML, eine Python-Konfiguration (nanoGPT) "
        "oder eine Startzeile bzw. ein Bash-Skript."
    ),
    ProblemKind.NOTHING_TO_CHECK: (
        "In {names} finde ich keine Batch-Einstellungen eines der Frameworks DeepSpeed, Hugging Face, Megatron-LM, "
        "NeMo, torchtitan, nanoGPT, axolotl oder OLMo."
    ),
    ProblemKind.WORLD_SIZE_NEEDED: (
        "Für {framework} brauche ich die Zahl der GPUs: Sie steht weder in der Konfiguration noch in einer "
        "Startzeile (torchrun, deepspeed, accelerate). {how}"
    ),
    ProblemKind.BAD_VALUE: "{key} = {value} ({where}) ist keine ganze Zahl ab 1.",
    ProblemKind.EMPTY: "{name} ist leer.",
}
#: A value that is still a shell variable or a script argument once everything readable is resolved.
UNRESOLVED = (
    "{key} = {value} ({where}) steht erst beim Start fest (ein Argument des Skripts oder eine Variable, die es "
    "nicht selbst setzt). Setze die Zahl ein, z. B. `{key} 8`, oder gib die Variable im Skript vor "
    "(`VAR=${{VAR:-8}}`)."
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
#: A check stopped before it had an answer (``bot.check_runner.Abort``); the bot goes on answering everyone else.
ABORTED_TITLE = "Diese Konfiguration ist zu aufwendig, um sie hier zu prüfen"
ABORTED: Mapping[str, str] = {
    "deadline": (
        "Die Prüfung hätte länger als {seconds} s gedauert und wurde abgebrochen. Echte Konfigurationen brauchen "
        "Millisekunden; kürze den Text auf die Batch-Einstellungen und die Startzeile."
    ),
    "memory": (
        "Die Prüfung hätte mehr als {memory} Speicher gebraucht und wurde abgebrochen. Echte Konfigurationen "
        "brauchen wenige MB; kürze den Text auf die Batch-Einstellungen und die Startzeile."
    ),
    "busy": "Gerade laufen zu viele Prüfungen gleichzeitig. Versuch es in ein paar Sekunden noch einmal.",
}
ABORTED_HINT = (
    "Ohne diese Grenzen prüfst du die Datei auf deinem eigenen Rechner: `effbatch check DATEI`, "
    "z. B. `effbatch check --world-size 64 ds_config.json`."
)
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
    "Dieses Formular (oder diese Schaltfläche) ist abgelaufen oder beschädigt: Die Konfiguration darin kann ich "
    f"nicht mehr lesen. Prüfe sie neu mit `{COMMAND} prüfe` oder im Menü der Nachricht über „{SHORTCUT_NAME}“."
)
