"""OpenRLHF: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("OpenRLHF", "OpenRLHF", "von OpenRLHF")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = "`openrlhf.cli.train_ppo_ray` in einer Startzeile oder dessen Rollout-Flags"

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "openrlhf/flag-spellings-mixed": (
        "OpenRLHF bricht ab: Die Flags wurden im April 2026 umbenannt (`--rollout.batch_size` statt"
        " `--rollout_batch_size`), die alten Namen kennt es nicht mehr: {flags}. Schreibe alle in der neuen Form."
    ),
    "openrlhf/sample-batches-below-processes": (
        "OpenRLHF bricht ab: P · n // Rollout-Micro-Batch = {batches} Sample-Batches sind weniger als die {processes}"
        " datenparallelen Actor-Prozesse."
    ),
    "openrlhf/estimator-needs-samples": (
        "OpenRLHF bricht ab: Der Schätzer {estimator} vergleicht die Antworten eines Prompts und braucht mehr als"
        " eine Antwort je Prompt."
    ),
    "openrlhf/deepspeed-batch-assertion": (
        "DeepSpeed bricht ab: train.batch_size · Ring · TP = {train} ist kein Vielfaches von b · GPUs = {micro} ×"
        " {world}."
    ),
    "openrlhf/steps-floored": (
        "Die {sequences} Sequenzen eines Rollouts sind kein Vielfaches von train.batch_size {train}: OpenRLHF zählt"
        " {steps} Optimierer-Schritte je Rollout, der Rest rutscht in den nächsten Rollout."
    ),
    "openrlhf/drop-last": (
        "Je GPU {share} Sequenzen in Micro-Batches zu {micro}: Die letzten {dropped} fallen in jeder Epoche weg"
        " (drop_last)."
    ),
    "openrlhf/dynamic-batch": (
        "Dynamische Batch-Größe: Micro-Batches werden bis {bound} Tokens je GPU gepackt; b und a stehen daher nicht"
        " fest, B und die Optimierer-Schritte schon."
    ),
    "openrlhf/defaults": "Nicht angegeben, also von OpenRLHF voreingestellt: {settings}.",
    "openrlhf/generate-batch-without-async": (
        "OpenRLHF bricht ab: vLLM soll {generate} Prompts je Durchgang erzeugen, ein Rollout nimmt aber nur"
        " {prompts}; das Überschüssige puffert nur das asynchrone Training (`--train.async_enable`)."
    ),
    "openrlhf/unrecognized-arguments": (
        "OpenRLHF bricht beim Lesen der Optionen ab: Die Wörter {words} nimmt keine Option auf – meist ein Wert mit"
        " Leerzeichen, den die Shell ohne Anführungszeichen in mehrere Wörter zerlegt. Setze solche Werte in"
        ' Anführungszeichen (`"$VAR"`).'
    ),
    "openrlhf/packing": (
        "Mit packing_samples legt OpenRLHF die {micro} Samples eines Micro-Batches ohne Padding hintereinander: b und B"
        " zählen weiter Samples, ein Micro-Batch hält nur deren echte Tokens."
    ),
    "openrlhf/packing-needs-vllm": (
        "OpenRLHF bricht ab: packing_samples (auch erzwungen durch Ring-Attention oder die dynamische Batch-Größe)"
        " geht nur mit vLLM; gib mit {flag} die Zahl der vLLM-Engines an."
    ),
    "openrlhf/model-parallel-above-gpus": (
        "OpenRLHF bricht ab: Ring-Attention {ring} × Tensor-Parallelität {tp} braucht mindestens {ring} × {tp} GPUs "
        "für ein Datenreplikat, der Actor hat aber nur {gpus}; sein Device-Mesh (GPUs // {ring} // {tp}, {ring}, "
        "{tp}) hätte 0 Replikate."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "openrlhf/data-parallel": "d = GPUs // Ring // TP = {0} // {1} // {2} = {r}",
    "openrlhf/sequences": "P · n = {0} Prompts × {1} Antworten = {r} Sequenzen je Rollout",
    "openrlhf/accumulation": "a = train.batch_size · Ring · TP // b // GPUs = {0} // {1} // {2} = {r}",
    "openrlhf/optimizer-steps": "s = P · n // train.batch_size · Epochen = {0} × {1} // {2} × {3} = {r}",
    "openrlhf/length": "L = prompt_max_len + generate_max_len = {0} + {1} = {r}",
}
