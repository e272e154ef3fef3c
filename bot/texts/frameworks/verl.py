"""verl: its name, its findings (one row per rule code) and its own formulas, in German."""

from bot.texts.frameworks import Name

NAME = Name("verl", "verl", "von verl")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "`verl.trainer.main_ppo` in einer Startzeile oder eine YAML mit `actor_rollout_ref` neben `data`"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "verl/micro-batch-missing": (
        "verl bricht ab: Ohne dynamische Batch-Größe braucht es ppo_micro_batch_size_per_gpu (Sequenzen je GPU und"
        " Micro-Schritt)."
    ),
    "verl/micro-batch-both": (
        "verl bricht ab: ppo_micro_batch_size (veraltet, global) und ppo_micro_batch_size_per_gpu sind beide"
        " gesetzt; streiche ppo_micro_batch_size."
    ),
    "verl/model-parallel-divisible": (
        "verl bricht ab: {gpus} GPUs lassen sich nicht durch TP · PP = {model_parallel} mal CP = {cp} teilen."
    ),
    "verl/real-train-batch-divisible": (
        "verl bricht ab: Die {sequences} Sequenzen eines Rollouts (P · n) sind kein Vielfaches von {minimal}."
    ),
    "verl/train-batch-below-mini-batch": (
        "verl bricht ab: data.train_batch_size {prompts} ist kleiner als ppo_mini_batch_size {mini}; beide zählen"
        " Prompts."
    ),
    "verl/global-micro-batch-divisible": (
        "verl bricht ab: ppo_mini_batch_size {mini} ist kein Vielfaches des veralteten ppo_micro_batch_size {micro}."
    ),
    "verl/global-micro-batch-too-small": (
        "verl bricht ab: Das veraltete ppo_micro_batch_size {micro} mal Ulysses-SP {sp} ist kleiner als die {gpus}"
        " GPUs."
    ),
    "verl/sequence-parallel-remove-padding": (
        "verl bricht ab: Ulysses-Sequenz-Parallelität braucht actor_rollout_ref.model.use_remove_padding=True."
    ),
    "verl/mini-batch-zero": (
        "verl bricht ab: ppo_mini_batch_size {mini} · n {samples} // {data_parallel} datenparallele GPUs ergibt 0"
        " Sequenzen je GPU."
    ),
    "verl/mini-batch-micro-batch-divisible": (
        "verl bricht ab: Der Mini-Batch je GPU ({normalized} Sequenzen = ppo_mini_batch_size · n / d) ist kein"
        " Vielfaches von ppo_micro_batch_size_per_gpu {micro}."
    ),
    "verl/equal-chunks": (
        "verl bricht im ersten Schritt ab: {sequences} Sequenzen lassen sich nicht gleich auf {data_parallel}"
        " datenparallele GPUs verteilen."
    ),
    "verl/token-bound-below-length": (
        "verl bricht im ersten Schritt ab: Ein Micro-Batch darf höchstens {bound} Tokens haben, eine Sequenz ist"
        " aber bis zu {length} Tokens lang (Prompt + Antwort)."
    ),
    "verl/mini-batch-floored": (
        "verl rundet stillschweigend ab: ppo_mini_batch_size · n = {sequences} Sequenzen // {data_parallel} GPUs"
        " = {per_gpu} je GPU, ein Optimierer-Schritt nimmt also {real} statt {sequences} Sequenzen."
    ),
    "verl/short-last-mini-batch": (
        "Je GPU {share} Sequenzen in Mini-Batches zu {per_gpu}: Der letzte hat nur {rest} Sequenzen und ist trotzdem"
        " ein eigener Optimierer-Schritt."
    ),
    "verl/dynamic-batch": (
        "Dynamische Batch-Größe: Micro-Batches werden bis {bound} Tokens je GPU gepackt; b und a stehen daher nicht"
        " fest, B und die Optimierer-Schritte schon."
    ),
    "verl/sequence-parallel-new-key": (
        "fsdp_config.ulysses_sequence_parallel_size = {sp} ist gesetzt, der FSDP-Worker teilt den Mini-Batch aber"
        " nach actor.ulysses_sequence_parallel_size (hier 1); setze den Wert dort."
    ),
    "verl/defaults": "Nicht angegeben, es gilt die Voreinstellung von verl: {settings}.",
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "verl/sequences": "P · n = {0} Prompts × {1} Antworten = {r} Sequenzen je Rollout",
    "verl/normalised-mini": "Mini-Batch je GPU = ppo_mini_batch_size · n // d = {0} × {1} // {2} = {r}",
    "verl/batch": "B = Mini-Batch je GPU · d = {0} × {1} = {r} Sequenzen je Optimierer-Schritt",
    "verl/accumulation": "a = Mini-Batch je GPU / b = {0} / {1} = {r}",
    "verl/optimizer-steps": "k = ⌈Sequenzen je GPU / Mini-Batch je GPU⌉ · Epochen = ⌈{0} / {1}⌉ × {2} = {r}",
    "verl/micro-floored": "b = ppo_micro_batch_size // d = {0} // {1} = {r}",
    "verl/token-bound": "Tokens je Micro-Batch ≤ ppo_max_token_len_per_gpu · SP = {0} × {1} = {r}",
    "verl/length": "L = max_prompt_length + max_response_length = {0} + {1} = {r}",
}
