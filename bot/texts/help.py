"""The help (``/effbatch hilfe``) and the App Home."""

from __future__ import annotations

from bot.texts.glossary import COMMAND
from core import MODEL_PARALLEL, Argument

HELP_TITLE = "effbatch – Hilfe"
HELP_INTRO = (
    "Ich rechne die effektive (globale) Batchgröße eines verteilten Trainings aus – die Zahl, auf die sich "
    "Lernrate, Warmup und veröffentlichte Rezepte beziehen – und die Tokens je Optimizer-Schritt:"
)
HELP_FORMULAS = ("B = b · d · a", "T = B · L")
USAGE_TITLE = "Aufruf"
USAGE = (
    f"`{COMMAND} b d a [L]` – Zahlen in dieser Reihenfolge",
    f"`{COMMAND} b=8 d=64 a=4 L=4096` – benannt, in beliebiger Reihenfolge, auch nach den Zahlen",
    f"`{COMMAND} 8 64 4 4096 vs d=512` – zwei Setups vergleichen; was nach `vs` fehlt, gilt aus dem ersten weiter",
)
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
        "`gpus=512 tp=8 b=2 B=2048` → a = 16;  `b=2 d=32 T=4M L=2048`",
    ),
    (
        "Budget und Speicher",
        (Argument.BUDGET, Argument.ACTIVATION),
        "`8 64 4 4096 budget=2T` → Schritte;  `8 64 4 act=1,5GiB` → Speicher je Gerät",
    ),
    ("Vergleich", (Argument.LR,), "`8 64 4 4096 vs d=512 lr=3e-4`"),
)
KEY_LINE = "{name}: {keys}"
EXAMPLE = "z. B. {example}"
HELP_CASE = (
    "Schlüssel: Groß-/Kleinschreibung egal, außer `B` (Ziel-Batchgröße) und `T` (Ziel-Tokens) – `b` ist der "
    "Batch je Gerät. Expertenparallelität (EP) ändert die dichte Datenparallelität nicht und zählt nicht mit. "
    "Lernraten im Vergleich: linear ×k (Goyal et al. 2017, SGD) und Wurzel ×√k (Malladi et al. 2022, Adam)."
)
NUMBERS_TITLE = "Zahlen"
NUMBERS = (
    "`4096`, `4.096`, `1.048.576` (Punkt zwischen Dreiergruppen), `4_096`",
    "Endungen: `k` ×1.000, `M` ×1.000.000, `Ki` ×1.024, `Mi` ×1.048.576 – bei der Sequenzlänge heißt `k` "
    "×1.024 (`4k` = 4.096, `128k` = 131.072); bei Tokens auch `G`/`B` ×10⁹ und `T` ×10¹² (`budget=2T`)",
    "Speicher: `B`, `KB`, `MB`, `GB`, `TB` oder `KiB`, `MiB`, `GiB`, `TiB`; Lernrate: `3e-4` oder `0,0003`",
)
BOUNDS = "Ganze Zahlen ab 1; Obergrenzen: {bounds}"
BOUNDS_SHOWN = (Argument.MICRO_BATCH, Argument.DATA_PARALLEL, Argument.ACCUMULATION, Argument.SEQ_LEN, Argument.GPUS)
EXAMPLES_TITLE = "Beispiele"
EXAMPLES = (
    f"`{COMMAND} 8 64 4 4096` → B = 2.048, T = 8.388.608",
    f"`{COMMAND} 8 64 8 4k` → doppelte Akkumulation: B = 4.096",
    f"`{COMMAND} gpus=384 tp=4 pp=12 b=2 B=2048 L=2048` → d = 8, a = 128 (BLOOM-176B)",
    f"`{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4` → k = 8 und neue Lernraten",
    f"`{COMMAND} 8 64 4 4096 privat` → Antwort nur für dich",
)
WHATIF_HELP = (
    "Unter jeder Antwort stehen Was-wäre-wenn-Knöpfe (Akkumulation, Geräte, Micro-Batch ×2 bzw. ÷2, Anpassen…). "
    "Jede*r im Kanal kann sie drücken – es ist ein gemeinsames Planungswerkzeug; die Antwort wird ersetzt "
    f"und nennt, wer zuletzt geändert hat. Ohne Argumente öffnet `{COMMAND}` ein Formular."
)
SHARED_BY_DEFAULT = "Antworten sieht der ganze Kanal; mit `privat` nur du."
PRIVATE_BY_DEFAULT = "Antworten sieht in diesem Workspace nur, wer fragt."
ALWAYS_PRIVATE = " Hilfe und Fehlermeldungen sieht immer nur du."

# --- App Home -----------------------------------------------------------------------------

HOME_TITLE = "effbatch – effektive Batchgröße"
HOME_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Was ist die effektive Batchgröße?",
        (
            "Die Zahl der Sequenzen, über die ein Optimizer-Schritt mittelt: B = b · d · a – Batch je Gerät (b) "
            "mal datenparallele Geräte (d) mal Akkumulationsschritte (a). Mit der Sequenzlänge L ergibt T = B · L "
            "die Tokens je Schritt.",
        ),
    ),
    (
        "Warum die globale und nicht die Micro-Batch?",
        (
            "Lernrate, Warmup-Länge und veröffentlichte Rezepte sind für die globale Batchgröße angegeben, nicht "
            "für das, was auf einen Chip passt. Wer von 8 auf 64 Geräte skaliert und B nicht neu rechnet, macht "
            "jedes Update achtmal größer – das Training kann divergieren oder stagnieren.",
        ),
    ),
    (
        "Die Formel am Beispiel",
        (
            "`B = b · d · a = 8 × 64 × 4 = 2.048 Sequenzen`",
            "`T = B · L = 2.048 × 4.096 = 8.388.608 Tokens` (≈ 8,4 Mio.)",
            "Doppelte Akkumulation (a = 8) hebt B auf 4.096 – ohne mehr Speicher je Gerät.",
        ),
    ),
    (
        "Grenzen",
        (
            "• Tensor-, Pipeline-, Kontext- und Sequenzparallelität teilen ein Replikat auf und zählen nicht zu d: "
            "d = GPUs / (TP · PP · CP · SP).",
            "• Tokens setzen feste (gepackte) Sequenzlängen voraus; mit Padding oder variabler Länge sind es weniger.",
            "• Prüfe, wie dein Framework Micro-Batches und Akkumulation zählt: DeepSpeed, Megatron-LM, Hugging Face "
            "Trainer und nanoGPT benennen und teilen sie unterschiedlich (nanoGPT teilt die Akkumulation z. B. durch "
            "die Zahl der GPUs).",
        ),
    ),
    (
        "So fragst du",
        (
            f"`{COMMAND} 8 64 4 4096` – b d a L",
            f"`{COMMAND} gpus=512 tp=8 b=2 B=2048` – welches a ergibt B = 2.048?",
            f"`{COMMAND} 8 64 4 4096 budget=2T` – Schritte für 2 Billionen Tokens",
            f"`{COMMAND} 8 64 4 4096 vs d=512 lr=3e-4` – Vergleich mit Lernraten-Skalierung",
            f"`{COMMAND} hilfe` – alle Schlüssel und Formate",
        ),
    ),
)
HOME_OPEN_FORM = "Rechner öffnen"
