"""What a link to a config on GitHub is unfurled with (``link_shared``)."""

from __future__ import annotations

FULL_CHECK = "Ganze Prüfung anzeigen"
UNFURL_CONTEXT = "effbatch hat {name} aus {repo} geprüft (öffentliche Datei, ohne Anmeldung gelesen)."
#: Where the link points when the file could not be read: nothing was checked, so nothing is claimed.
UNFURL_NOT_READ_CONTEXT = "{name} in {repo}"
#: Why a linked file was not checked, one per ``bot.github_files.FetchFailure``.
FAILURES = {
    "not_found": "{name}: nicht gefunden – die Datei gibt es dort nicht, oder das Repository ist nicht öffentlich.",
    "too_large": "{name} ist größer als 1 MiB; prüf sie mit effbatch check auf deinem Rechner.",
    "too_slow": "{name} kam nicht innerhalb von 3 Sekunden von GitHub.",
    "unreachable": "GitHub ist gerade nicht erreichbar; {name} blieb ungeprüft.",
    "not_text": "{name} ist kein UTF-8-Text.",
}
FAILURE_TITLE = "Konfiguration nicht geprüft"
#: A linked file whose check failed on effbatch's side (logged); the message's other links are unfurled as usual.
FAILED = (
    "{name} blieb ungeprüft: Bei mir ist etwas schiefgegangen – es lag nicht an der Datei. Der Fehler ist "
    "protokolliert."
)
