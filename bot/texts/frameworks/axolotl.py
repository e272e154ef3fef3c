"""axolotl: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("axolotl", "axolotl", "von axolotl")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "eine YAML mit `micro_batch_size` neben axolotls eigenen Schlüsseln (`base_model`, `datasets` …)"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "axolotl/two-of-three": (
        "axolotl bricht ab: Zwei von micro_batch_size, gradient_accumulation_steps und batch_size müssen gesetzt sein."
    ),
    "axolotl/only-one-of-accumulation-and-batch-size": (
        "axolotl bricht ab: gradient_accumulation_steps und batch_size lassen sich nicht kombinieren."
    ),
    "axolotl/floored": (
        "axolotl rundet stillschweigend ab: batch_size {batch_size} // micro_batch_size {micro} = "
        "{accumulation}, je Gerät also {real} statt {batch_size} Sequenzen."
    ),
    "axolotl/batch-size-ignored": (
        "batch_size = {batch_size} ändert nichts an der Batch-Größe: Das Schema setzt gradient_accumulation_steps "
        "auf 1, je Gerät also nur micro_batch_size = {micro} Sequenzen; batch_size ändert nur die Zahl der "
        "Schritte."
    ),
    "axolotl/parallel-world-size": "axolotl teilt die GPUs durch CP = {cp} und TP = {tp}.",
    "axolotl/parallelism-incompatible": (
        "axolotl bricht ab: Die Parallelitätsgrade (Produkt {total}) passen nicht zu {world} GPUs."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "axolotl/accumulation": "a = batch_size // micro_batch_size = {0} // {1} = {r}",
}
