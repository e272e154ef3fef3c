"""Findings of a run recognised by the call that decides it (a script that calls ``deepspeed.initialize``), kept
apart from the framework's own text module."""

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "deepspeed/initialize-without-config": (
        "DeepSpeed bricht beim Start ab: deepspeed.initialize ({where}) bekommt keine Konfiguration – weder "
        "config= noch --deepspeed_config."
    ),
    "deepspeed/initialize-two-configs": (
        "DeepSpeed bricht beim Start ab: deepspeed.initialize ({where}) bekommt zwei Konfigurationen, config= und "
        "--deepspeed_config."
    ),
    "deepspeed/initialize-config-among-files": (
        "deepspeed.initialize ({where}) liest die Konfiguration aus --deepspeed_config; ohne Startzeile gilt "
        "{config}, die einzige DeepSpeed-Konfiguration unter den Dateien."
    ),
    "deepspeed/script-loader-differs": (
        "Dein Skript lädt mit einem eigenen DataLoader {loader} Beispiele je Schritt ({where}), DeepSpeed rechnet "
        "mit b = {micro}: Trainiert werden je Optimierer-Schritt {trained} Beispiele, nicht die {counted} aus "
        "train_batch_size. Gleiche batch_size des DataLoaders und train_micro_batch_size_per_gpu an oder gib den "
        "Datensatz als training_data= an deepspeed.initialize."
    ),
}
#: This module's own derivations: none.
FORMULAS: dict[str, str] = {}
