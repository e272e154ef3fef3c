"""Levanter: its name, its findings (one row per rule code) and its own formulas, in German."""

from effbatch.bot.texts.frameworks import Name

NAME = Name("Levanter", "Levanter", "von Levanter")

#: What the checker looks for in a file of this framework (said when a forced ``--framework`` finds none of it).
LOOKS_FOR = (
    "einen `trainer:`-Abschnitt mit Levanters eigenen Schlüsseln (`train_batch_size`, `per_device_parallelism` …)"
)

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "levanter/batch-divisible": (
        "Levanter bricht ab: train_batch_size {gbs} ist kein Vielfaches von per_device_parallelism {micro} × "
        "{data_parallel} Geräten der Datenachse."
    ),
    "levanter/batch-below-data-axis": (
        "Levanter stürzt ab: Ohne per_device_parallelism teilt es train_batch_size {gbs} durch die {data_parallel} "
        "Geräte der Datenachse, erhält 0 je Gerät und teilt dann durch 0 (ZeroDivisionError). Die Batch-Größe muss "
        "mindestens so groß sein wie die Datenachse."
    ),
    "levanter/phase-divisible": (
        "Levanter bricht ab: Ab Schritt {start} ist train_batch_size {gbs} kein Vielfaches von "
        "per_device_parallelism {micro} × {data_parallel} Geräten der Datenachse."
    ),
    "levanter/batch-or-per-device": (
        "Levanter bricht ab: train_batch_size und per_device_parallelism sind beide -1; eines davon muss gesetzt sein."
    ),
    "levanter/model-axis-divisible": "Levanter bricht ab: model_axis_size {model} teilt die {world} Geräte nicht.",
    "levanter/mesh-axes": (
        "Levanter bricht ab: Das Produkt der festen Mesh-Achsen ({product}) passt nicht zu den {world} Geräten."
    ),
    "levanter/phase-divisible-by-data-axis": (
        "Levanter bricht ab, sobald Schritt {start} erreicht ist: B = {gbs} lässt sich nicht auf die {data_parallel} "
        "Geräte der Datenachse verteilen (ohne allow_nondivisible_batch_size)."
    ),
    "levanter/padded-with-zeros": (
        "Ab Schritt {start} füllt Levanter den Batch von {gbs} mit leeren Beispielen auf {padded} auf "
        "(allow_nondivisible_batch_size): Gerechnet wird mit {padded} Zeilen, gelernt nur aus {gbs}."
    ),
    "levanter/batch-from-per-device": (
        "train_batch_size ist -1: Levanter nimmt per_device_parallelism {micro} × {data_parallel} Geräte = {gbs}; "
        "die Batch-Größe hängt also von der Zahl der Geräte ab."
    ),
    "levanter/default-batch-size": (
        "train_batch_size fehlt: Levanter nimmt {gbs} (die Dokumentation nennt 32, der Code setzt {gbs})."
    ),
    "levanter/schedule-without-microbatching": (
        "Ohne per_device_parallelism akkumuliert Levanter bei einem Plan ({phases} Stufen) nicht: Jedes Gerät "
        "rechnet seinen ganzen Anteil (b = B / d) auf einmal; b ändert sich mit jeder Stufe. Oben steht die letzte."
    ),
}
#: This framework's own derivations; ``{0}``, ``{1}`` … are the operands, ``{r}`` the result.
FORMULAS: dict[str, str] = {
    "levanter/data_axis": "d = Geräte / model_axis_size = {0} / {1} = {r}",
    "levanter/mesh_axis": "d = Geräte / übrige Mesh-Achsen = {0} / {1} = {r}",
    "levanter/per_device": "b = train_batch_size // d = {0} // {1} = {r}",
    "levanter/batch_from_per_device": "B = per_device_parallelism · d = {0} × {1} = {r}",
}
