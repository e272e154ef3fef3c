"""What the operator reads about the database: start-up failures and the migration job."""

from __future__ import annotations

UNREACHABLE = (
    "Die Datenbank {url} ist nicht erreichbar ({detail}). Prüfe DATABASE_URL – oder lass es leer: Dann nimmt "
    "effbatch eine SQLite-Datei in EFFBATCH_DATA_DIR (Standard: ~/.local/share/effbatch)."
)
UNREADABLE = (
    "DATABASE_URL {url} ist nicht verwendbar ({detail}). Beispiel: postgresql+psycopg://effbatch:…@db:5432/effbatch"
)
UNREADABLE_URL = "(nicht lesbar)"
SCHEMA_BEHIND = (
    "Das Datenbankschema ist auf Stand {current}, diese Version braucht {head}. Mit EFFBATCH_MIGRATE=off muss "
    "zuerst die Migration laufen: effbatch-bot --migrate (in Kubernetes: deploy/k8s/migrate-job.yaml)."
)
MIGRATED = "Datenbank {url} ist auf dem neuesten Stand ({head})."
MIGRATE_HELP = "nur das Datenbankschema migrieren und beenden (für einen Job vor dem Rollout)"

#: The request path, when the database does not answer in time (frozen, unreachable, held by a lock).
DATABASE_UNAVAILABLE = (
    "Die Datenbank des Bots antwortet gerade nicht. Versuch es in ein paar Sekunden noch einmal; bleibt es so, "
    "sag den Betreibern von effbatch Bescheid."
)
PROFILE_NOT_STORED = (
    "Das Channel-Profil ist nicht gespeichert: Die Datenbank des Bots antwortet gerade nicht oder ist belegt. "
    "Versuch es in ein paar Sekunden noch einmal."
)
PROFILE_NOT_DELETED = (
    "Das Channel-Profil ist nicht gelöscht: Die Datenbank des Bots antwortet gerade nicht oder ist belegt. "
    "Versuch es in ein paar Sekunden noch einmal."
)
PROFILE_NOT_READ = (
    "Das Channel-Profil lässt sich gerade nicht lesen: Die Datenbank des Bots antwortet nicht. Versuch es in ein "
    "paar Sekunden noch einmal."
)
#: Atop an answer that could have taken the channel's profile, when the database did not answer in time.
PROFILE_LEFT_OUT = (
    "Ohne Channel-Profil gerechnet: Die Datenbank des Bots antwortet gerade nicht. Was das Profil dieses Channels "
    "vorgibt (GPUs, Parallelität, GPU-Modell), fehlt in dieser Antwort; nenne es im Befehl oder versuch es gleich "
    "noch einmal."
)
