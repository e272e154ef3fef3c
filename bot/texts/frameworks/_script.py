"""Findings on launch scripts whatever the framework: branches only the start decides."""

#: One row per rule code; the placeholders are exactly the fields of the rule's context.
FINDINGS: dict[str, str] = {
    "script/branches-agree": (
        "Ab Zeile {line} von {file} verzweigt das Skript je nach `{depends}` (steht erst beim Start fest); alle "
        "{count} Varianten ergeben dieselbe Batch-Größe."
    ),
    "script/branches-differ": (
        "Ab Zeile {line} von {file} verzweigt das Skript je nach `{depends}` (steht erst beim Start fest): Je nach "
        "Variante trainiert der Lauf mit B = {smallest} bis B = {largest} ({count} Varianten geprüft). Oben steht "
        "die erste."
    ),
    "script/branch-refused": (
        "Ab Zeile {line} von {file} verzweigt das Skript je nach `{depends}` (steht erst beim Start fest). Von "
        "{count} Varianten lassen sich {refused} nicht prüfen oder nicht starten; oben steht die erste."
    ),
}
#: The same findings worded for how many variants there are (``code/count`` or ``code/count/refused``; ``all``:
#: every variant refused): „beide“, „keine der beiden“ instead of a number in a template's slot.
COUNTED: dict[str, str] = {
    "script/branches-agree/2": (
        "Ab Zeile {line} von {file} verzweigt das Skript je nach `{depends}` (steht erst beim Start fest); beide "
        "Varianten ergeben dieselbe Batch-Größe."
    ),
    "script/branches-differ/2": (
        "Ab Zeile {line} von {file} verzweigt das Skript je nach `{depends}` (steht erst beim Start fest): Je nach "
        "Variante trainiert der Lauf mit B = {smallest} oder B = {largest}. Oben steht die erste."
    ),
    "script/branch-refused/2/1": (
        "Ab Zeile {line} von {file} verzweigt das Skript je nach `{depends}` (steht erst beim Start fest). Eine der "
        "beiden Varianten lässt sich nicht prüfen oder nicht starten; oben steht die erste."
    ),
    "script/branch-refused/2/2": (
        "Ab Zeile {line} von {file} verzweigt das Skript je nach `{depends}` (steht erst beim Start fest). Keine der "
        "beiden Varianten lässt sich prüfen oder starten; oben steht die erste."
    ),
    "script/branch-refused/all": (
        "Ab Zeile {line} von {file} verzweigt das Skript je nach `{depends}` (steht erst beim Start fest). Keine der "
        "{count} Varianten lässt sich prüfen oder starten; oben steht die erste."
    ),
}
FORMULAS: dict[str, str] = {}
