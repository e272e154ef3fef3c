"""LLaMA-Factory: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("LLaMA-Factory", "LLaMA-Factory", "von LLaMA-Factory")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "eine LLaMA-Factory-YAML (`stage` neben `template`, `cutoff_len`, `finetuning_type`) oder eine v1-YAML"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "llamafactory/neat-packing-outside-sft": ("LLaMA-Factory bricht ab: neat_packing gibt es nur für stage: sft."),
    "llamafactory/packing-cutoff": (
        "Mit Packing kürzt LLaMA-Factory cutoff_len um eins: Die Packs sind {real} statt {cutoff} "
        "Tokens lang; B zählt Packs, nicht Beispiele."
    ),
    "llamafactory/pretrain-packs": (
        "Bei stage: pt packt LLaMA-Factory die Beispiele von selbst zu Packs von cutoff_len Tokens: B zählt "
        "Packs, nicht Beispiele."
    ),
    "llamafactory/megatron-bridge-parallel-exceeds": (
        "LLaMA-Factory bricht ab: TP · PP · CP · EP = {parallel} ist größer als die {world} GPUs."
    ),
    "llamafactory/megatron-bridge-parallel-divisible": (
        "LLaMA-Factory bricht ab: TP · PP · CP · EP = {parallel} teilt die {world} GPUs nicht."
    ),
    "llamafactory/megatron-bridge-divides-by-ep": (
        "LLaMA-Factory teilt die globale Batch-Größe für Megatron-Bridge auch durch EP = {expert}, obwohl "
        "Megatron die Ranks der Experten-Parallelität zu d zählt: Statt {accumulation} Akkumulationsschritten "
        "laufen nur {real}."
    ),
    "llamafactory/megatron-bridge-global-batch-divisible": (
        "Megatron bricht ab: LLaMA-Factory hat die globale Batch-Größe durch EP geteilt, und {gbs} ist nicht durch "
        "Micro-Batch × d = {divisor} teilbar. Setze gradient_accumulation_steps auf ein Vielfaches von EP."
    ),
    "llamafactory/megatron-bridge-needs-env": (
        "Diese YAML ist für den Megatron-Bridge-Weg geschrieben: Starte sie mit USE_MEGATRON_BRIDGE=1, sonst "
        "bricht LLaMA-Factory an den unbekannten Schlüsseln ab."
    ),
    "llamafactory/mca-not-read": (
        "Diese YAML gehört zum MCA-Weg (USE_MCA=1): Dort zählt das Paket mcore_adapter die Batch-Größe, und dessen "
        "Regel lese ich nicht. Für den Megatron-Bridge-Weg starte mit USE_MEGATRON_BRIDGE=1."
    ),
    "llamafactory/world-from-machine": (
        "Die Startzeile setzt kein NPROC_PER_NODE: llamafactory-cli startet dann so viele Prozesse, wie der Rechner "
        "GPUs sieht (bei nur einer ohne FORCE_TORCHRUN=1 gar kein torchrun); auf einem anderen Rechner ändert sich "
        "die Batch-Größe."
    ),
    "llamafactory/unknown-keys": (
        "LLaMA-Factory bricht ab: {keys} ist in keiner Version ein Feld seiner Argumente (Modell, Daten, Training,"
        " Finetuning, Generierung) – ein Schlüssel eines anderen Trainers? Streiche ihn."
    ),
    "llamafactory/key-not-taken": (
        "LLaMA-Factory bricht ab: {argument} nimmt sein Parser bei `{pinned}` nicht an (nur in `{known}`). Streiche"
        " es oder schreibe den Namen dieser Version."
    ),
    "llamafactory/key-by-release": (
        "{argument} nimmt der Parser von LLaMA-Factory nur in `{known}`; `{pinned}` lässt auch Versionen ohne es zu,"
        " und mit denen bricht der Start ab. Lege die Versionen fest (`--framework-version` oder eine"
        " `requirements.txt` neben der Konfiguration)."
    ),
    "llamafactory/unused-keys": (
        "LLaMA-Factory bricht ab: Ohne USE_MEGATRON_BRIDGE=1 (oder USE_MCA=1) kennt es die Schlüssel {keys} nicht."
    ),
    "llamafactory/v1-global-batch-divisible": (
        "LLaMA-Factory bricht ab: global_batch_size {gbs} ist nicht durch d × micro_batch_size = {data_parallel} × "
        "{micro} teilbar."
    ),
    "llamafactory/v1-cp-divisible": ("LLaMA-Factory bricht ab: cp_size {parallel} teilt die {world} GPUs nicht."),
    "llamafactory/v1-token-budget": (
        "Mit batching_strategy: {strategy} ist micro_batch_size ein Token-Budget ({budget} Tokens je "
        "Micro-Batch): Die Zahl der Sequenzen je Schritt schwankt, B ist nur eine Obergrenze."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "llamafactory/cutoff": "L = cutoff_len − 1 = {0} − 1 = {r}",
    "llamafactory/bridge_global": (
        "B = max(b · a · GPUs // (TP · PP · CP · EP), b) = max({0} · {1} · {2} // ({3} · {4} · {5} · {6}), {0}) = {r}"
    ),
    "llamafactory/v1_dp": "d = GPUs // cp_size = {0} // {1} = {r}",
}
