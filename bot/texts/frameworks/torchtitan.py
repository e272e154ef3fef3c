"""torchtitan: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("torchtitan", "torchtitan", "von torchtitan")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "eine TOML mit `[training]` und `[parallelism]` oder `[job]`, oder `TrainingConfig(…)` in einer Registry"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "torchtitan/parallel-dims": (
        "torchtitan bricht ab: replicate · shard · CP · TP · PP ergibt nicht die Zahl der GPUs."
    ),
    "torchtitan/global-batch-size-divisible": (
        "torchtitan bricht ab: global_batch_size ist kein Vielfaches von local_batch_size · d."
    ),
    "torchtitan/tokens-per-step-divisible": (
        "torchtitan bricht ab: num_tokens_per_train_step ist kein Vielfaches der Tokens eines Akkumulationsschritts."
    ),
    "torchtitan/batch-size-is-local": (
        "training.batch_size ist die ältere Schreibweise für local_batch_size = {local}, ohne Akkumulation."
    ),
    "torchtitan/first-config-of-registry": (
        "Die Datei definiert {count} Konfigurationen; gelesen habe ich die erste, {function}(). Für eine "
        "andere füge nur deren Funktion ein."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "torchtitan/accumulation": "a = T / (Tokens je Micro-Batch · PP-Micro-Batches · d) = {0} / ({1} · {2} · {3}) = {r}",
}
