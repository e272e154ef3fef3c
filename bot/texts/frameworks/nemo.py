"""NeMo: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("NeMo", "NeMo", "von NeMo")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "eine NeMo-YAML mit `trainer`- und `model`-Abschnitt und Megatrons Batch-Schlüsseln "
    "(`micro_batch_size`, `global_batch_size`)"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "nemo/global-batch-size-divisible": (
        "NeMo bricht ab: model.global_batch_size = {gbs} ist kein Vielfaches von b · d = {divisor}."
    ),
    "nemo/world-size-divisible": "NeMo bricht ab: TP · PP · CP = {total} teilt die {world} GPUs nicht.",
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {}
