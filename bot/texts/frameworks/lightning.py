"""PyTorch Lightning: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("Lightning", "Lightning", "von PyTorch Lightning")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "einen `trainer:`-Abschnitt einer LightningCLI-YAML neben `data`/`model` oder ein Skript, das "
    "`Trainer(…)` aus `lightning` oder `pytorch_lightning` baut"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "lightning/strategy-removed": (
        "Lightning bricht ab: Die Strategie „{strategy}“ gibt es seit Lightning 2 nicht mehr; für mehrere GPUs "
        "nimm strategy: ddp (jede GPU bekommt dann den ganzen Batch)."
    ),
    "lightning/scheduler-and-accumulate": (
        "Lightning bricht ab: accumulate_grad_batches und ein GradientAccumulationScheduler lassen sich nicht "
        "kombinieren."
    ),
    "lightning/model-parallel-world-size": (
        "Lightning bricht ab: data_parallel_size {data_parallel} × tensor_parallel_size {tensor_parallel} muss die "
        "Zahl der GPUs ({world}) ergeben."
    ),
    "lightning/model-parallel": (
        "Mit ModelParallelStrategy sind nur d = {data_parallel} der {world} GPUs datenparallel; die "
        "{tensor_parallel} GPUs einer Tensor-Gruppe sehen denselben Batch."
    ),
    "lightning/devices-from-machine": (
        "devices = {devices} nimmt alle GPUs, die der Rechner hat: gerechnet habe ich mit {world} GPUs; auf einem "
        "anderen Rechner ändert sich die Batch-Größe."
    ),
    "lightning/accumulation-schedule": (
        "Ein GradientAccumulationScheduler ändert a je Epoche; B ab Epoche (Epoche: B): {schedule}."
    ),
    "lightning/last-window": (
        "Lightning macht am Ende jeder Epoche einen Optimierer-Schritt, auch wenn weniger als {accumulation} "
        "Batches übrig sind: Der letzte Schritt einer Epoche kann kleiner sein."
    ),
    "lightning/batch-in-datamodule": (
        "Die Batch-Größe steht nicht in der YAML unter data (batch_size), sondern im Code deines DataModules: "
        "B = Batch je GPU × d × a."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "lightning/world": "GPUs = devices × num_nodes = {0} × {1} = {r}",
}
