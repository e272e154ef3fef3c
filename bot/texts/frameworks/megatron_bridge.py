"""Megatron-Bridge (and NeMo 2's recipes): its name, its findings (one row per rule code) and formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("Megatron-Bridge", "Megatron-Bridge", "von Megatron-Bridge")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "ein Rezept von Megatron-Bridge oder NeMo 2 (ein Basisrezept wie `_pretrain_common()`, `MockDataModule(…)` oder "
    "ein benutztes `llm.<Modell>.pretrain_recipe(…)`)"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "megatron_bridge/world-size-divisible": (
        "Megatron-Bridge bricht ab: TP · PP · CP = {total} teilt die {world} GPUs nicht."
    ),
    "megatron_bridge/eval-batch-divisible": (
        "Megatron-Bridge bricht ab: Die Batch-Größe der Evaluation ({gbs}, ohne eigenen Wert die des Trainings) ist "
        "kein Vielfaches von Micro-Batch · d = {divisor}."
    ),
    "megatron_bridge/global-batch-size-divisible": (
        "Megatron-Bridge bricht ab: B = {gbs} ist kein Vielfaches von b · d = {divisor}."
    ),
    "megatron_bridge/batch-size-decreased": (
        "Mit decrease_batch_size_if_needed rundet Megatron-Bridge stillschweigend ab: B = {configured} ist kein "
        "Vielfaches von b · d = {divisor}, trainiert wird mit B = {real}."
    ),
    "megatron_bridge/context-parallel-sequence-length": (
        "Megatron-Bridge bricht ab: Mit CP = {cp} muss die Sequenzlänge durch 2 · CP teilbar sein, {seq_len} ist es "
        "nicht."
    ),
    "megatron_bridge/packed-micro-batch": (
        "Megatron-Bridge bricht ab: Gepackte Sequenzen (offline packing, bei SFT und PEFT voreingestellt) verlangen "
        "micro_batch_size 1, hier {micro}. Gleichwertig wäre micro_batch_size 1 mit Packs von {micro} × {packed} "
        "Tokens und B = {gbs} / {micro}."
    ),
    "megatron_bridge/in-batch-packing-micro-batch": (
        "Megatron-Bridge bricht ab: In-Batch-Packing braucht mindestens 2 Sequenzen je Micro-Batch."
    ),
    "megatron_bridge/packed-sequences": (
        "Die Sequenzen sind gepackt (offline packing): B zählt Packs von bis zu {packed} Tokens, nicht Beispiele."
    ),
    "megatron_bridge/inherited-global-batch-size": (
        "Das Rezept setzt global_batch_size nicht und erbt {gbs} Sequenzen zu {seq_len} Tokens aus {base}; "
        "für ein großes Modell ist das meist nicht gemeint."
    ),
    "megatron_bridge/world-from-recipe-name": (
        "Die GPU-Zahl ({world}) steht im Namen des Rezepts {function}; läuft es auf anderen, gib die Zahl an."
    ),
    "megatron_bridge/first-recipe-of-file": ("Die Datei definiert {count} Rezepte; geprüft ist das erste, {function}."),
    "megatron_bridge/rampup": (
        "rampup_batch_size: B beginnt bei {start} und wächst um {increment} bis {gbs}, verteilt über {samples} "
        "Sequenzen; oben steht der Wert am Ende."
    ),
    "megatron_bridge/rampup-divisible": (
        "Megatron-Bridge bricht ab: Eine Stufe des Anstiegs (B = {gbs}) ist kein Vielfaches von {divisor}."
    ),
    "megatron_bridge/nemo2-num-nodes": (
        "trainer() hat num_nodes = {default} voreingestellt, das Rezept übergibt aber {used}; es gilt {used}."
    ),
    "megatron_bridge/interleaved-needs-pipeline": (
        "megatron-core bricht ab: Eine verschränkte Pipeline (virtual_pipeline_model_parallel_size = {vpp}) braucht "
        "pipeline_model_parallel_size > 1, gesetzt ist {pp}."
    ),
    "megatron_bridge/nemo2-recipe-defaults-unknown": (
        "Was {recipe} voreinstellt, kennt effbatch nicht; das Skript setzt nicht: {settings}."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {}
