"""Messages for bad input, one template per ``ProblemKind``, filled from the problem.

Every template may use ``{text}`` (what was typed, quoted), ``{expected}`` (what the
argument takes, with an example), ``{symbol}`` and ``{bound}`` (the argument's), and the problem's ``ctx`` values,
formatted. Functions remain only where grammar needs logic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from effbatch.bot.texts.glossary import list_de
from effbatch.core import Argument, ProblemKind, Side

#: Headings, by what went wrong: the text was not understood, something is missing, or it contradicts itself.
NOT_UNDERSTOOD = "Das habe ich nicht verstanden"
INCOMPLETE = "Da fehlt noch etwas"
CONFLICT = "Das passt nicht zusammen"
#: Understood, but not allowed: 0, -8, 8,5, a value over its bound.
NOT_ALLOWED = "Dieser Wert geht nicht"
NOT_ALLOWED_SEVERAL = "Diese Werte gehen nicht"
USAGE = (
    "So geht's: `{command} b d a [L]`, z. B. `{command} 8 64 4 4096`, "
    "oder benannt `{command} b=8 d=64 a=4 L=4k`. Alle Schlüssel und Formate: `{command} hilfe schlüssel`."
)
POSITIVE_WHOLE = "eine ganze Zahl ab 1, z. B. `8`, `4.096`, `4_096`, `4k` oder `4e3`"
#: A missing value of the laws' question: its key, then its name.
KEY_NAMED = "`{key}=` ({name})"
#: What each argument takes, where it differs from a plain count.
EXPECTED: Mapping[Argument, str] = {
    Argument.SEQ_LEN: "eine ganze Zahl ab 1, z. B. `4096`, `4.096` oder `4k` (k = 1.024)",
    Argument.TARGET_TOKENS: "eine Token-Zahl wie `4Mi`, `4Mio` oder `4.194.304`",
    Argument.BUDGET: "eine Token-Zahl wie `2T`, `300Mrd` oder `2Bio`",
    Argument.ACTIVATION: "eine Größe mit Einheit wie `1,5GiB` oder `800MB`",
    Argument.LR: "eine positive Dezimalzahl wie `3e-4` oder `0,0003`",
    Argument.PARAMS: "eine Parameterzahl wie `7B`, `7Mrd` oder `135M`",
}
#: What each memory or time key takes (by its ``TrainingKey`` value).
SETTING_EXPECTED: Mapping[str, str] = {
    "model": "einen Modellnamen wie `llama3.1-8b` (alle: `hilfe speicher`)",
    "gpu": "eine GPU wie `h100`, `a100-80` oder `mi300x`",
    "gpu_mem": "eine Größe mit Einheit wie `80GiB`",
    "largest_layer": "eine Parameterzahl wie `131M` oder `1,3B`",
    "mfu": "einen Anteil wie `40%` oder `0,4`",
    "peak": "FLOP/s wie `989T` oder `2,25P`",
    "step_time": "eine Dauer wie `13,75s`, `900ms` oder `2min`",
    "tokens_per_second": "eine Rate wie `238,3k` oder `1,2M`",
    "swiglu": "`ja` oder `nein`",
    "tied": "`ja` oder `nein`",
    "distributed_optimizer": "`ja` oder `nein`",
    "sequence_parallel": "`ja` oder `nein`",
    "zero_init": "`ja` oder `nein`",
    "compile": "`ja` oder `nein`",
    "use_cache": "`ja` oder `nein`",
    "autocast": "`ja` oder `nein`",
    "dtype": "`bf16`, `fp16`, `fp32`, `fp8` oder `bf16-true` (reines BF16 ohne FP32-Kopie)",
    "zero": "`0`, `1`, `2` oder `3`",
    "offload": "`none`, `optimizer` oder `params`",
    "recompute": "`none`, `selective` oder `full`",
    "rules": "`effbatch`, `megatron`, `deepspeed` oder `korthikanti`",
    "framework": "`megatron`, `deepspeed`, `fsdp`, `fsdp2`, `torchtitan`, `ddp` oder `huggingface`",
    "attention": "`flash` (auch `sdpa`), `triton` oder `eager`",
    "net_gbps": "eine Bandbreite je GPU in Gbit/s wie `400`, `400G` oder `3,2T`",
}
MORE_PROBLEMS = "… und {count} weitere Probleme."
SIDES = {Side.BEFORE: "vor `vs`", Side.AFTER: "nach `vs`"}
ON_SIDE = "({side}) "
ABOUT = "{label}: "
SUFFIX_HINTS: Mapping[Argument, str] = {Argument.SEQ_LEN: " (bei der Sequenzlänge heißt k ×1.024, also 4k = 4.096)"}
POSITION = "als {position}. Zahl ({text})"
NAMED = "als {text}"
#: What a solved value out of range was needed for: the target, or (for d) the GPUs given.
FOR_TARGET = "Für {symbol} = {value}"
FOR_GPUS = "Für die angegebenen GPUs"
TOKENS_MEANT = " B zählt Sequenzen, nicht Tokens: Meintest du `T={value}` (Ziel-Tokens je Schritt)?"

TEMPLATES: Mapping[ProblemKind, str] = {
    ProblemKind.TEXT_TOO_LONG: (
        "Der Befehl ist mit {length} Zeichen zu lang; ich lese höchstens {max}. Eine Rechnung braucht nur ein paar "
        "Werte."
    ),
    ProblemKind.MISSING_VALUES: (
        "Es {verb} noch {missing}. Nötig sind b, d und a (für d auch `gpus=`), z. B. `8 64 4` – oder zwei davon "
        "und ein Ziel `B=` bzw. `T=`, dann rechne ich den dritten aus."
    ),
    ProblemKind.NOT_ENOUGH_FACTORS: (
        "Für ein Ziel brauche ich zwei der drei Werte b, d, a; es {verb} noch {missing}. "
        "Gib einen davon an, den anderen rechne ich aus, z. B. `gpus=512 tp=8 b=2 B=2048`."
    ),
    ProblemKind.TOO_MANY_VALUES: (
        "{text} ist ein Wert zu viel: höchstens vier Zahlen ohne Namen, in der Reihenfolge b d a L."
    ),
    ProblemKind.POSITIONAL_AFTER_NAMED: (
        "{texts} {verb} ohne Namen hinter einem benannten Wert. Zahlen ohne Namen kommen zuerst (b d a L), "
        "benannte danach, z. B. `8 64 a=4` – oder alles benannt: `tp=8 b=8 d=64 a=4`."
    ),
    ProblemKind.UNKNOWN_KEY: ("Unbekannter Schlüssel {key} in {text}.{suggestions}"),
    ProblemKind.DUPLICATE: "Doppelt angegeben: {first} und {second}. Bitte nur einmal.",
    ProblemKind.EMPTY_VALUE: "In {text} fehlt der Wert nach `=`. Erwartet: {expected}.",
    ProblemKind.NOT_A_NUMBER: "{text} ist keine Zahl. Erwartet: {expected}.",
    ProblemKind.BAD_GROUPING: (
        "{text} ist keine ganze Zahl: Der Punkt trennt nur Dreiergruppen (4.096, 1.048.576), Dezimalstellen "
        "stehen hinter einem Komma. Erwartet: {expected}."
    ),
    ProblemKind.NOT_WHOLE: "{text} ist keine ganze Zahl. Erwartet: {expected}.",
    ProblemKind.THOUSANDS_COMMA: (
        "{text} lese ich nicht eindeutig. Im Deutschen ist das Komma das Dezimalzeichen: Meintest du `{dotted}` "
        "oder `{plain}`? Erwartet: {expected}."
    ),
    ProblemKind.NOT_POSITIVE: "{text} ist nicht positiv. Erwartet: {expected}.",
    ProblemKind.UNKNOWN_SUFFIX: "{text} hat die unbekannte Endung {suffix}. Erlaubt: {allowed}{hint}.",
    ProblemKind.TOO_LONG: "{text} hat zu viele Stellen. Erwartet: höchstens {bound}.",
    ProblemKind.TOO_LARGE: "{text} liegt über der Obergrenze von {le}. Das ist vermutlich ein Tippfehler.",
    ProblemKind.MISSING_UNIT: (
        "{text} braucht eine Einheit: B, KB, MB, GB, TB (×1.000) oder KiB, MiB, GiB, TiB (×1.024), z. B. `act=1,5GiB`."
    ),
    ProblemKind.GPUS_NOT_DIVISIBLE: (
        "{gpus} GPUs lassen sich nicht auf TP · PP · CP · SP = {degrees} = {product} aufteilen "
        "(Rest {remainder}). Passend wären z. B. {fits} GPUs."
    ),
    ProblemKind.DATA_PARALLEL_CONFLICT: (
        "Angegeben ist d = {given}, aus den GPUs folgt aber d = {gpus} / ({degrees}) = {derived}. "
        "Gib nur eins von beiden an."
    ),
    ProblemKind.TARGET_CONFLICT: (
        "{formula} = {factors} = {product}, vorgegeben ist aber {symbol} = {target}. "
        "Lass einen der Werte b, d, a weg, dann rechne ich ihn passend aus."
    ),
    ProblemKind.NEEDS_SEQ_LEN: "Dafür brauche ich die Sequenzlänge, z. B. `L=4096` oder als vierten Wert.",
    ProblemKind.TWO_TARGETS: "`B=` und `T=` lassen sich nicht kombinieren: Gib nur ein Ziel vor.",
    ProblemKind.SOLVED_OUT_OF_RANGE: (
        "{reason} wäre {symbol} = {value} nötig, mehr als die Obergrenze {bound}.{tokens_meant}"
    ),
    ProblemKind.LR_WITHOUT_COMPARISON: (
        "`lr=` skaliere ich nur im Vergleich zweier Setups, z. B. `{command} 8 64 4 4096 vs d=512 lr=3e-4`."
    ),
    ProblemKind.TOO_MANY_COMPARISONS: (
        "Nur ein `vs` je Befehl: Ich vergleiche zwei Setups, z. B. `{command} 8 64 4 vs d=128`."
    ),
    ProblemKind.EMPTY_SIDE: "Vor und nach `vs` muss je ein Setup stehen, z. B. `{command} 8 64 4 4096 vs d=512`.",
    ProblemKind.UNKNOWN_RUN: (
        "{text} kenne ich nicht als veröffentlichten Lauf.{suggestions} Alle Läufe: `{command} läufe`."
    ),
    ProblemKind.RUN_WITH_VALUES: (
        "Nach einem veröffentlichten Lauf wie {text} nehme ich nur noch `lr=`: Seine Batch-Größe steht fest. "
        "Beispiel: `{command} 8 64 4 4096 vs llama2-7b lr=3e-4`."
    ),
    ProblemKind.NOT_EXACT_IN_COMPARISON: (
        "Diese Seite geht nicht in ganzen Zahlen auf. Rechne sie erst einzeln und übernimm einen der "
        "vorgeschlagenen Werte."
    ),
    ProblemKind.ROLLOUT_INCOMPLETE: (
        "Für einen Rollout {verb} noch {missing}. Nötig sind Prompts je Rollout, Antworten je Prompt und der "
        "Mini-Batch in Prompts, z. B. `{command} prompts=512 n=8 mini=128 b=4 gpus=64`."
    ),
    ProblemKind.MINI_ABOVE_ROLLOUT: (
        "Der Mini-Batch von {mini} Prompts ist größer als der Rollout mit {prompts} Prompts; verl bricht so ab "
        "(train_batch_size must be >= ppo_mini_batch_size). Passend wäre z. B. `mini={below}`."
    ),
    ProblemKind.MINI_NOT_DIVIDING: (
        "Die {prompts} Prompts je Rollout lassen sich nicht in Mini-Batches zu {mini} Prompts teilen: Der letzte wäre "
        "kleiner und trotzdem ein eigener Optimierer-Schritt. Passend wäre z. B. {fits}."
    ),
    ProblemKind.ROLLOUT_NOT_DIVISIBLE: (
        "Ein Mini-Batch hat mini · n = {mini} × {samples} = {sequences} Sequenzen; die lassen sich nicht auf "
        "b · d = {micro} × {data_parallel} aufteilen, a wäre keine ganze Zahl. Passend wäre z. B. {fits}."
    ),
    ProblemKind.ROLLOUT_CONFLICT: (
        "Die Werte ergeben b · d · a = {micro} × {data_parallel} × {accumulation} = {product}, ein Mini-Batch hat "
        "aber mini · n = {mini} × {samples} = {sequences} Sequenzen. Lass a weg, dann rechne ich es passend aus."
    ),
    ProblemKind.UNKNOWN_WORD: "{text} kenne ich nicht – meintest du `{meant}`?",
    ProblemKind.GUIDANCE_INCOMPLETE: (
        "Für die Einordnung nach Step Law und DeepSeek brauche ich Modellgröße und Trainingslänge; es {verb} noch "
        "{missing}, z. B. `{command} params=7B budget=2T L=4096`. Für eine Rechnung gib b, d und a an, "
        "z. B. `{command} 8 64 4 4096`."
    ),
    ProblemKind.ROLLOUT_WITH_TARGET: (
        "Bei einem Rollout legt der Mini-Batch die Batch-Größe fest (B = mini · n); ein Ziel `B=` oder `T=` lässt "
        "sich damit nicht kombinieren. Lass das Ziel weg."
    ),
    # the memory and time keys
    ProblemKind.UNKNOWN_CHOICE: "{text} kenne ich hier nicht. Möglich: {allowed}.",
    ProblemKind.UNKNOWN_MODEL: (
        "Das Modell {text} kenne ich nicht.{suggestions} Alle Modelle: `{command} hilfe speicher`; ein anderes "
        "beschreibst du mit seiner Form: `layers= hidden= heads= ffn= vocab=`."
    ),
    ProblemKind.SHAPE_INCOMPLETE: (
        "Für die Form des Modells {verb} noch {missing}. Nötig sind `layers=`, `hidden=`, `heads=`, `ffn=` und "
        "`vocab=` – oder ein Modellname wie `modell=llama3.1-8b`."
    ),
    ProblemKind.MOE_INCOMPLETE: "Für ein MoE-Modell mit `experts=` {verb} noch {missing}.",
    ProblemKind.RULES_NEED_SHAPE: (
        "`regeln={rules}` rechnet mit der Form des Modells: Nenn ein Modell (`modell=llama3.1-8b`) oder seine "
        "Form statt nur `params=`."
    ),
    ProblemKind.DEEPSPEED_NEEDS_ZERO: (
        "`regeln=deepspeed` kennt nur ZeRO-2 und ZeRO-3 (estimate_zero2/3_model_states_mem_needs): Gib `zero=2` "
        "oder `zero=3` an."
    ),
    ProblemKind.OFFLOAD_PARAMS_NEEDS_ZERO3: (
        "Parameter lagert nur ZeRO-3 aus: `offload=params` braucht `zero=3`; mit ZeRO {zero} geht `offload=optimizer`."
    ),
    ProblemKind.TIME_KEYS_CONFLICT: "Gib nur eins von {keys} an – aus einem folgen die anderen.",
    ProblemKind.TIME_NEEDS_PEAK: (
        "Für die Zeit brauche ich die Spitzenleistung der GPU: `gpu=h100` oder `peak=989T` (TFLOP/s, BF16, dense)."
    ),
    ProblemKind.STEP_TIME_NEEDS_TOKENS: (
        "Aus der Zeit je Schritt folgt die MFU nur mit den Tokens je Schritt: Gib b, d, a und L an – oder "
        "`tokens_per_second=` statt `step_time=`."
    ),
    ProblemKind.PIPELINE_ABOVE_LAYERS: (
        "`pp={pp}` Pipeline-Stufen, aber das Modell hat nur {layers} Schichten: Jede Stufe braucht mindestens eine. "
        "Wähle `pp=` höchstens {layers}."
    ),
    ProblemKind.LAYERS_NOT_DIVISIBLE: (
        "`vpp={vpp}` teilt die {layers} Schichten nicht: Bei `pp={pp}` bekäme jede der PP · vpp = {product} "
        "virtuellen Stufen gleich viele Schichten, dafür muss {layers} ein Vielfaches von {product} sein."
    ),
    ProblemKind.TOPK_ABOVE_EXPERTS: (
        "`topk={topk}` wählt mehr Experten je Token aus, als es gibt: Das Modell hat {experts} Experten."
    ),
    ProblemKind.EP_NOT_DIVIDING: (
        "`ep={ep}` verteilt die {experts} Experten nicht gleichmäßig: Expert-Parallelität braucht einen Teiler der "
        "Expertenzahl."
    ),
    ProblemKind.ETP_NOT_DIVIDING: (
        "`etp={etp}` passt nicht zu den GPUs: Megatron-LM legt die Experten auf ein Gitter aus etp · ep = {product} "
        "GPUs je Pipeline-Stufe, das muss die {per_stage} GPUs einer Stufe ({gpus} GPUs bei `pp={pp}`) teilen. "
        "Wähle etp und ep so, dass etp · ep ein Teiler von {per_stage} ist."
    ),
    ProblemKind.KV_HEADS_NOT_DIVIDING: (
        "`kv_heads={kv_heads}` passt nicht zu `heads={heads}`: Bei Grouped-Query-Attention teilen sich gleich viele "
        "Query-Köpfe einen KV-Kopf, kv_heads muss also heads teilen."
    ),
    ProblemKind.HEADS_NOT_DIVIDING: (
        "`heads={heads}` teilt die Breite hidden = {hidden} nicht: Jeder Kopf bekommt hidden / heads Kanäle, das "
        "muss eine ganze Zahl sein."
    ),
    ProblemKind.OFFLOAD_NEEDS_ZERO: (
        "ZeRO-Offload gibt es erst ab ZeRO-1: `offload={offload}` braucht `zero=1` oder höher."
    ),
    ProblemKind.MFU_ABOVE_PEAK: (
        "Mit {given} ergäbe sich eine MFU von {mfu}: Mehr als 100 % ihrer Spitzenleistung schafft keine GPU. "
        "Stimmen die Einheit (`s`, `ms`, `min`; Tokens je Sekunde mit `k` oder `M`), die Zahl der GPUs und die GPU?"
    ),
    ProblemKind.SCALING_INCOMPLETE: (
        "Für die Skalierung rechne ich die Schrittzeit eines Aufbaus für d = 1, 2, 4, … durch; dafür {verb} noch "
        "{missing}, z. B. `{command} llama3.1-8b b=2 gpus=64 B=512 L=8k gpu=h100 skalierung`."
    ),
}

#: The step time or throughput an impossible MFU came from, as ``MFU_ABOVE_PEAK`` names it.
TIME_GIVEN: Mapping[str, str] = {
    "step_time": "{value} s je Schritt",
    "tokens_per_second": "{value} Tokens je Sekunde",
}

#: Problems of a text that was understood but is incomplete, and of one that contradicts itself (or a bound).
NOT_ALLOWED_KINDS = frozenset(
    {ProblemKind.NOT_POSITIVE, ProblemKind.NOT_WHOLE, ProblemKind.THOUSANDS_COMMA, ProblemKind.TOO_LARGE}
)
INCOMPLETE_KINDS = frozenset(
    {
        ProblemKind.MISSING_VALUES,
        ProblemKind.NOT_ENOUGH_FACTORS,
        ProblemKind.NEEDS_SEQ_LEN,
        ProblemKind.EMPTY_SIDE,
        ProblemKind.ROLLOUT_INCOMPLETE,
        ProblemKind.GUIDANCE_INCOMPLETE,
        ProblemKind.SHAPE_INCOMPLETE,
        ProblemKind.MOE_INCOMPLETE,
        ProblemKind.RULES_NEED_SHAPE,
        ProblemKind.TIME_NEEDS_PEAK,
        ProblemKind.STEP_TIME_NEEDS_TOKENS,
        ProblemKind.SCALING_INCOMPLETE,
    }
)
CONFLICT_KINDS = frozenset(
    {
        ProblemKind.DUPLICATE,
        ProblemKind.GPUS_NOT_DIVISIBLE,
        ProblemKind.DATA_PARALLEL_CONFLICT,
        ProblemKind.TARGET_CONFLICT,
        ProblemKind.TWO_TARGETS,
        ProblemKind.SOLVED_OUT_OF_RANGE,
        ProblemKind.NOT_EXACT_IN_COMPARISON,
        ProblemKind.LR_WITHOUT_COMPARISON,
        ProblemKind.TOO_MANY_COMPARISONS,
        ProblemKind.MINI_ABOVE_ROLLOUT,
        ProblemKind.MINI_NOT_DIVIDING,
        ProblemKind.ROLLOUT_NOT_DIVISIBLE,
        ProblemKind.ROLLOUT_WITH_TARGET,
        ProblemKind.ROLLOUT_CONFLICT,
        ProblemKind.DEEPSPEED_NEEDS_ZERO,
        ProblemKind.OFFLOAD_PARAMS_NEEDS_ZERO3,
        ProblemKind.TIME_KEYS_CONFLICT,
        ProblemKind.PIPELINE_ABOVE_LAYERS,
        ProblemKind.LAYERS_NOT_DIVISIBLE,
        ProblemKind.TOPK_ABOVE_EXPERTS,
        ProblemKind.EP_NOT_DIVIDING,
        ProblemKind.ETP_NOT_DIVIDING,
        ProblemKind.KV_HEADS_NOT_DIVIDING,
        ProblemKind.HEADS_NOT_DIVIDING,
        ProblemKind.OFFLOAD_NEEDS_ZERO,
        ProblemKind.MFU_ABOVE_PEAK,
    }
)


def verb(count: int, singular: str, plural: str) -> str:
    """The verb agreeing with ``count`` subjects: 'fehlt' or 'fehlen'."""
    return singular if count == 1 else plural


#: Keys a suggestion names with what they mean: `batch=` is b or B, never the RL mini-batch.
_SUGGESTION_NAMES: Mapping[str, str] = {"b": "Micro-Batch je Gerät", "B": "Ziel-Batch-Größe"}


def did_you_mean(keys: Sequence[str]) -> str:
    """' Meintest du `seq=`, `len=` oder `l=`?', `b=` and `B=` with their names; nothing without suggestions."""
    shown = [f"`{key}=`" + (f" ({_SUGGESTION_NAMES[key]})" if key in _SUGGESTION_NAMES else "") for key in keys]
    return f" Meintest du {list_de(shown, 'oder')}?" if keys else ""


def did_you_mean_run(names: Sequence[str]) -> str:
    """' Meintest du `llama2-7b`, `llama2-70b` oder `llama2-34b`?', or nothing without suggestions."""
    return f" Meintest du {list_de([f'`{name}`' for name in names], 'oder')}?" if names else ""


def either(values: Sequence[str]) -> str:
    """'96 oder 104'."""
    return list_de(values, "oder")
