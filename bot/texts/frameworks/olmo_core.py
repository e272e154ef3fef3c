"""OLMo-core: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("OLMo-core", "OLMo-core", "von OLMo-core")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "ein Python-Skript mit OLMo-cores `rank_microbatch_size` oder `olmo_core` und `global_batch_size`"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "olmo_core/microbatch-multiple-of-length": (
        "OLMo-core bricht ab: rank_microbatch_size zählt Tokens und muss ein Vielfaches von max_sequence_length "
        "sein; {micro} Tokens sind keines von {length}."
    ),
    "olmo_core/degree-divides-world": (
        "OLMo-core bricht ab: {config}(degree={degree}) teilt die verbleibenden {size} GPUs nicht."
    ),
    "olmo_core/data-parallel-required": (
        "OLMo-core bricht ab: Neben tp_config, cp_config, pp_config oder ep_config verlangt es auch einen dp_config."
    ),
    "olmo_core/expert-with-tensor-parallel": (
        "OLMo-core bricht ab: Experten-Parallelität (ep_config) lässt sich nicht mit Tensor-Parallelität "
        "(tp_config) kombinieren."
    ),
    "olmo_core/expert-without-hsdp": (
        "OLMo-core bricht ab: Experten-Parallelität (ep_config) geht nur mit DataParallelType.hsdp."
    ),
    "olmo_core/hsdp-degree": "OLMo-core bricht ab: {setting} = {value} teilt die {size} datenparallelen GPUs nicht.",
    "olmo_core/rank-batch-multiple-of-length": (
        "OLMo-core bricht ab: Je GPU kommen global_batch_size // {data_parallel} = {rank} Tokens an, kein "
        "Vielfaches der Sequenzlänge {length}; zu viele GPUs für diese Batch-Größe."
    ),
    "olmo_core/global-batch-divisible": (
        "OLMo-core bricht ab: global_batch_size {gbs} Tokens ist kein Vielfaches von rank_microbatch_size "
        "{micro} × {data_parallel} datenparallelen GPUs."
    ),
    "olmo_core/global-batch-in-tokens": (
        "global_batch_size zählt bei OLMo-core Tokens, nicht Sequenzen: {gbs} Tokens sind keine ganze Zahl von "
        "Sequenzen zu {length} Tokens."
    ),
    "olmo_core/changed-at-run-time": (
        "Das Skript ändert den Wert beim Start selbst (Zeile {line}: `{statement}`, etwa je nach GPU-Typ oder "
        "GPU-Zahl); gerechnet habe ich mit dem Wert davor."
    ),
    "olmo_core/changed-at-run-time-refused": (
        "Das Skript ändert rank_microbatch_size beim Start selbst (Zeile {line}: `{statement}`, etwa auf "
        "B200-Clustern); gerechnet habe ich mit dem Wert davor. Mit {micro} Tokens bricht OLMo-core auf diesen GPUs "
        "ab: global_batch_size {gbs} ist kein Vielfaches von {micro} × {data_parallel}."
    ),
    "olmo_core/batch-size-schedule-invalid": (
        "OLMo-core bricht ab: Der Plan des BatchSizeSchedulerCallback ist ungültig (Start bei 0, steigende "
        "Zeitpunkte, Batch-Größen nur um ganze Faktoren ändern)."
    ),
    "olmo_core/batch-size-schedule": (
        "Der BatchSizeSchedulerCallback ändert die Batch-Größe während des Laufs in {phases} Stufen und skaliert "
        "dabei die Lernrate jeweils mit √(neu / alt); oben steht die erste Stufe."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "olmo_core/dp": "d = GPUs / (PP · CP · TP) = {0} / ({1} · {2} · {3}) = {r}",
    "olmo_core/sequences": "B = global_batch_size / L = {0} / {1} = {r} Sequenzen",
    "olmo_core/micro": "b = rank_microbatch_size / L = {0} / {1} = {r}",
    "olmo_core/accumulation": "a = global_batch_size / (d · rank_microbatch_size) = {0} / ({1} · {2}) = {r}",
}
