"""Findings on launch scripts whatever the framework: branches only the start decides."""

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "script/branches-agree": (
        "Ab Zeile {line} verzweigt das Skript je nach {variables} (steht erst beim Start fest); alle geprüften "
        "Varianten ({count}) ergeben dieselbe Batch-Größe."
    ),
    "script/branches-differ": (
        "Ab Zeile {line} verzweigt das Skript je nach {variables} (steht erst beim Start fest): Je nach Variante "
        "trainiert der Lauf mit B = {smallest} bis B = {largest} ({count} Varianten geprüft). Oben steht die erste."
    ),
    "script/branch-refused": (
        "Ab Zeile {line} verzweigt das Skript je nach {variables} (steht erst beim Start fest). Geprüft: {count} "
        "Varianten, davon nicht prüfbar oder nicht startfähig: {refused}. Oben steht die erste."
    ),
}
FORMULAS: dict[str, str] = {}
