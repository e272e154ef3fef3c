"""Megatron-LM: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("Megatron-LM", "Megatron-LM", "von Megatron-LM")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "die eigenen Flags von Megatron-LM (`--micro-batch-size`, `--global-batch-size`, `--tensor-model-parallel-size`) "
    "in einer Startzeile oder einem Skript"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "megatron/world-size-divisible": "Megatron-LM bricht ab: TP · PP · CP = {total} teilt die {world} GPUs nicht.",
    "megatron/global-batch-size-default": (
        "Ohne --global-batch-size setzt Megatron-LM B = b · d = {value} (ein Micro-Batch je Schritt)."
    ),
    "megatron/global-batch-size-divisible": (
        "Megatron-LM bricht ab: B = {gbs} ist kein Vielfaches von b · d = {divisor}."
    ),
    "megatron/sequence-parallel": (
        "--sequence-parallel läuft auf den {tp} Ranks der Tensor-Parallelität mit und teilt d nicht (anders "
        "als DeepSpeed-Ulysses' sequence_parallel_size)."
    ),
    "megatron/sequence-parallel-without-tensor-parallel": (
        "--sequence-parallel ist bei TP = 1 wirkungslos: Megatron-LM schaltet es ab („Disabling sequence "
        "parallelism because tensor model parallelism is disabled“); d bleibt, wie es ist."
    ),
    "megatron/expert-parallel-divisible": "Megatron-LM bricht ab: ETP · EP · PP = {size} teilt die {world} GPUs nicht.",
    "megatron/rampup-batch-size-deprecated": (
        "--rampup-batch-size ist veraltet: Das aktuelle Megatron-LM ignoriert es und trainiert von Anfang an "
        "mit B = {gbs}; ältere Versionen fahren den Plan unten hoch. Nimm --step-batch-size-schedule."
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
        "Megatron-LM bricht ab, sobald der Plan eine Stufe erreicht, deren B kein Vielfaches von b · d = "
        "{divisor} ist (betroffen: {count}; die erste ab {start} Sequenzen mit B = {gbs})."
    ),
    "megatron/num-layers-divisible": (
        "Megatron-LM bricht ab: --num-layers {layers} lässt sich nicht gleichmäßig auf PP = {pp} Stufen verteilen."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {}
