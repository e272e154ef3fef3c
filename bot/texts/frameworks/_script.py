"""Findings on launch scripts whatever the framework: branches only the start decides."""

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "script/branches-agree": (
        "Ab Zeile {line} verzweigt das Skript nach {variables}, das erst beim Start feststeht; in allen {count} "
        "Varianten ergibt sich dieselbe Batch-Größe."
    ),
    "script/branches-differ": (
        "Ab Zeile {line} verzweigt das Skript nach {variables}, das erst beim Start feststeht: Je nach Variante "
        "trainiert der Lauf mit B = {smallest} bis B = {largest} ({count} Varianten geprüft). Oben steht die erste."
    ),
    "script/branch-refused": (
        "Ab Zeile {line} verzweigt das Skript nach {variables}, das erst beim Start feststeht: {refused} von {count} "
        "Varianten lassen sich so nicht prüfen oder starten nicht. Oben steht die erste."
    ),
}
FORMULAS: dict[str, str] = {}
