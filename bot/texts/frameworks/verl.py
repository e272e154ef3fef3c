"""verl: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

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
    "verl/sequence-parallel-above-gpus": (
        "verl bricht ab: Ulysses-Sequenz-Parallelität {sp} braucht mindestens {sp} GPUs für ein Datenreplikat, hier "
        "sind es {gpus}; das Device-Mesh (GPUs // {sp}, {sp}) hätte 0 Replikate."
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
    "verl/defaults": "Nicht angegeben, also von verl voreingestellt: {settings}.",
    "verl/normalises-first-before-0-2": (
        "In dieser verl-Version (vor `0.2.0`, #183) wird ppo_mini_batch_size erst durch d geteilt und dann mit n"
        " multipliziert, ppo_micro_batch_size ebenso; so zählt auch der Micro-Batch je GPU n-mal so viele Sequenzen."
    ),
    "verl/normalised-before-0-2": (
        "Vor verl `0.2.0` (#183; so auch in mitgelieferten Kopien von verl `0.1.0` wie in TinyZero oder Logic-RL)"
        " teilte verl ppo_mini_batch_size und ppo_micro_batch_size erst durch d und multiplizierte dann mit n:"
        " Damit wären es {per_gpu} Sequenzen Mini-Batch je GPU, ein Micro-Batch je Gerät von {micro},"
        " B = {batch} und {steps} Optimierer-Schritte je Rollout. Gib die Version an"
        " (`--framework-version verl==0.1.0` oder eine `requirements.txt`)."
    ),
    "verl/mini-batch-zero-before-0-2": (
        "verl (vor `0.2.0`) bricht ab: {mini} // {data_parallel} datenparallele GPUs ergibt 0, noch bevor mit"
        " n = {samples} multipliziert wird."
    ),
    "verl/mini-batch-micro-batch-divisible-before-0-2": (
        "verl (vor `0.2.0`) bricht im ersten Schritt ab: Der Mini-Batch je GPU ({normalized} Sequenzen ="
        " ppo_mini_batch_size // d · n) ist kein Vielfaches des Micro-Batches je GPU ({micro} Sequenzen ="
        " ppo_micro_batch_size // d · n)."
    ),
    "verl/mini-batch-above-rollout": (
        "Der Mini-Batch je GPU ({per_gpu} Sequenzen) ist größer als die {share} Sequenzen, die eine GPU je Rollout"
        " bekommt: Ein Optimierer-Schritt nimmt den ganzen Rollout, B = {batch} statt {intended} Sequenzen, und verl"
        " teilt den Verlust trotzdem durch die volle Zahl der Micro-Schritte eines Mini-Batches – die Gradienten"
        " werden kleiner."
    ),
    "verl/critic-micro-batch-missing": (
        "verl bricht ab: Der Critic (PPO mit GAE) braucht ohne dynamische Batch-Größe"
        " critic.ppo_micro_batch_size_per_gpu."
    ),
    "verl/critic-micro-batch-both": (
        "verl bricht ab: critic.ppo_micro_batch_size (veraltet, global) und critic.ppo_micro_batch_size_per_gpu sind"
        " beide gesetzt; streiche critic.ppo_micro_batch_size."
    ),
    "verl/critic-global-micro-batch-refused": (
        "verl bricht ab: critic.yaml übernimmt das veraltete critic.ppo_micro_batch_size in"
        " critic.ppo_micro_batch_size_per_gpu, und dann gelten beide als gesetzt. Schreibe nur"
        " critic.ppo_micro_batch_size_per_gpu (Sequenzen je GPU)."
    ),
    "verl/critic-train-batch-below-mini-batch": (
        "verl bricht ab: data.train_batch_size {prompts} ist kleiner als critic.ppo_mini_batch_size {mini}; beide"
        " zählen Prompts."
    ),
    "verl/critic-mini-batch-micro-batch-divisible": (
        "verl bricht ab: Der Mini-Batch des Critics je GPU ({normalized} Sequenzen) ist kein Vielfaches von"
        " critic.ppo_micro_batch_size_per_gpu {micro}."
    ),
    "verl/critic-batch": (
        "Der Critic (PPO mit GAE) lernt mit eigenen Mini-Batches: {per_gpu} Sequenzen je GPU auf {data_parallel}"
        " GPUs, B = {batch} Sequenzen je Optimierer-Schritt, {steps} Optimierer-Schritte je Rollout."
    ),
    "verl/dapo-generation-rounds": (
        "DAPO erzeugt je Runde {generated} Prompts (data.gen_batch_size) und behält nur Gruppen, deren Belohnungen"
        " sich unterscheiden, bis {prompts} Prompts beisammen sind – mindestens {rounds} Runden je Schritt;"
        " trainiert wird auf genau {prompts} Prompts × n Antworten."
    ),
    "verl/gen-batch-without-filter": (
        "data.gen_batch_size {generated} ist nicht data.train_batch_size {prompts}: Ohne"
        " algorithm.filter_groups.enable lädt verl je Schritt {generated} Prompts und trainiert auf allen;"
        " data.train_batch_size zählt nur in den Prüfungen vorab."
    ),
    "verl/fewer-gpus-than-written": (
        "verl bricht ab: trainer.nnodes · trainer.n_gpus_per_node verlangt {written} GPUs, gegeben sind {given};"
        " verl fordert bei Ray genau diese GPUs an (ältere Versionen warten endlos darauf)."
    ),
    "verl/more-gpus-than-written": (
        "trainer.nnodes · trainer.n_gpus_per_node verlangt {written} GPUs, gegeben sind {given}: verl nutzt nur"
        " {written}, die übrigen bleiben ungenutzt. Passe trainer.nnodes an."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "verl/sequences": "P · n = {0} Prompts × {1} Antworten = {r} Sequenzen je Rollout",
    "verl/normalised-mini": "Mini-Batch je GPU = ppo_mini_batch_size · n // d = {0} × {1} // {2} = {r}",
    "verl/batch": "B = Mini-Batch je GPU · d = {0} × {1} = {r} Sequenzen je Optimierer-Schritt",
    "verl/accumulation": "a = Mini-Batch je GPU / b = {0} / {1} = {r}",
    "verl/optimizer-steps": "s = ⌈Sequenzen je GPU / Mini-Batch je GPU⌉ · Epochen = ⌈{0} / {1}⌉ × {2} = {r}",
    "verl/micro-floored": "b = ppo_micro_batch_size // d = {0} // {1} = {r}",
    "verl/token-bound": "Tokens je Micro-Batch ≤ ppo_max_token_len_per_gpu · SP = {0} × {1} = {r}",
    "verl/length": "L = max_prompt_length + max_response_length = {0} + {1} = {r}",
    "verl/normalised-mini-before-0-2": "Mini-Batch je GPU = ppo_mini_batch_size // d · n = {0} // {1} × {2} = {r}",
    "verl/normalised-micro-before-0-2": "b = ppo_micro_batch_size // d · n = {0} // {1} × {2} = {r}",
    "verl/critic-normalised-mini": (
        "Mini-Batch des Critics je GPU = critic.ppo_mini_batch_size · n // d = {0} × {1} // {2} = {r}"
    ),
}
