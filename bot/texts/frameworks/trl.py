"""TRL (SFT and GRPO): its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("TRL", "TRL", "von TRL")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "GRPO- oder SFT-Schlüssel von TRL (`num_generations`, `max_length`, `packing` …), `trl grpo`/`trl "
    "sft` in einer Startzeile oder `GRPOConfig(…)`/`SFTConfig(…)` in einem Skript"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "trl/counts-prompts": (
        "In dieser TRL-Version (vor 0.15.0, #2776) zählt per_device_train_batch_size Prompts: Jeder wird "
        "{generations}-mal erzeugt, also B = {per_device} · {generations} · {world} · {accumulation} = {batch} "
        "Antworten je Optimierer-Schritt."
    ),
    "trl/counted-prompts-before-0-15": (
        "Vor TRL 0.15.0 (#2776) zählte per_device_train_batch_size Prompts statt Antworten: Mit einer solchen Version "
        "wären es B = b · n · d · a = {per_device} × {generations} × {world} × {accumulation} = {batch} Antworten je "
        "Optimierer-Schritt. Gib die Version an (`--framework-version trl==…` oder eine `requirements.txt`)."
    ),
    "trl/generation-batch-divisible": (
        "TRL bricht ab: Die Generierungs-Batch-Größe {generation} ist kein Vielfaches von num_generations"
        " {generations}; jeder Prompt braucht seine volle Gruppe von Antworten."
    ),
    "trl/generation-batch-multiple": (
        "TRL bricht ab: generation_batch_size {generation} ist kein Vielfaches von b · GPUs = {global_batch}"
        " Antworten je Micro-Schritt."
    ),
    "trl/generation-keys-both": (
        "TRL bricht ab: generation_batch_size und steps_per_generation dürfen nicht beide gesetzt sein;"
        " setze nur eins von beiden."
    ),
    "trl/one-generation": (
        "TRL bricht ab: GRPO braucht mindestens 2 Antworten je Prompt für die Advantage-Berechnung "
        "(Gruppenvergleich), hier num_generations = {generations}."
    ),
    "trl/auto-find-batch-size": (
        "TRL bricht ab: auto_find_batch_size würde bei Speichermangel die Batch-Größe halbieren und damit"
        " Prompt-Gruppen zerreißen; setze es auf false und verkleinere per_device_train_batch_size."
    ),
    "trl/max-prompt-length-removed": (
        "max_prompt_length gibt es in GRPOConfig seit Januar 2026 (TRL-PR #4847) nicht mehr; `trl grpo` reicht"
        " den Schlüssel an `accelerate launch` weiter, und das bricht ab. Streiche ihn."
    ),
    "trl/steps-straddle-generations": (
        "steps_per_generation {steps_per_generation} · num_iterations {iterations} ist kein Vielfaches der"
        " Akkumulationsschritte {accumulation}: Optimierer-Schritte reichen über zwei Generierungs-Batches,"
        " TRL warnt nicht."
    ),
    "trl/counts-completions": (
        "per_device_train_batch_size = {per_device} zählt bei GRPO Antworten (Completions), nicht Prompts:"
        " Je Prompt entstehen {generations} Antworten."
    ),
    "trl/sequence-parallel": (
        "TRL bricht ab: GRPO erzeugt die Eingaben erst nach der Generierung und kann sie nicht nach Kontext- oder"
        " Sequenz-Parallelität aufteilen; setze cp_size und sp_size auf 1."
    ),
    "trl/tensor-parallel-counted": (
        "GRPOConfig zählt alle {world} Prozesse mit, auch die Ranks der Tensor-Parallelität (TP = {tp}); die vom "
        "Trainer gemeldete Batch-Größe rechnet aber nur mit {data_parallel} datenparallelen Ranks. Prüfe, welche "
        "Zahl dein Lauf wirklich nutzt."
    ),
    "trl/defaults": "Nicht angegeben, also von TRL voreingestellt: {settings}.",
    "trl/sft-padding-free-without-packing": (
        "TRL bricht ab: padding_free ohne packing setzt max_length nicht durch; schalte packing ein oder setze "
        "max_length auf null."
    ),
    "trl/sft-env-not-a-mapping": "TRL bricht ab: env muss in der YAML ein Mapping sein (VAR: Wert).",
    "trl/sft-accelerate-config-unknown": (
        "TRL bricht ab: accelerate_config „{name}“ ist weder eine Datei noch eine der Konfigurationen, die TRL "
        "mitbringt (single_gpu, multi_gpu, fsdp1, fsdp2, zero1, zero2, zero3)."
    ),
    "trl/sft-accelerate-config": (
        "accelerate_config {name} ist eine der accelerate-Konfigurationen, die TRL mitbringt; damit starten "
        "{processes} Prozesse."
    ),
    "trl/sft-packing": (
        "Mit packing schaltet TRL padding_free ein: Ein Micro-Batch ist eine Zeile aus b Packs zu je bis zu "
        "{max_length} Tokens; B zählt Packs, nicht Beispiele."
    ),
    "trl/sft-key-not-taken": (
        "TRL bricht ab: {argument} ist bei `{pinned}` kein Feld von SFTConfig oder den Argumenten des Skripts (nur in"
        " `{known}`). Streiche es oder schreibe den Namen dieser Version."
    ),
    "trl/sft-key-by-release": (
        "{argument} nimmt TrlParser nur in `{known}`; `{pinned}` lässt auch Versionen ohne es zu, und mit denen"
        " bricht der Start ab. Lege die Versionen fest (`--framework-version trl==…` oder eine `requirements.txt`"
        " neben der Konfiguration)."
    ),
    "trl/sft-unknown-batch-key": (
        "TRL bricht ab: {key} ist kein Feld von SFTConfig; `trl sft` reicht den Schlüssel an `accelerate launch` "
        "weiter, und das kennt ihn nicht. Gemeint ist wohl per_device_train_batch_size."
    ),
    "trl/sft-unknown-keys-in-script": (
        "TRL bricht ab: {keys} reicht nur `trl sft` an accelerate weiter; ein Skript, das die YAML selbst liest "
        "(`accelerate launch sft.py --config`), kennt diese Schlüssel nicht. Gib sie `accelerate launch` als "
        "Optionen mit oder starte mit `trl sft`."
    ),
    "trl/rloo-before-0-22": (
        "In dieser TRL-Version (vor `0.22.0`, #3801) zählt RLOO anders: Je Gerät b · a · num_mini_batches Antworten,"
        " rloo_k = {samples} je Prompt, also P = {prompts} Prompts je Rollout; jeder Mini-Batch ist ein"
        " Optimierer-Schritt (B = {batch} Antworten), {steps} Schritte je Rollout (num_mini_batches · num_ppo_epochs)."
    ),
    "trl/rloo-counted-before-0-22": (
        "Vor TRL `0.22.0` (#3801) rechnete RLOO mit diesen Schlüsseln anders: P = {prompts} Prompts zu je {samples}"
        " Antworten, B = {batch} Antworten je Optimierer-Schritt, {steps} Schritte je Rollout. Gib die Version an"
        " (`--framework-version trl==…` oder eine `requirements.txt`)."
    ),
    "trl/rloo-local-batch-multiple": (
        "TRL bricht ab: b · a · num_mini_batches = {local} Antworten je Gerät sind kein Vielfaches von rloo_k"
        " {samples}; jeder Prompt braucht seine volle Gruppe."
    ),
    "trl/rloo-old-name-removed": (
        "{key} gibt es in RLOOConfig nicht mehr (TRL `0.25.0`, #4301); von `0.22.0` bis `0.24.0` wurde es noch auf"
        " {field} übertragen. Schreibe {field}."
    ),
    "trl/sft-ulysses-position-ids": (
        "DeepSpeed bricht im ersten Schritt ab: Sequenz-Parallelität (ALST/Ulysses, sp_size = {sp}) braucht"
        " position_ids in jedem Batch, und TRLs Collator liefert sie nur ohne Padding (padding_free oder packing mit"
        " packing_strategy bfd); erst ab TRL `1.11.0` (#6812) immer."
    ),
    "trl/sft-ulysses-loss": (
        "TRL bricht ab: Mit Sequenz-Parallelität über DeepSpeed (ALST/Ulysses, sp_size = {sp}) ist der Verlust der"
        " des Modells; loss_type dft und label_smoothing_factor gehen damit nicht."
    ),
    "trl/sft-max-seq-length": (
        "max_seq_length ist der alte Name von max_length: TRL vor 0.20.0 liest ihn noch ({max_length} Tokens), "
        "ab 0.20.0 nicht mehr – dann kürzt SFTConfig jedes Beispiel auf 1.024 Tokens. Schreib max_length."
    ),
    "trl/sft-max-length-default": (
        "max_length ist nicht angegeben: SFTConfig kürzt jedes Beispiel stillschweigend auf {max_length} Tokens."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "trl/generation": "G = b · GPUs · steps_per_generation = {0} × {1} × {2} = {r} Antworten",
    "trl/steps-from-generation": "steps_per_generation = G / (b · GPUs) = {0} / ({1} · {2}) = {r}",
    "trl/prompts": "P = G / n = {0} / {1} = {r} Prompts je Generierungs-Batch",
    "trl/prompt-batch": "B = b · n · GPUs · a = {0} × {1} × {2} × {3} = {r} Antworten",
    "trl/optimizer-steps": "s = steps_per_generation · num_iterations / a = {0} × {1} / {2} = {r}",
}
