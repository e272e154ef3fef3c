"""What a config check says: frameworks, findings by rule, the formulas, and why a config cannot be read.

Templates take formatted numbers; the framework's own error text arrives as ``{message}`` and is
quoted as the framework writes it (English), so it can be searched for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.texts.glossary import COMMAND
from core.configs import Derivation, Level, ProblemKind


@dataclass(frozen=True)
class Name:
    """A framework's name as a heading shows it, as the subject of a sentence, and after „nach den Regeln“."""

    title: str
    subject: str
    rules_of: str


FRAMEWORKS: Mapping[str, Name] = {
    "deepspeed": Name("DeepSpeed", "DeepSpeed", "von DeepSpeed"),
    "huggingface": Name("Hugging Face Trainer", "der Hugging Face Trainer", "des Hugging Face Trainers"),
    "megatron": Name("Megatron-LM", "Megatron-LM", "von Megatron-LM"),
    "nemo": Name("NeMo", "NeMo", "von NeMo"),
    "torchtitan": Name("torchtitan", "torchtitan", "von torchtitan"),
    "nanogpt": Name("nanoGPT", "nanoGPT", "von nanoGPT"),
    "axolotl": Name("axolotl", "axolotl", "von axolotl"),
    "olmo": Name("OLMo", "OLMo", "von OLMo"),
}
LEVELS: Mapping[Level, str] = {Level.ERROR: "Fehler", Level.WARNING: "Warnung", Level.INFO: "Hinweis"}
LEVEL_MARKS: Mapping[Level, str] = {Level.ERROR: "✖", Level.WARNING: "⚠", Level.INFO: "ℹ"}

TITLE_OK = "{framework}: effektive Batch-Größe {batch} Sequenzen"
TITLE_FAILED = "{framework}: So startet dieser Lauf nicht"
TITLE_DIFFERS = "{framework}: trainiert mit B = {batch} statt {intended}"
TITLE_CHANGED = "{framework}: trainiert mit B = {batch} – anders als angegeben"
TITLE_UNKNOWN = "{framework}: Batch-Größe offen"
SUMMARY_OK = "{framework}: effektive Batch-Größe {batch} Sequenzen{tokens}, {findings}"
SUMMARY_TOKENS = ", {tokens} Tokens je Optimierer-Schritt"
SUMMARY_FAILED = "{framework}: {count} Fehler – der Lauf startet so nicht"
SUMMARY_DIFFERS = "{framework}: trainiert mit B = {batch} statt {intended} Sequenzen"
SUMMARY_UNKNOWN = "{framework}: Die Batch-Größe lässt sich aus dieser Konfiguration allein nicht bestimmen"
NO_FINDINGS = "keine Auffälligkeiten"
#: How many warnings, by whether it is one: (several, one).
WARNINGS = ("{count} Warnungen", "eine Warnung")
READ_TITLE = "Gelesen"
READ_LINE = "{key} = {value} ({where})"
READ_MORE = "… und {count} weitere Werte"
DERIVED_TITLE = "So rechnet {framework}"
FINDINGS_TITLE = "Befunde"
FINDING_LINE = "{mark} {level}: {text}"
#: A fix in the config's own syntax: each alternative as code, joined by ``FIX_OR``.
FIX = "Passend wäre: {fix}."
FIX_SECTION = "{fix} (unter `{section}`)"
FIX_WORLD = "Passend wären {fix} GPUs."
FIX_OR = " oder "
QUOTED = "Meldung von {framework}: `{message}`"
SCHEDULE_TITLE = "Batch-Größen-Plan"
SCHEDULE_PHASE = "ab {start} Sequenzen: B = {batch}{until}"
SCHEDULE_UNTIL = " für {samples} Sequenzen ≈ {steps} Optimierer-Schritte{tokens}"
SCHEDULE_TOKENS = ", {tokens} Tokens"
SCHEDULE_MORE = "… und {count} weitere Stufen"
NOTE = "Geprüft nach den Regeln {framework}, wie sie in dessen Quelltext stehen."
NOTE_TOKENS = "Tokens je Schritt setzen gepackte Sequenzen voraus."
SHARE = "Im Thread teilen"

FIELDS: Mapping[str, str] = {
    "world": "GPUs gesamt",
    "data_parallel": "Datenparallele Geräte (d)",
    "micro_batch": "Batch je Gerät (b)",
    "accumulation": "Akkumulationsschritte (a)",
    "global_batch": "Effektive Batch-Größe (B)",
    "seq_len": "Sequenzlänge (L)",
    "tokens": "Tokens je Optimierer-Schritt (T)",
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
    "nanogpt/accumulation": "a = gradient_accumulation_steps / GPUs = {0} / {1} = {r}",
    "axolotl/accumulation": "a = batch_size // micro_batch_size = {0} // {1} = {r}",
    "olmo/device": "je Gerät = global_train_batch_size // GPUs = {0} // {1} = {r}",
    "olmo/microbatches": "Micro-Batches je Gerät = ⌈je Gerät / b⌉ = ⌈{0} / {1}⌉ = {r}",
    "olmo/batch": "B = je Gerät · GPUs = {0} × {1} = {r}",
    "torchtitan/accumulation": (
        "a = T / (Tokens je Micro-Batch · PP-Micro-Batches · d) = {0} / ({1} · {2} · {3}) = {r}"
    ),
}

#: Each rule's finding in German, by its code; the placeholders are exactly the fields of the rule's context.
#: The framework's own message is quoted after it (``QUOTED``), the fix after that (``FIX``).
FINDINGS: Mapping[str, str] = {
    "deepspeed/batch-assertion": (
        "DeepSpeed bricht beim Start ab: train_batch_size = {train} ist nicht b · a · d = {micro} · {accumulation} · "
        "{world} = {product}."
    ),
    "deepspeed/filled-in": "DeepSpeed setzt {key} = {value} durch ganzzahlige Division ({train} // {divisor}).",
    "deepspeed/filled-in-product": "DeepSpeed setzt train_batch_size = b · a · d = {value}.",
    "deepspeed/required-world-size": (
        "Alle drei Werte stehen fest: Diese Konfiguration läuft nur mit {world} GPUs (d = {data_parallel})."
    ),
    "deepspeed/no-world-size-fits": (
        "Mit keiner Zahl von GPUs passt es: train_batch_size = {train} ist kein Vielfaches von b · a = {micro} · "
        "{accumulation} = {step}."
    ),
    "deepspeed/missing-batch-size": "DeepSpeed bricht ab: Es braucht train_batch_size oder "
    "train_micro_batch_size_per_gpu.",
    "deepspeed/sequence-parallel": (
        "sequence_parallel_size = {sequence_parallel} (Ulysses): DeepSpeed teilt die {world} GPUs dadurch, "
        "d = {data_parallel}."
    ),
    "deepspeed/sequence-parallel-world-size": (
        "DeepSpeed bricht ab: sequence_parallel_size = {sequence_parallel} teilt die Zahl der GPUs ({world}) nicht."
    ),
    "deepspeed/autotp-counted-as-data-parallel": (
        "AutoTP (autotp_size = {autotp}): DeepSpeed zählt die Ränge der Tensor-Parallelität als datenparallel und "
        "rechnet mit {world} GPUs; dieselben Daten auf {autotp} Rängen ergeben nur {distinct} verschiedene Sequenzen "
        "je Optimierer-Schritt."
    ),
    "deepspeed/world-size-before-launch": (
        "Baut dein Skript die DeepSpeed-Konfiguration, bevor torch.distributed läuft, rechnet DeepSpeed mit 1 GPU "
        "statt {world} und bricht ab."
    ),
    "deepspeed/auto-without-trainer": (
        '{keys} = "auto" füllt nur der Hugging Face Trainer; DeepSpeed allein kann damit nicht rechnen. Gib die '
        "TrainingArguments mit an oder setze Zahlen."
    ),
    "huggingface/total-train-batch-size": "Der Trainer meldet „Total train batch size“ = {total}.",
    "huggingface/deepspeed-auto": 'Der Trainer füllt "auto" in der DeepSpeed-Konfiguration: {filled}.',
    "huggingface/deepspeed-mismatch": (
        "Der Trainer bricht ab: DeepSpeed-Konfiguration und TrainingArguments widersprechen sich."
    ),
    "megatron/world-size-divisible": "Megatron-LM bricht ab: TP · PP · CP = {total} teilt die {world} GPUs nicht.",
    "megatron/global-batch-size-default": (
        "Ohne --global-batch-size setzt Megatron-LM B = b · d = {value} (ein Micro-Batch je Schritt)."
    ),
    "megatron/global-batch-size-divisible": (
        "Megatron-LM bricht ab: B = {gbs} ist kein Vielfaches von b · d = {divisor}."
    ),
    "megatron/sequence-parallel": (
        "--sequence-parallel läuft auf den {tp} Rängen der Tensor-Parallelität mit und teilt d nicht "
        "(anders als DeepSpeed-Ulysses' sequence_parallel_size)."
    ),
    "megatron/sequence-parallel-without-tensor-parallel": (
        "--sequence-parallel ist bei TP = 1 wirkungslos: Megatron-LM schaltet es ab („Disabling sequence "
        "parallelism because tensor model parallelism is disabled“); d bleibt, wie es ist."
    ),
    "megatron/expert-parallel-divisible": (
        "Megatron-LM bricht ab: ETP · EP · PP = {size} teilt die {world} GPUs nicht."
    ),
    "megatron/rampup-batch-size-deprecated": (
        "--rampup-batch-size ist veraltet: Das aktuelle Megatron-LM ignoriert es und trainiert von Anfang an mit "
        "B = {gbs}; ältere Versionen fahren den Plan unten hoch. Nimm --step-batch-size-schedule."
    ),
    "megatron/rampup-interval": (
        "Der Anstieg von {start} auf {gbs} ist kein Vielfaches der Schrittweite {increment}; ältere "
        "Megatron-Versionen brechen damit ab."
    ),
    "megatron/rampup-unreadable": (
        "--rampup-batch-size erwartet drei ganze Zahlen (Start, Schrittweite, Sequenzen), hier steht „{entry}“."
    ),
    "megatron/rampup-start": "Der Anstieg beginnt bei B = {start}; ältere Megatron-Versionen brechen damit ab.",
    "megatron/step-schedule-with-global-batch-size": (
        "Megatron-LM bricht ab: --step-batch-size-schedule und --global-batch-size lassen sich nicht kombinieren."
    ),
    "megatron/step-schedule-first-threshold": (
        "Megatron-LM bricht ab: Der Plan muss bei 0 beginnen, die erste Schwelle ist {first}."
    ),
    "megatron/step-schedule-increasing": (
        "Megatron-LM bricht ab: Die Schwellen des Plans sind nicht lesbar oder nicht steigend („{entry}“)."
    ),
    "megatron/phase-divisible": (
        "Megatron-LM bricht ab, sobald der Plan eine Stufe erreicht, deren B kein Vielfaches von b · d = {divisor} "
        "ist (betroffen: {count}; die erste ab {start} Sequenzen mit B = {gbs})."
    ),
    "megatron/num-layers-divisible": (
        "Megatron-LM bricht ab: --num-layers {layers} lässt sich nicht gleichmäßig auf PP = {pp} Stufen verteilen."
    ),
    "nemo/global-batch-size-divisible": (
        "NeMo bricht ab: model.global_batch_size = {gbs} ist kein Vielfaches von b · d = {divisor}."
    ),
    "nemo/world-size-divisible": "NeMo bricht ab: TP · PP · CP = {total} teilt die {world} GPUs nicht.",
    "torchtitan/parallel-dims": (
        "torchtitan bricht ab: replicate · shard · CP · TP · PP ergibt nicht die Zahl der GPUs."
    ),
    "torchtitan/global-batch-size-divisible": (
        "torchtitan bricht ab: global_batch_size ist kein Vielfaches von local_batch_size · d."
    ),
    "torchtitan/tokens-per-step-divisible": (
        "torchtitan bricht ab: num_tokens_per_train_step ist kein Vielfaches der Tokens eines Akkumulationsschritts."
    ),
    "torchtitan/batch-size-is-local": (
        "training.batch_size ist die ältere Schreibweise für local_batch_size = {local}, ohne Akkumulation."
    ),
    "torchtitan/first-config-of-registry": (
        "Die Datei definiert {count} Konfigurationen; gelesen habe ich die erste, {function}(). Für eine andere "
        "füge nur deren Funktion ein."
    ),
    "nanogpt/accumulation-is-global": (
        "gradient_accumulation_steps ist bei nanoGPT global: train.py teilt {configured} durch {world} GPUs, "
        "je GPU also a = {per_gpu} Akkumulationsschritte."
    ),
    "nanogpt/accumulation-divisible": (
        "train.py bricht ab: gradient_accumulation_steps = {accumulation} ist nicht durch {world} GPUs teilbar."
    ),
    "nanogpt/train-py-defaults": "Nicht gesetzt, also die Vorgaben aus train.py: {defaults}.",
    "axolotl/two-of-three": (
        "axolotl bricht ab: Zwei von micro_batch_size, gradient_accumulation_steps und batch_size müssen gesetzt sein."
    ),
    "axolotl/only-one-of-accumulation-and-batch-size": (
        "axolotl bricht ab: gradient_accumulation_steps und batch_size lassen sich nicht kombinieren."
    ),
    "axolotl/floored": (
        "axolotl rundet stillschweigend ab: batch_size {batch_size} // micro_batch_size {micro} = {accumulation}, "
        "je Gerät also {real} statt {batch_size} Sequenzen."
    ),
    "axolotl/batch-size-ignored": (
        "batch_size = {batch_size} ändert nicht, was trainiert: Das Schema setzt gradient_accumulation_steps auf 1, "
        "je Gerät also nur micro_batch_size = {micro} Sequenzen; batch_size ändert nur die Zahl der Schritte."
    ),
    "axolotl/parallel-world-size": "axolotl teilt die GPUs durch CP = {cp} und TP = {tp}.",
    "axolotl/parallelism-incompatible": (
        "axolotl bricht ab: Die Parallelitätsgrade (Produkt {total}) passen nicht zu {world} GPUs."
    ),
    "olmo/floored": (
        "OLMo rundet stillschweigend ab: global_train_batch_size {configured} // {world} GPUs, trainiert also mit "
        "B = {real} statt {configured}."
    ),
    "olmo/nothing-per-device": (
        "OLMo bricht ab: global_train_batch_size {configured} // {world} GPUs ergibt 0 Sequenzen je Gerät."
    ),
    "olmo/uneven-microbatches": (
        "Je Gerät {device} Sequenzen in Micro-Batches zu {micro}: {full} volle und einer mit nur {rest} Sequenzen; "
        "eine feste Zahl a gibt es so nicht."
    ),
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
        "Konfigurationen von {frameworks} und erkenne sie an Schlüsseln, die nur das jeweilige Framework schreibt "
        "(z. B. train_micro_batch_size_per_gpu bei DeepSpeed, --micro-batch-size bei Megatron-LM). {how}"
    ),
    ProblemKind.WORLD_SIZE_NEEDED: (
        "Für {framework} brauche ich die Zahl der GPUs; weder die Konfiguration noch eine Startzeile (torchrun, "
        "deepspeed, accelerate) nennt sie. {how}"
    ),
    ProblemKind.BAD_VALUE: "{key} = {value} ({where}) ist keine ganze Zahl ab 1.",
    ProblemKind.EMPTY: "{name} ist leer.",
}
NOTHING_HOW_CLI = (
    "Ist es doch die Konfiguration eines davon, nenne es mit `--framework`, z. B. `--framework deepspeed`."
)
NOTHING_HOW_SLACK = "Füge die Konfiguration des Frameworks ein, nicht das Trainingsskript, das sie liest."
EMPTY_COMMAND = (
    f"Hinter `prüfe` fehlt die Konfiguration: Füge sie in derselben Nachricht an, z. B. `{COMMAND} prüfe` und "
    "darunter das DeepSpeed-JSON oder die Startzeile."
)
PASTED_SUBJECT = "Der eingefügte Text"
FILE_SUBJECT = "Die Datei {name}"
IN_PASTED = "Im eingefügten Text"
IN_FILE = "In der Datei {name}"
#: A value that is still a shell variable or a script argument once everything readable is resolved.
UNRESOLVED = (
    "{key} = {value} ({where}) steht erst beim Start fest (ein Argument des Skripts oder eine Variable, die es "
    "nicht selbst setzt). Setze die Zahl ein, z. B. `{key} 8`, oder gib die Variable im Skript vor "
    "(`VAR=${{VAR:-8}}`)."
)
WORLD_HOW_CLI = "Gib sie an, z. B. `--world-size 64` oder `--nnodes 8 --nproc-per-node 8`."
WORLD_HOW_SLACK = f"Gib sie an, z. B. `{COMMAND} prüfe gpus=64` vor der Konfiguration."
TOO_BIG = "{key} = {value} ({where}) ist größer als jede Einstellung eines Laufs (höchstens {max})."
UNSAFE_DETAILS = {"aliases": "mehr als {max} YAML-Aliase", "tag": "einen Python-Tag (!!python/…)"}
UNREADABLE_LINE = " (Zeile {line})"
#: Our own reasons for refusing a parsed text, in place of a parser's message.
UNREADABLE_REASONS: Mapping[str, str] = {
    "not_a_mapping": "{name} lässt sich nicht lesen: Oben steht keine Zuordnung von Schlüsseln zu Werten "
    '(erwartet z. B. „micro_batch_size: 4“ oder {{"train_batch_size": 256}}).',
    "nesting": "{name} lässt sich nicht lesen: Die Daten sind zu tief verschachtelt.",
    "long_number": "{name} lässt sich nicht lesen: Dort steht eine Zahl mit über 100 Ziffern{line}.",
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
