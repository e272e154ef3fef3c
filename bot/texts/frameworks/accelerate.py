"""accelerate: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("accelerate", "accelerate", "von accelerate")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "eine accelerate-Konfiguration (`distributed_type`, `num_processes`) oder ein Skript, das "
    "`Accelerator(…)` aus `accelerate` baut"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "accelerate/num-processes-unset": (
        "accelerate bricht ab: num_processes ist -1; bei {machines} Maschinen musst du --num_processes beim Start "
        "angeben."
    ),
    "accelerate/num-processes-missing": (
        "num_processes fehlt in der accelerate-Konfiguration: accelerate launch bricht ab, "
        "wenn die Startzeile nicht --num_processes angibt (so macht es das SLURM-Beispiel von accelerate). "
        "Nenne mir die Zahl der GPUs, dann rechne ich."
    ),
    "accelerate/processes-floored": (
        "accelerate rundet stillschweigend ab: {processes} Prozesse auf {machines} Maschinen werden "
        "num_processes // num_machines je Maschine, es starten also nur {real} Prozesse."
    ),
    "accelerate/parallelism-total": (
        "accelerate bricht ab: Das Produkt der Parallelitätsgrade ({total}) muss die Zahl der Prozesse ({world}) sein."
    ),
    "accelerate/fsdp-no-shard-dimension": (
        "accelerate bricht ab: FSDP2 braucht dp_shard_size oder cp_size über 1; die {world} Prozesse gehen ganz in "
        "andere Parallelität (Produkt {total})."
    ),
    "accelerate/model-parallel": (
        "Ranks der Tensor-, Kontext- und Sequenz-Parallelität (TP = {tp}, CP = {cp}, SP = {sp}) sehen denselben "
        "Batch: Nur d = {data_parallel} Ranks sind datenparallel."
    ),
    "accelerate/loader-batch": (
        "Die accelerate-Konfiguration enthält keine Batch-Größe: Die Batch-Größe des DataLoaders im Skript (oder "
        "per_device_train_batch_size) zählt je Prozess, also B = Loader-Batch × {data_parallel} × {accumulation} "
        "= {factor} × Loader-Batch."
    ),
    "accelerate/split-batches": (
        "accelerate teilt mit split_batches den Loader-Batch {loader} auf d = {data_parallel} Prozesse auf: Je "
        "Prozess sind es nur {per_process} Sequenzen, der Trainer meldet aber {reported} als Batch-Größe."
    ),
    "accelerate/split-batches-divisible": (
        "accelerate bricht ab: Mit split_batches muss der Loader-Batch {loader} durch die {data_parallel} "
        "datenparallelen Prozesse teilbar sein."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "accelerate/processes": "GPUs = num_processes // num_machines × num_machines = {0} // {1} × {2} = {r}",
    "accelerate/data_parallel": "d = dp_replicate · dp_shard = {0} · {1} = {r}",
    "accelerate/split": "b = Loader-Batch / d = {0} / {1} = {r}",
}
