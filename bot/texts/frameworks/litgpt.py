"""LitGPT: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("LitGPT", "LitGPT", "von LitGPT")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "eine Startzeile `litgpt pretrain|finetune` oder einen `train`-Abschnitt mit LitGPTs Batch-Schlüsseln"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "litgpt/per-device-floored": (
        "LitGPT rundet stillschweigend ab: global_batch_size {configured} // {world} GPUs = {per_device} "
        "Sequenzen je Gerät; der Rest fällt weg."
    ),
    "litgpt/accumulation-floored": (
        "LitGPT rundet stillschweigend ab: {per_device} Sequenzen je Gerät // micro_batch_size {micro} = "
        "{accumulation} Akkumulationsschritte, je Gerät also nur {real} Sequenzen je Optimierer-Schritt."
    ),
    "litgpt/nothing-per-device": (
        "LitGPT bricht ab: global_batch_size {configured} // {world} GPUs ergibt 0 Sequenzen je Gerät "
        "(ein AssertionError ohne Text)."
    ),
    "litgpt/micro-batch-larger-than-per-device": (
        "LitGPT bricht ab: micro_batch_size {micro} ist größer als die {per_device} Sequenzen je Gerät, es gäbe "
        "0 Akkumulationsschritte (ein AssertionError ohne Text)."
    ),
    "litgpt/nodes-above-world": (
        "Lightning bricht ab: num_nodes = {nodes} Maschinen, aber nur {world} Prozesse – jede Maschine startet "
        "mindestens einen, und Lightning verlangt devices · num_nodes = Anzahl der Prozesse."
    ),
    "litgpt/per-machine-in-old-versions": (
        "In LitGPT-Versionen vor März 2025 (vor PR #1947) galt global_batch_size je Maschine: Auf {nodes} Knoten "
        "hätte dieselbe Datei mit B = {old} trainiert. Seitdem teilt LitGPT durch alle GPUs."
    ),
    "litgpt/devices-auto": (
        "devices: auto – LitGPT nimmt alle GPUs der Maschine, auf der du startest; die Batch-Größe hängt also "
        "von der Maschine ab. Gerechnet habe ich mit der angegebenen GPU-Zahl {world}."
    ),
    "litgpt/pretrain-requires": "LitGPT bricht ab: litgpt pretrain braucht {key}, hier steht null.",
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "litgpt/per-device": "je Gerät = global_batch_size // GPUs = {0} // {1} = {r}",
    "litgpt/accumulation": "a = je Gerät // micro_batch_size = {0} // {1} = {r}",
}
