"""The help (``/effbatch hilfe``, ``/effbatch hilfe schlüssel``) and the App Home."""

from __future__ import annotations

from bot.texts.glossary import COMMAND
from core import MODEL_PARALLEL, Argument

HELP_TITLE = "effbatch – Hilfe"
KEYS_TITLE = "effbatch – Schlüssel und Formate"
HELP_INTRO = (
    "Ich rechne die effektive (globale) Batch-Größe eines verteilten Trainings aus – die Zahl, auf die sich "
    "Lernrate, Warmup und veröffentlichte Rezepte beziehen – und die Tokens je Optimierer-Schritt:"
)
HELP_FORMULAS = ("B = b · d · a", "T = B · L")
USAGE_TITLE = "Aufruf"
USAGE = (
    f"`{COMMAND} b d a [L]` – Zahlen in dieser Reihenfolge: Batch je Gerät, datenparallele Geräte, "
    "Akkumulationsschritte, Sequenzlänge",
    f"`{COMMAND} b=8 d=64 a=4 L=4096` – benannt, in beliebiger Reihenfolge, auch nach den Zahlen",
    f"`{COMMAND} 8 64 4 4096 vs d=512` – zwei Setups vergleichen; was nach `vs` fehlt, gilt aus dem ersten weiter",
    f"`{COMMAND}` – ohne Werte öffnet sich ein Formular",
    f"`{COMMAND} prüfe [gpus=64]` und eine Konfiguration oder Startzeile (gern als Codeblock) – ich sage, mit "
    "welcher Batch-Größe DeepSpeed, Hugging Face, accelerate, Lightning, LLaMA-Factory, Megatron-LM, NeMo, "
    "torchtitan, nanoGPT, axolotl, OLMo, TRL (SFT und GRPO), verl oder OpenRLHF wirklich trainieren; im Menü "
    "einer Nachricht heißt das „Batch-Konfig prüfen“",
)
EXAMPLES_TITLE = "Beispiele"
EXAMPLES = (
    f"`{COMMAND} 8 64 4 4096` → B = 2.048, T = 8.388.608",
    f"`{COMMAND} gpus=384 tp=4 pp=12 b=2 B=2048 L=2048` → d = 8, a = 128 (BLOOM-176B)",
    f"`{COMMAND} b=2 d=32 T=4Mi L=2048` → a = 32",
    f"`{COMMAND} 8 64 4 4096 budget=2Bio` → Optimierer-Schritte für 2 Billionen Tokens",
    f"`{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4` → k = 8 und neue Lernraten",
    f"`{COMMAND} 8 64 4 4096 privat` → Antwort nur für dich",
    f"`{COMMAND} prompts=512 n=8 mini=128 b=4 gpus=64` → Rollout: 4.096 Sequenzen, B = 1.024, a = 4, k = 4",
)
#: The batch of reinforcement learning, in three sentences (help and App Home).
RL_TITLE = "Reinforcement Learning: Rollouts"
RL_HELP = (
    "Beim Reinforcement Learning (GRPO, PPO) erzeugt ein Rollout für jeden von P Prompts n Antworten, zusammen "
    "P · n Sequenzen. Diese werden in Mini-Batches geteilt: Jeder ist ein Optimierer-Schritt, seine mini · n "
    "Sequenzen sind die effektive Batch-Größe B = b · d · a. So macht ein Rollout k = P / mini · Epochen "
    f"Optimierer-Schritte – `{COMMAND} prompts=512 n=8 mini=128 b=4 gpus=64` rechnet es aus (mini in Prompts wie "
    "bei verl; TRL und OpenRLHF zählen in Antworten)."
)
MORE_HELP = f"Alle Schlüssel, Zahlenformate und Grenzen: `{COMMAND} hilfe schlüssel`."
WHATIF_HELP = (
    "Unter jeder Antwort stehen Was-wäre-wenn-Buttons (Akkumulation, Geräte, Micro-Batch ×2 bzw. ÷2, Anpassen…). "
    "Alle im Channel können sie drücken – es ist ein gemeinsames Planungswerkzeug; die Antwort wird ersetzt "
    "und nennt, wer zuletzt geändert hat."
)
SHARED_BY_DEFAULT = "Antworten sieht der ganze Channel; mit `privat` nur du."
PRIVATE_BY_DEFAULT = "Antworten sieht in diesem Workspace nur, wer fragt."
ALWAYS_PRIVATE = " Hilfe und Fehlermeldungen sieht immer nur du."

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
        "Reinforcement Learning – ein Rollout, mini in Prompts wie verls ppo_mini_batch_size",
        (Argument.PROMPTS, Argument.SAMPLES, Argument.MINI, Argument.EPOCHS),
        "`prompts=512 n=8 mini=128 b=4 gpus=64` → B = 1.024, a = 4, k = 4",
    ),
)
KEY_LINE = "{name}: {keys}"
EXAMPLE = "z. B. {example}"
HELP_CASE = (
    "Schlüssel: Groß-/Kleinschreibung egal, außer `B` (Ziel-Batch-Größe) und `T` (Ziel-Tokens je Schritt) – "
    "`b` ist der Batch je Gerät. Lernraten im Vergleich: linear ×k (Goyal et al. 2017, SGD) und "
    "Wurzel ×√k (Malladi et al. 2022, Adam)."
)
PARALLELISM_TITLE = "Was d teilt – und was nicht"
PARALLELISM = (
    "`tp=`, `pp=`, `cp=` teilen ein Replikat auf mehrere GPUs auf und damit d.",
    "`sp=` ist die Sequenz-Parallelität von DeepSpeed-Ulysses; sie verteilt jede Sequenz über eigene Ränge und "
    "teilt d. Megatrons `--sequence-parallel` dagegen läuft auf den Rängen der Tensor-Parallelität mit und "
    "teilt nichts – gib dafür kein `sp=` an, sonst wird d doppelt geteilt.",
    "Experten-Parallelität (EP) ändert die dichte Datenparallelität nicht und zählt nicht mit.",
)
NUMBERS_TITLE = "Zahlen"
NUMBERS = (
    "`4096`, `4.096`, `1.048.576` (Punkt zwischen Dreiergruppen), `4_096`; das Komma ist das Dezimalzeichen "
    "(`1,5k` = 1.500, `4,096` ist also keine Ganzzahl)",
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
        "Warum der globale Batch zählt",
        (
            "Lernrate, Warmup-Länge und veröffentlichte Rezepte sind für die effektive (globale) Batch-Größe "
            "angegeben, nicht für den Micro-Batch, der auf einen Chip passt. Wer von 8 auf 64 Geräte skaliert und "
            "B nicht neu rechnet, mittelt in jedem Optimierer-Schritt über achtmal so viele Sequenzen: Mit der "
            "alten Lernrate macht das Training je Epoche achtmal weniger Schritte und kommt langsamer voran; wer "
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
            "• `sp=` ist DeepSpeed-Ulysses' Sequenz-Parallelität und teilt d; Megatrons `--sequence-parallel` "
            "läuft auf den TP-Rängen mit und teilt nichts – nicht doppelt abziehen.",
            "• Tokens setzen feste (gepackte) Sequenzlängen voraus; mit Padding oder variabler Länge sind es weniger.",
            "• Jedes Framework zählt Micro-Batches und Akkumulation anders (nanoGPT teilt die Akkumulation z. B. "
            f"durch die Zahl der GPUs, OLMo rundet still ab): `{COMMAND} prüfe` mit deiner Konfiguration rechnet "
            "nach den Regeln deines Frameworks.",
        ),
    ),
    (RL_TITLE, (RL_HELP,)),
    (
        "Häufige Fragen",
        (
            "*Was ist die effektive Batch-Größe?* Die Zahl der Sequenzen, über die ein Optimierer-Schritt den "
            "Gradienten mittelt: B = b · d · a – Batch je Gerät (b) mal datenparallele Geräte (d) mal "
            "Akkumulationsschritte (a).",
            "*Wozu Gradient Accumulation?* Gradient Accumulation summiert die Gradienten von a Durchläufen, bevor der "
            "Optimierer-Schritt kommt. So erreichst du eine große effektive Batch-Größe, auch wenn nur ein kleiner "
            "Micro-Batch in den Speicher passt – auf Kosten der Zeit je Schritt.",
            "*Batch-Größe oder Tokens je Schritt – warum beides?* Die Batch-Größe zählt Sequenzen, T zählt die "
            "Tokens, die ein Optimierer-Schritt sieht. Rezepte für Sprachmodelle nennen oft Tokens (etwa 4 Mio. je "
            "Schritt), andere Sequenzen; eine doppelte Sequenzlänge verdoppelt T bei gleichem B. Deshalb zeige "
            "ich beides.",
        ),
    ),
    (
        "Verwandte Rechnungen",
        (
            f"• Welches a ergibt B = 2.048? `{COMMAND} gpus=512 tp=8 b=2 B=2048`",
            f"• Wie viele Schritte sind 2 Billionen Tokens? `{COMMAND} 8 64 4 4096 budget=2Bio`",
            f"• Aktivierungsspeicher je Gerät: `{COMMAND} 8 64 4 act=1,5GiB`",
            f"• Lernrate beim Skalieren: `{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4`",
            f"• Welche Batch-Größe nutzt meine Konfiguration wirklich? `{COMMAND} prüfe gpus=64` und die Datei, "
            "oder „Batch-Konfig prüfen“ im Menü einer Nachricht",
            f"• Alles Weitere: `{COMMAND} hilfe`",
        ),
    ),
)
HOME_OPEN_FORM = "Rechner öffnen"
