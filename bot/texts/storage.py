"""What the operator reads about the database: start-up failures and the migration job."""

from __future__ import annotations

UNREACHABLE = (
    "Die Datenbank {url} ist nicht erreichbar ({detail}). Prüfe DATABASE_URL – oder lass es leer: Dann nimmt "
    "effbatch eine SQLite-Datei in EFFBATCH_DATA_DIR (Standard: ./data)."
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
