"""NeMo: its name, its findings (one row per rule code) and its own formulas, in German."""

from bot.texts.frameworks import Name

NAME = Name("NeMo", "NeMo", "von NeMo")

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "nemo/global-batch-size-divisible": (
        "NeMo bricht ab: model.global_batch_size = {gbs} ist kein Vielfaches von b · d = {divisor}."
    ),
    "nemo/world-size-divisible": "NeMo bricht ab: TP · PP · CP = {total} teilt die {world} GPUs nicht.",
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {}
