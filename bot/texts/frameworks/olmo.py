"""OLMo: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("OLMo", "OLMo", "von OLMo")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "OLMos eigene Schlüssel `global_train_batch_size` oder `device_train_microbatch_size`"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "olmo/floored": (
        "OLMo rundet stillschweigend ab: global_train_batch_size {configured} // {world} GPUs, trainiert also"
        " mit B = {real} statt {configured}."
    ),
    "olmo/nothing-per-device": (
        "OLMo bricht ab: global_train_batch_size {configured} // {world} GPUs ergibt 0 Sequenzen je Gerät."
    ),
    "olmo/uneven-microbatches": (
        "Je Gerät {device} Sequenzen in Micro-Batches zu {micro}: {full} volle und einer mit nur {rest} "
        "Sequenzen; eine feste Zahl a gibt es so nicht."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "olmo/device": "je Gerät = global_train_batch_size // GPUs = {0} // {1} = {r}",
    "olmo/microbatches": "Micro-Batches je Gerät = ⌈je Gerät / b⌉ = ⌈{0} / {1}⌉ = {r}",
    "olmo/batch": "B = je Gerät · GPUs = {0} × {1} = {r}",
}
