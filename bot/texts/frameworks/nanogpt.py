"""nanoGPT: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("nanoGPT", "nanoGPT", "von nanoGPT")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "eine Konfiguration, die nur die globalen Namen von nanoGPTs `train.py` setzt, ein `train.py`, das "
    "`configurator.py` ausführt, oder `train.py config/…` in einer Startzeile"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "nanogpt/accumulation-is-global": (
        "gradient_accumulation_steps ist bei nanoGPT global: train.py teilt {configured} durch {world} GPUs, "
        "je GPU also a = {per_gpu} Akkumulationsschritte."
    ),
    "nanogpt/train-py-assertion": "train.py bricht ab: Die Bedingung `{condition}` (Zeile {line}) gilt nicht.",
    "nanogpt/accumulation-divisible": (
        "train.py bricht ab: gradient_accumulation_steps = {accumulation} ist nicht durch {world} GPUs teilbar."
    ),
    "nanogpt/train-py-defaults": "Nicht gesetzt, also die Vorgaben aus train.py: {defaults}.",
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "nanogpt/accumulation": "a = gradient_accumulation_steps / GPUs = {0} / {1} = {r}",
}
