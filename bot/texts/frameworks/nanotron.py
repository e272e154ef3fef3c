"""Nanotron: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("Nanotron", "Nanotron", "von Nanotron")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "Nanotrons eigenen Schlüssel `tokens.batch_accumulation_per_replica`"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "nanotron/world-size": (
        "Nanotron bricht ab: Die Konfiguration verlangt TP · PP · CP · DP = {total} GPUs, gestartet wird auf {world}."
    ),
    "nanotron/1f1b-microbatches": (
        "Nanotron bricht ab: Die 1F1B-Pipeline mit PP = {pp} braucht mindestens PP − 1 Micro-Batches je Schritt, "
        "batch_accumulation_per_replica ist {accumulation}."
    ),
    "nanotron/heads-divisible-by-tp": (
        "Nanotron bricht ab: Die {heads} Attention-Heads lassen sich nicht auf TP = {tp} verteilen."
    ),
    "nanotron/kv-heads-below-tp": (
        "Nanotron bricht ab: Es gibt nur {heads} KV-Heads, TP = {tp} braucht mindestens so viele."
    ),
    "nanotron/unknown-key": (
        "Nanotron bricht ab: {key} gibt es nicht; Nanotron liest die YAML streng und lehnt unbekannte Schlüssel "
        "ab. Die Batch-Größe ergibt sich aus micro_batch_size · batch_accumulation_per_replica · dp."
    ),
    "nanotron/missing-key": "Nanotron bricht ab: {key} fehlt; einen Standardwert gibt es dafür nicht.",
    "nanotron/expert-parallel": (
        "Nanotron stürzt ab: expert_parallel_size = {ep} verteilt die Ranks auf EP · PP · DP · CP · TP, gestartet "
        "werden aber nur TP · PP · CP · DP Prozesse (numpy: „cannot reshape array“)."
    ),
    "nanotron/context-parallel": (
        "Die {cp} Ranks der Kontext-Parallelität teilen sich dieselben Sequenzen; sie zählen zu den {world} GPUs, "
        "nicht zu d."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "nanotron/world": "GPUs = TP · PP · CP · DP = {0} × {1} × {2} × {3} = {r}",
    "nanotron/dp": "d = parallelism.dp = {r}",
}
