"""Hugging Face Trainer: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("Hugging Face Trainer", "der Hugging Face Trainer", "des Hugging Face Trainers")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "`per_device_train_batch_size` in YAML/JSON, `--per_device_train_batch_size` in einer Startzeile oder "
    "`TrainingArguments(…)` aus `transformers` in einem Skript"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "huggingface/total-train-batch-size": "Der Trainer meldet „Total train batch size“ = {total}.",
    "huggingface/deepspeed-auto": 'Der Trainer ersetzt "auto" in der DeepSpeed-Konfiguration durch: {filled}.',
    "huggingface/deepspeed-mismatch": (
        "Der Trainer bricht ab: DeepSpeed-Konfiguration und TrainingArguments widersprechen sich."
    ),
    "huggingface/fsdp-with-deepspeed": (
        "Der Trainer bricht ab: `--fsdp` und `--deepspeed` schließen einander aus. Streiche eines von beiden."
    ),
    "huggingface/argument-not-taken": (
        "Der Start bricht ab: {argument} gibt es in TrainingArguments bei `{pinned}` nicht (nur in `{known}`). "
        "Streiche es oder schreibe den Namen dieser Version."
    ),
    "huggingface/argument-by-release": (
        "{argument} gibt es in TrainingArguments nur in `{known}`; `{pinned}` lässt auch Versionen ohne es zu, und "
        "mit denen bricht der Start ab. Lege die Version fest (`--framework-version transformers==…` oder eine "
        "`requirements.txt` neben der Konfiguration)."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {}
