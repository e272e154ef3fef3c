"""The help (``/effbatch hilfe``, ``/effbatch hilfe schlüssel``) and the App Home."""

from __future__ import annotations

from collections.abc import Mapping

from effbatch.bot.texts.glossary import COMMAND
from effbatch.core import MODEL_PARALLEL, Argument

HELP_TITLE = "effbatch – Hilfe"
KEYS_TITLE = "effbatch – Schlüssel und Formate"
HELP_INTRO = (
    "Ich rechne die effektive (globale) Batch-Größe eines verteilten Trainings aus – die Zahl, auf die sich "
    "Lernrate, Warmup und veröffentlichte Rezepte beziehen – und die Tokens je Optimierer-Schritt:"
)
HELP_FORMULAS = ("B = b · d · a", "T = B · L")
USAGE_TITLE = "Aufruf"
USAGE = (
    f"`{COMMAND} b d a [L]` – Zahlen in dieser Reihenfolge: Micro-Batch je Gerät, datenparallele Replikate, "
    "Akkumulationsschritte, Sequenzlänge",
    f"`{COMMAND} b=8 d=64 a=4 L=4096` – benannt, in beliebiger Reihenfolge, auch nach den Zahlen",
    f"`{COMMAND} 8 64 4 4096 vs d=512` – zwei Setups vergleichen; was nach `vs` fehlt, gilt aus dem ersten weiter",
    f"`{COMMAND} 8 64 4 4096 vs llama2-7b` – mit einem veröffentlichten Lauf vergleichen; alle Läufe: "
    f"`{COMMAND} läufe` (gefiltert: `{COMMAND} läufe llama`)",
    f"`{COMMAND}` – ohne Werte öffnet sich ein Formular",
    f"`{COMMAND} cluster gpus=64 tp=8` – das Channel-Profil: Vorgaben für spätere Antworten hier",
    f"`{COMMAND} prüfe [gpus=64]` und eine Konfiguration oder Startzeile (gern als Codeblock) – ich sage, mit "
    "welcher Batch-Größe dein Framework wirklich trainiert ({count} Frameworks, alle: "
    f"`{COMMAND} hilfe prüfe`); im Menü einer Nachricht heißt das „Batch-Konfig prüfen“",
)
EXAMPLES_TITLE = "Beispiele"
EXAMPLES = (
    f"`{COMMAND} 8 64 4 4096` → B = 2.048, T = 8.388.608",
    f"`{COMMAND} gpus=384 tp=4 pp=12 b=2 B=2048 L=2048` → d = 8, a = 128 (BLOOM-176B)",
    f"`{COMMAND} b=2 d=32 T=4Mi L=2048` → a = 32",
    f"`{COMMAND} 8 64 4 4096 budget=2Bio` → Optimierer-Schritte für 2 Billionen Tokens",
    f"`{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4` → k = 8 und neue Lernraten",
    f"`{COMMAND} params=7B budget=2T L=4096` → Batch-Größe nach Step Law und DeepSeek, ganz ohne Setup",
    f"`{COMMAND} 8 64 4 4096 privat` → Antwort nur für dich",
    f"`{COMMAND} prompts=512 n=8 mini=128 b=4 gpus=64` → Rollout: 4.096 Sequenzen, B = 1.024, a = 4, s = 4",
    f"`{COMMAND} llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100 budget=1T` → Speicher je GPU, ob es passt, Trainingszeit",
    f"`{COMMAND} plane llama3.1-70b gpus=256 gpu=h100 B=512 L=8k` → die drei schnellsten Aufteilungen, die passen",
)
#: The batch of reinforcement learning, in three sentences (help and App Home).
RL_TITLE = "Reinforcement Learning: Rollouts"
RL_HELP = (
    "Beim Reinforcement Learning (GRPO, PPO) erzeugt ein Rollout für jeden von P Prompts n Antworten, zusammen "
    "P · n Sequenzen. Jeder Mini-Batch aus mini · n davon ergibt einen Optimierer-Schritt mit der effektiven "
    "Batch-Größe B = b · d · a. So macht ein Rollout s = P / mini · "
    f"Epochen Optimierer-Schritte – `{COMMAND} prompts=512 n=8 mini=128 b=4 gpus=64` rechnet es aus (mini in "
    "Prompts wie bei verl; TRL und OpenRLHF zählen in Antworten)."
)
MORE_HELP = f"Alle Schlüssel, Zahlenformate und Grenzen: `{COMMAND} hilfe schlüssel`."
WHATIF_HELP = (
    "Unter jeder Antwort stehen Was-wäre-wenn-Buttons (Akkumulation, Replikate, Micro-Batch ×2 bzw. ÷2, "
    "Anpassen…). "
    "Alle im Channel können sie anklicken; die Antwort wird ersetzt und nennt, wer sie zuletzt geändert hat."
)
SHARED_BY_DEFAULT = "Antworten sieht der ganze Channel, mit `privat` nur du selbst."
PRIVATE_BY_DEFAULT = "Antworten sieht in diesem Workspace nur, wer fragt."
ALWAYS_PRIVATE = " Hilfe und Fehlermeldungen siehst immer nur du."

#: (title, arguments, example) per group of keys; the keys themselves come from the parser's tables.
KEY_GROUPS: tuple[tuple[str, tuple[Argument, ...], str], ...] = (
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
        "`gpus=512 tp=8 b=2 B=2048` → a = 16;  `b=2 d=32 T=4Mi L=2048` → a = 32",
    ),
    (
        "Budget und Speicher",
        (Argument.BUDGET, Argument.ACTIVATION),
        "`8 64 4 4096 budget=2Bio` → Schritte;  `8 64 4 act=1,5GiB` → Speicher je Gerät",
    ),
    ("Vergleich", (Argument.LR,), "`8 64 4 4096 vs d=512 lr=3e-4`"),
    (
        "Einordnung – Modellgröße N und Token-Budget D (budget=)",
        (Argument.PARAMS,),
        "`params=7B budget=2T L=4096` → die Batch-Größe nach Step Law und DeepSeek, ganz ohne Setup",
    ),
    (
        "Reinforcement Learning – ein Rollout, mini in Prompts wie ppo_mini_batch_size bei verl",
        (Argument.PROMPTS, Argument.SAMPLES, Argument.MINI, Argument.EPOCHS),
        "`prompts=512 n=8 mini=128 b=4 gpus=64` → B = 1.024, a = 4, s = 4",
    ),
)
KEY_LINE = "{name}: {keys}"
EXAMPLE = "z. B. {example}"
HELP_CASE = (
    "Schlüssel: Groß-/Kleinschreibung egal, außer `B` (Ziel-Batch-Größe) und `T` (Ziel-Tokens je Schritt) – "
    "`b` ist der Micro-Batch je Gerät. Lernraten im Vergleich: linear ×k (Goyal et al. 2017, SGD) und "
    "Wurzel ×√k (Malladi et al. 2022, Adam)."
)
PARALLELISM_TITLE = "Was d teilt – und was nicht"
PARALLELISM = (
    "`tp=`, `pp=`, `cp=` teilen ein Replikat auf mehrere GPUs auf und damit d.",
    "`sp=` ist die Sequenz-Parallelität von DeepSpeed-Ulysses; sie verteilt jede Sequenz über eigene Ranks und "
    "teilt d. `--sequence-parallel` von Megatron-LM dagegen läuft auf den Ranks der Tensor-Parallelität mit und "
    "teilt nichts – gib dafür kein `sp=` an, sonst wird d doppelt geteilt.",
    "Experten-Parallelität (EP) ändert die dichte Datenparallelität nicht und zählt nicht mit.",
)
NUMBERS_TITLE = "Zahlen"
NUMBERS = (
    "`4096`, `4.096`, `1.048.576` (Punkt zwischen Dreiergruppen), `4_096`; das Komma ist das Dezimalzeichen "
    "(`1,5k` = 1.500). Ein Komma vor genau drei Ziffern (`2,000`, `1,024`) frage ich nach: deutsch ein Dezimalbruch, "
    "englisch ein Tausender.",
    "Exponentenschreibweise wie in Papers: `7e9`, `2e12`, `1.5e9` oder `1,5e9` – für b, d, a und L nur, wenn "
    "die Zahl ganz ist.",
    "Endungen: `k` ×1.000, `M` oder `Mio` ×1.000.000, `Mrd` ×10⁹, `Bio` ×10¹², `Ki` ×1.024, `Mi` ×1.048.576 – "
    "bei der Sequenzlänge heißt `k` ×1.024 (`4k` = 4.096, `128k` = 131.072)",
    "Bei Tokens auch `G` und `B` ×10⁹ und `T` ×10¹² (`budget=2T`). Achtung: `B` hinter einer Zahl ist die "
    "englische billion (10⁹), keine deutsche Billion (10¹²) – die heißt hier `Bio` oder `T`.",
    "Speicher: `B`, `KB`, `MB`, `GB`, `TB` oder `KiB`, `MiB`, `GiB`, `TiB`; Lernrate: `3e-4` oder `0,0003`",
)
BOUNDS = "Ganze Zahlen ab 1; Obergrenzen: {bounds}"
BOUNDS_SHOWN = (Argument.MICRO_BATCH, Argument.DATA_PARALLEL, Argument.ACCUMULATION, Argument.SEQ_LEN, Argument.GPUS)

# --- App Home -----------------------------------------------------------------------------

HOME_TITLE = "effbatch – effektive Batch-Größe"
HOME_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Warum die effektive Batch-Größe zählt",
        (
            "Lernrate, Warmup-Länge und veröffentlichte Rezepte sind für die effektive (globale) Batch-Größe "
            "angegeben, nicht für den Micro-Batch, der auf einen Chip passt. Wer von 8 auf 64 Geräte skaliert und "
            "B nicht neu rechnet, mittelt in jedem Optimierer-Schritt über achtmal so viele Sequenzen: Mit der "
            "alten Lernrate macht das Training je Epoche nur ein Achtel der Schritte und kommt langsamer voran; wer "
            "die Lernrate ohne längeres Warmup hochskaliert, riskiert Divergenz.",
        ),
    ),
    (
        "Rechenbeispiel",
        (
            "`B = b · d · a = 8 × 64 × 4 = 2.048 Sequenzen`",
            "`T = B · L = 2.048 × 4.096 = 8.388.608 Tokens` (≈ 8,4 Mio.)",
            "Doppelte Akkumulation (a = 8) hebt B auf 4.096, ohne mehr Speicher je Gerät – dafür braucht jeder "
            "Optimierer-Schritt doppelt so viele Durchläufe und dauert etwa doppelt so lange.",
        ),
    ),
    (
        "Grenzen",
        (
            "• Tensor-, Pipeline- und Kontext-Parallelität teilen ein Replikat auf und zählen nicht zu d: "
            "d = GPUs / (TP · PP · CP · SP).",
            "• `sp=` ist DeepSpeed-Ulysses' Sequenz-Parallelität und teilt d; `--sequence-parallel` von Megatron-LM "
            "läuft auf den TP-Ranks mit und teilt nichts – gib dafür kein `sp=` an.",
            "• Tokens setzen feste (gepackte) Sequenzlängen voraus; mit Padding oder variabler Länge sind es weniger.",
            "• Jedes Framework zählt Micro-Batches und Akkumulation anders (nanoGPT teilt die Akkumulation z. B. "
            f"durch die Zahl der GPUs, OLMo rundet stillschweigend ab): `{COMMAND} prüfe` mit deiner Konfiguration "
            "rechnet "
            "nach den Regeln deines Frameworks.",
        ),
    ),
    (RL_TITLE, (RL_HELP,)),
    (
        "Häufig gestellte Fragen",
        (
            "*Was ist die effektive Batch-Größe?* Die Zahl der Sequenzen, über die ein Optimierer-Schritt den "
            "Gradienten mittelt: B = b · d · a – Micro-Batch je Gerät (b) mal datenparallele Replikate (d) mal "
            "Akkumulationsschritte (a).",
            "*Wozu Gradient Accumulation?* Gradient Accumulation summiert die Gradienten von a Durchläufen, bevor der "
            "Optimierer-Schritt kommt. So erreichst du eine große effektive Batch-Größe, auch wenn nur ein kleiner "
            "Micro-Batch in den Speicher passt – auf Kosten der Zeit je Schritt.",
            "*Batch-Größe oder Tokens je Schritt – warum beides?* Die Batch-Größe zählt Sequenzen, T zählt die "
            "Tokens, die ein Optimierer-Schritt sieht. Rezepte für Sprachmodelle nennen oft Tokens (etwa 4 Mio. je "
            "Schritt), andere Sequenzen; eine doppelte Sequenzlänge verdoppelt T bei gleichem B. Deshalb zeige "
            "ich beides.",
            "*Wie groß sollte die Batch-Größe sein?* Eine richtige gibt es nicht, nur Anhaltspunkte: Mit "
            f"`{COMMAND} 8 64 4 4096 params=7B budget=2T` stelle ich dein T neben zwei empirisch gefittete "
            "Skalierungsgesetze (Step Law, Li et al. 2025; DeepSeek LLM, Bi et al. 2024) und veröffentlichte Läufe "
            "ähnlicher Größe – als Schätzung, mit dem Bereich, in dem sie gefittet wurden; ganz ohne Setup: "
            f"`{COMMAND} params=7B budget=2T L=4096`. Llama 2 7B trainierte z. B. mit "
            f"4,2 Mio. Tokens je Schritt, DeepSeek LLM 7B mit 9,4 Mio.; alle Läufe zeigt `{COMMAND} läufe`, "
            f"einen Vergleich `{COMMAND} 8 64 4 4096 vs llama2-7b`.",
        ),
    ),
    (
        "Verwandte Rechnungen",
        (
            f"• Welches a ergibt B = 2.048? `{COMMAND} gpus=512 tp=8 b=2 B=2048`",
            f"• Wie viele Schritte sind 2 Billionen Tokens? `{COMMAND} 8 64 4 4096 budget=2Bio`",
            f"• Aktivierungsspeicher je GPU: `{COMMAND} 8 64 4 act=1,5GiB`",
            f"• Lernrate beim Skalieren: `{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4`",
            f"• Passt die Batch-Größe zum Modell? `{COMMAND} 8 64 4 4096 params=7B budget=2T`",
            f"• Batch-Größen veröffentlichter Läufe: `{COMMAND} läufe`, "
            f"Vergleich: `{COMMAND} 8 64 4 4096 vs llama2-7b`",
            f"• Welche Batch-Größe nutzt meine Konfiguration wirklich? `{COMMAND} prüfe gpus=64` und die Datei, "
            "oder „Batch-Konfig prüfen“ im Menü einer Nachricht",
            f"• Passt es auf die GPU, und wie lange dauert es? `{COMMAND} llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100 "
            f"budget=1T`; nur die Modellzustände: `{COMMAND} params=7B zero=3 gpus=8` "
            f"(mehr: `{COMMAND} hilfe speicher`)",
            f"• Für alle hier dieselben GPUs? `{COMMAND} cluster gpus=64 tp=8 gpu=h100` – das Channel-Profil: "
            "Spätere Antworten in diesem Channel nehmen diese Werte, wo ein Befehl sie nicht selbst nennt",
            f"• Alles Weitere: `{COMMAND} hilfe`",
        ),
    ),
)
HOME_OPEN_FORM = "Rechner öffnen"

# --- help topics (every surface; {command} is /effbatch in Slack and the console, effbatch in a terminal) ---

TOPIC_TITLE = "effbatch – Hilfe: {topic}"
#: Each topic (by its id in the code): its name as the help lists it, and the words that ask for it.
TOPICS: Mapping[str, tuple[str, frozenset[str]]] = {
    "keys": ("schlüssel", frozenset({"schlüssel", "schluessel", "keys", "formate"})),
    "check": ("prüfe", frozenset({"prüfe", "pruefe", "prüfen", "check", "konfig", "konfiguration"})),
    "budget": ("budget", frozenset({"budget", "schritte", "tokens"})),
    "vs": ("vs", frozenset({"vs", "vergleich", "vergleichen", "gegen", "versus", "lr", "lernrate"})),
    "memory": (
        "speicher",
        frozenset(
            {"speicher", "memory", "modell", "modelle", "gpu", "zeit", "mfu", "regeln"}
            | {"skalierung", "scaling", "plane", "plan"}
        ),
    ),
}
TOPICS_LINE = "Hilfe zu einem Thema: {topics}."
TOPIC_ENTRY = "`{command} hilfe {topic}`"
UNKNOWN_TOPIC_TITLE = "effbatch – Hilfe: kein solches Thema"
UNKNOWN_TOPIC = "Zu {topic} habe ich keine Hilfe. Diese Themen gibt es: {topics}; die kurze Hilfe: `{command} hilfe`."

CHECK_TOPIC_SLACK = (
    "`{command} prüfe [gpus=64]` und dahinter eine Konfiguration oder Startzeile (gern als Codeblock): Ich sage, "
    "mit welcher Batch-Größe das Framework wirklich trainiert, und was es ablehnt.",
    "Nennt keine Startzeile die Zahl der GPUs, gib sie direkt nach `prüfe` an: `gpus=64` oder "
    "`nodes=8 gpus_per_node=8`.",
    "In Slack geht es auch ohne Befehl: im Menü einer Nachricht „Batch-Konfig prüfen“.",
    "Legt die Konfiguration das Modell fest (Megatron-/NeMo-Argumente, torchtitan-Flavour, MaxText-`model_name`, "
    "OLMo-core, eine bekannte Hugging-Face-ID), schätze ich den Speicher je GPU nach den Regeln des Frameworks; "
    "mit `gpu=h100` nach `prüfe` sage ich, ob der Micro-Batch passt.",
    "Im Terminal prüft `effbatch check DATEI` ganze Dateien; in der lokalen Konsole liest `prüfe DATEI` eine Datei.",
)
CHECK_TOPIC_TERMINAL = (
    "`{command} check DATEI …` liest Konfigurationen und Startskripte; mehrere Dateien zusammen sind ein Lauf "
    "(z. B. die Argumente des Trainers und das DeepSpeed-JSON daneben), `-` liest die Standardeingabe.",
    "Die GPUs: aus der Startzeile, sonst `--world-size 64` oder `--nnodes 8 --nproc-per-node 8`.",
    "Legt die Konfiguration das Modell fest, steht der Speicher je GPU in der Antwort (und `memory` im JSON); "
    "`--gpu h100` vergleicht ihn mit dem Speicher einer GPU und warnt, wenn der Micro-Batch nicht passt.",
    "`--each` prüft jede Datei für sich und überspringt Dateien ohne Batch-Einstellungen (pre-commit, CI); "
    "`--framework NAME` statt der Erkennung am Inhalt; `--json` ein JSON-Objekt statt Text.",
    "Exit-Code 0: stimmig (Warnungen erlaubt), 1: mindestens ein Fehler, 2: nicht lesbar oder es fehlt etwas.",
    "Alle Optionen: `{command} check --help`.",
)
#: ``{count}`` and ``{frameworks}`` come from the registry (``bot.texts.checks.framework_list``), never by hand.
CHECK_TOPIC_FRAMEWORKS = "Ich kenne {count} Frameworks und rechne nach den Regeln des jeweiligen: {frameworks}."
CHECK_TOPIC_EXAMPLE = "`{command} check ds_config.json --world-size 64`"
CHECK_TOPIC_EXAMPLE_SLACK = "`{command} prüfe gpus=64` und in der nächsten Zeile das DeepSpeed-JSON"

BUDGET_TOPIC = (
    "`budget=` ist die Zahl der Tokens, die das ganze Training sehen soll; ich rechne daraus die "
    "Optimierer-Schritte aus: Schritte = ⌈Budget / T⌉, mit T = B · L – dafür braucht es die Sequenzlänge.",
    "Schreibweisen: `2T`, `2Bio`, `2 Bio.`, `2 Billionen` (je 2 · 10¹²), `300Mrd`, `300G` oder `300B` "
    "(je 3 · 10¹¹). `B` hinter einer Zahl ist die englische billion (10⁹), keine deutsche Billion.",
    "Gibst du Ziel-Tokens je Schritt (`T=`) statt b, d oder a an, rechne ich zuerst den fehlenden Wert aus.",
)
BUDGET_TOPIC_EXAMPLE = "`{command} 8 64 4 4096 budget=2Bio` → 238.419 Optimierer-Schritte"

VS_TOPIC = (
    "`vs` (oder `gegen`) vergleicht zwei Setups: links das bisherige, rechts das neue. Was rechts fehlt, gilt "
    "von links weiter; `d=` ersetzt dabei `gpus=` und umgekehrt, ebenso `B=` und `T=`.",
    "Ich zeige beide effektiven Batch-Größen und den Faktor k zwischen ihnen.",
    "Mit `lr=` skaliere ich die Lernrate mit: linear ×k (Goyal et al. 2017, SGD) und mit der Wurzel ×√k "
    "(Malladi et al. 2022, Adam) – Anhaltspunkte, keine Garantie; ein längeres Warmup gehört meist dazu.",
    "Nur ein `vs` je Befehl, und vor und nach `vs` muss je ein Setup stehen.",
)
VS_TOPIC_EXAMPLE = "`{command} 8 64 4 4096 vs d=512 lr=3e-4` → k = 8 und die neuen Lernraten"

# --- the terminal's own help (effbatch --help, effbatch hilfe) ----------------------------------

TERMINAL_TITLE = "effbatch – Hilfe"
TERMINAL_INTRO = (
    "effbatch rechnet die effektive (globale) Batch-Größe eines verteilten Trainings und die Tokens je "
    "Optimierer-Schritt aus und prüft Trainingskonfigurationen: B = b · d · a, T = B · L."
)
TERMINAL_CALCULATE_TITLE = "Rechnen"
TERMINAL_CALCULATE = (
    "`{command} b d a [L]` – Micro-Batch je Gerät, datenparallele Replikate, Akkumulationsschritte, Sequenzlänge; "
    "z. B. `{command} 8 64 4 4096` → B = 2.048, T = 8.388.608",
    "`{command} b=8 d=64 a=4 L=4096` – benannt, in beliebiger Reihenfolge; "
    "z. B. `{command} gpus=512 tp=8 b=2 B=2048` → a = 16",
    "`{command} 8 64 4 4096 vs d=512` – zwei Setups vergleichen",
    "`{command} llama3.1-8b b=2 gpus=64 a=8 L=8k gpu=h100` – Speicher je GPU und Trainingszeit; mehr: "
    "`{command} hilfe speicher`",
)
TERMINAL_CHECK_TITLE = "Konfigurationen prüfen"
TERMINAL_CHECK = (
    "`{command} check DATEI … [--world-size N | --nnodes N --nproc-per-node M] [--each] [--json]` – "
    "z. B. `{command} check ds_config.json --world-size 64`",
    "Exit-Code 0: stimmig (Warnungen erlaubt), 1: mindestens ein Fehler, 2: nicht lesbar oder es fehlt etwas.",
    "Alle Optionen: `{command} check --help`",
)
MORE_HELP_TERMINAL = "Alle Schlüssel, Zahlenformate und Grenzen: `{command} hilfe schlüssel`."
TERMINAL_OPTIONS_TITLE = "Optionen"
TERMINAL_OPTIONS = (
    "`--json` – ein JSON-Objekt statt Text (Schema: schema/effbatch.schema.json), "
    "z. B. `{command} --json 8 64 4 4096`; Exit-Code 2 bei falscher Eingabe",
    "`--version` – die Version, z. B. `{command} --version`",
    "`-h`, `--help`, `hilfe` – diese Hilfe",
)

#: ``hilfe schlüssel``: the memory and time keys in two groups (title, keys by their TrainingKey value).
TRAINING_KEY_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Modell – ein Name oder seine Form",
        ("model", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "swiglu", "tied", "experts", "topk",
         "moe_ffn", "head_dim"),
    ),
    (
        "Speicher je GPU und Trainingszeit",
        ("gpu", "gpu_mem", "dtype", "zero", "distributed_optimizer", "offload", "recompute", "sequence_parallel", "ep",
         "etp", "vpp", "largest_layer", "zero_init", "compile", "use_cache", "loss_fusion", "tp_comm_overlap",
         "autocast", "optimizer", "grad_sync", "optim_dtype", "fp8_params", "nodes", "rules", "framework", "attention",
         "net_gbps", "mfu", "peak", "step_time", "tokens_per_second"),
    ),
)  # fmt: skip
