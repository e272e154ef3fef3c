"""DeepSpeed: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("DeepSpeed", "DeepSpeed", "von DeepSpeed")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "die eigenen Schlüssel von DeepSpeed (`train_micro_batch_size_per_gpu`, `zero_optimization` …) oder ein JSON "
    "mit `train_batch_size`"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "deepspeed/batch-assertion": (
        "DeepSpeed bricht beim Start ab: train_batch_size = {train} ist nicht b · a · d = {micro} · "
        "{accumulation} · {world} = {product}."
    ),
    "deepspeed/filled-in": "DeepSpeed setzt {key} = {value} durch ganzzahlige Division ({train} // {divisor}).",
    "deepspeed/filled-in-product": "DeepSpeed setzt train_batch_size = b · a · d = {value}.",
    "deepspeed/required-world-size": (
        "Alle drei Werte stehen fest: Diese Konfiguration läuft nur mit {world} GPUs (d = {data_parallel})."
    ),
    "deepspeed/no-world-size-fits": (
        "Mit keiner Zahl von GPUs passt es: train_batch_size = {train} ist kein Vielfaches von b · a = "
        "{micro} · {accumulation} = {step}."
    ),
    "deepspeed/missing-batch-size": (
        "DeepSpeed bricht ab: Es braucht train_batch_size oder train_micro_batch_size_per_gpu."
    ),
    "deepspeed/sequence-parallel": (
        "sequence_parallel_size = {sequence_parallel} (Ulysses): DeepSpeed teilt die {world} GPUs durch "
        "SP = {sequence_parallel}: d = {data_parallel}."
    ),
    "deepspeed/sequence-parallel-world-size": (
        "sequence_parallel_size = {sequence_parallel} teilt die {world} GPUs nicht: DeepSpeed rechnet dann mit "
        "{world} / {sequence_parallel} datenparallelen Geräten, keiner ganzen Zahl, und damit passt keine Batch-Größe."
    ),
    "deepspeed/autotp-counted-as-data-parallel": (
        "AutoTP (autotp_size = {autotp}): DeepSpeed zählt die Ranks der Tensor-Parallelität als datenparallel"
        " und rechnet mit {world} GPUs; dieselben Daten auf {autotp} Ranks ergeben nur {distinct} "
        "verschiedene Sequenzen je Optimierer-Schritt."
    ),
    "deepspeed/world-size-before-launch": (
        "Baut dein Skript die DeepSpeed-Konfiguration, bevor torch.distributed läuft, rechnet DeepSpeed mit 1"
        " GPU statt {world} und bricht ab."
    ),
    "deepspeed/auto-without-trainer": (
        'Den Wert "auto" in {keys} setzt nur der Hugging Face Trainer ein; DeepSpeed allein kann damit nicht '
        "rechnen. Gib die TrainingArguments mit an oder setze Zahlen."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {}
