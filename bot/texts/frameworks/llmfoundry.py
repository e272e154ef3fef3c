"""llm-foundry: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("llm-foundry", "llm-foundry", "von llm-foundry")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "eine Trainings-YAML mit `global_train_batch_size` neben llm-foundrys eigenen Schlüsseln "
    "(`train_loader`, `max_seq_len` …)"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "llmfoundry/global-batch-size-divisible": (
        "llm-foundry bricht ab: global_train_batch_size {configured} lässt sich nicht ohne Rest auf {world} GPUs "
        "verteilen."
    ),
    "llmfoundry/missing-batch-key": (
        "llm-foundry bricht ab: {key} fehlt. llm-foundry liest den Schlüssel direkt aus der YAML, bevor ein "
        "Standardwert greift; setze ihn ausdrücklich."
    ),
    "llmfoundry/microbatch-reduced": (
        "device_train_microbatch_size {micro} ist größer als die {device} Sequenzen je Gerät; llm-foundry "
        "verkleinert den Micro-Batch auf {device}. Die Batch-Größe bleibt."
    ),
    "llmfoundry/uneven-microbatches": (
        "Je Gerät {device} Sequenzen in Micro-Batches zu {micro}: {full} volle und einer mit nur {rest} "
        "Sequenzen; eine feste Zahl a gibt es so nicht."
    ),
    "llmfoundry/auto-microbatch": (
        "device_train_microbatch_size: auto – Composer beginnt mit allen {device} Sequenzen je Gerät und halbiert "
        "den Micro-Batch bei jedem Speicherüberlauf; b und a stehen erst zur Laufzeit fest, B bleibt."
    ),
    "llmfoundry/replication": (
        "train_loader.dataset.replication = {replication}: Je {replication} GPUs bekommen dieselben Sequenzen, "
        "trainiert wird also mit B = {real} verschiedenen Sequenzen statt {configured}."
    ),
    "llmfoundry/replication-divides-world": (
        "llm-foundry bricht ab: {world} GPUs lassen sich nicht in Gruppen zu replication = {replication} "
        "teilen; der Sampler von PyTorch lehnt den letzten Rang ab."
    ),
    "llmfoundry/tensor-parallel-keeps-batch": (
        "Tensor-Parallelität (TP = {tp}) verkleinert die Batch-Größe bei llm-foundry nicht: Jeder TP-Rang lädt "
        "eigene Sequenzen, die Strategie sammelt sie ein. Gleiche Daten je TP-Gruppe gibt es nur mit "
        "train_loader.dataset.replication."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "llmfoundry/device": "je Gerät = global_train_batch_size / GPUs = {0} / {1} = {r}",
    "llmfoundry/microbatches": "Micro-Batches je Gerät = ⌈je Gerät / b⌉ = ⌈{0} / {1}⌉ = {r}",
    "llmfoundry/data-parallel": "d = GPUs / replication = {0} / {1} = {r}",
    "llmfoundry/batch": "B = je Gerät · d = {0} × {1} = {r}",
}
