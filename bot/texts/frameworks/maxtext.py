"""MaxText: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("MaxText", "MaxText", "von MaxText")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "eine Startzeile von MaxTexts Trainer oder eine YAML im Stil von `base.yml` (`per_device_batch_size` …)"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "maxtext/mesh": (
        "MaxText bricht ab: Die {kind}-Parallelitätsgrade lassen sich nicht auf {count} Chips aufteilen (bei ICI "
        "die Chips eines Slice, bei DCN die Slices)."
    ),
    "maxtext/floored": (
        "MaxText rundet stillschweigend ab: int({chips} Chips · per_device_batch_size) = {real} "
        "Sequenzen je Micro-Schritt; der Bruchteil einer Sequenz fällt weg."
    ),
    "maxtext/per-device-counts-every-chip": (
        "per_device_batch_size gilt bei MaxText je Chip, auch für die Chips der Tensor-, Pipeline- und "
        "Kontext-Parallelität: Alle {chips} Chips zählen, datenparallel sind aber nur d = {data_parallel}. Jedes "
        "Datenreplikat trägt also mehr als per_device_batch_size Sequenzen."
    ),
    "maxtext/below-one-per-device": (
        "per_device_batch_size ist kleiner als 1: Jeder der {chips} Chips lädt trotzdem eine "
        "Sequenz je Micro-Schritt, trainiert wird nur mit {micro}; der Rest wird gelesen und verworfen."
    ),
    "maxtext/fp8-accumulation": (
        "MaxText bricht ab: FP8-Quantisierung verträgt keine Akkumulation, hier gradient_accumulation_steps = "
        "{accumulation}."
    ),
    "maxtext/vocab-tiling": (
        "MaxText bricht ab: per_device_batch_size · max_target_length muss ohne Rest durch num_vocab_tiling "
        "teilbar sein, also eine ganze Zahl ergeben."
    ),
    "maxtext/pipeline-microbatches": (
        "MaxText bricht ab: Bei {stages} Pipeline-Stufen müssen die {microbatches} Pipeline-Micro-Batches ein "
        "Vielfaches der Stufen sein und die {micro} Sequenzen eines Vorwärtsdurchlaufs ohne Rest teilen."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "maxtext/batch": "B = Chips · per_device_batch_size · a = {0} × {1} × {2} = {r}",
    "maxtext/batch-floored": "B = int(Chips · per_device_batch_size) · a = int({0} · {1}/{2}) × {3} = {r}",
    "maxtext/data-parallel": (
        "d = diloco · data · fsdp · fsdp_transpose · expert (ICI · DCN) = {0} · {1} · {2} · {3} · {4} = {r}"
    ),
}
