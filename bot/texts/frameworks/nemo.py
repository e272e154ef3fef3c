"""NeMo: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("NeMo", "NeMo", "von NeMo")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "eine NeMo-YAML mit `trainer`- und `model`-Abschnitt und den Batch-Schlüsseln von Megatron "
    "(`micro_batch_size`, `global_batch_size`)"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "nemo/global-batch-size-divisible": (
        "NeMo bricht ab: model.global_batch_size = {gbs} ist kein Vielfaches von b · d = {divisor}."
    ),
    "nemo/world-size-divisible": "NeMo bricht ab: TP · PP · CP = {total} teilt die {world} GPUs nicht.",
    "nemo/missing-mandatory-value": (
        "NeMo bricht ab: {key} ist „???“ ({where}), Hydras Pflichtwert, und weder eine der Dateien noch ein "
        "Override auf der Startzeile füllt ihn (OmegaConf: MissingMandatoryValue). Die defaults:-Liste nennt, "
        "aber nicht unter den Dateien: {unfound}. Gib die YAML mit, die ihn setzt, oder setze ihn."
    ),
    "nemo/defaults-not-given": (
        "Die defaults:-Liste nennt {unfound}, das nicht unter den Dateien ist: Was es setzt, fehlt hier, und wo "
        "ein Wert fehlt, ist mit NeMos Standardwert gerechnet. Gib die YAML mit, dann setzt effbatch sie zusammen "
        "wie Hydra."
    ),
    "nemo/config-not-given": (
        "Die Startzeile ({where}) startet {script} mit Hydra-Overrides, aber die YAML, die es liest (--config-name: "
        "{config}), ist nicht unter den Dateien: Was sie setzt und kein Override überschreibt, ist mit NeMos "
        "Standardwerten gerechnet. Gib die YAML mit, dann setzt effbatch sie zusammen wie Hydra."
    ),
    "nemo/hydra-override-no-key": (
        "Hydra bricht ab: Das Override `{override}` ({where}) nennt einen Schlüssel, den die Konfiguration nicht hat "
        "(„Could not override“). Zum Hinzufügen schreibe `+` davor, zum Setzen in jedem Fall `++`."
    ),
    "nemo/hydra-append-exists": (
        "Hydra bricht ab: `{override}` ({where}) fügt einen Schlüssel hinzu, den die Konfiguration schon hat "
        "(„Could not append to config“). Ohne `+` überschreibt es ihn, mit `++` in jedem Fall."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {}
