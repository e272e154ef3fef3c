"""torchtune: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("torchtune", "torchtune", "von torchtune")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "eine Rezept-YAML mit `_component_: torchtune.…`, `batch_size` und `gradient_accumulation_steps`"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "torchtune/parallel-dims": (
        "torchtune bricht ab: dp_replicate · dp_shard · TP · CP ergibt {product}, nicht die {world} GPUs."
    ),
    "torchtune/data-parallel-excludes-tp-cp": (
        "Der Docstring des Rezepts rechnet batch_size · GPUs · a = {docstring}. Die Daten verteilt torchtune aber "
        "nur auf d = {data_parallel} datenparallele Ranks: {world} GPUs geteilt durch TP = {tp} und CP = {cp}, "
        "die Ranks einer TP- und CP-Gruppe sehen dieselben Sequenzen. Trainiert wird mit B = {real}."
    ),
    "torchtune/tensor-parallel-plan": (
        "torchtune bricht ab: Mit tensor_parallel_dim über 1 braucht das Rezept einen tensor_parallel_plan."
    ),
    "torchtune/optimizer-in-bwd-accumulation": (
        "torchtune bricht ab: optimizer_in_bwd: True verträgt keine Akkumulation, hier "
        "gradient_accumulation_steps = {accumulation}."
    ),
    "torchtune/packed-without-max-seq-len": (
        "torchtune bricht ab: Mit dataset.packed: True braucht der Tokenizer eine max_seq_len, hier steht null."
    ),
    "torchtune/single-device-recipe-distributed": (
        "torchtune bricht ab: Das Rezept {recipe} läuft nur auf einem Gerät, die Startzeile verlangt aber "
        "torchrun-Prozesse ({world} GPUs). Starte es ohne --nnodes/--nproc_per_node oder nimm das "
        "distributed-Rezept."
    ),
    "torchtune/no-max-seq-len": (
        "tokenizer.max_seq_len ist null: torchtune kürzt die Sequenzen nicht, ihre Länge hängt von den Daten ab; "
        "Tokens je Schritt lassen sich so nicht angeben."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "torchtune/data-parallel": "d = dp_replicate · dp_shard = GPUs / (TP · CP) = {0} / ({1} · {2}) = {r}",
}
