"""effbatch's database: Slack installations, OAuth state and channel profiles, in SQLite or PostgreSQL.

``database`` makes the engine from ``DATABASE_URL`` (a SQLite file in the data directory when unset) and
migrates it with Alembic; ``profiles`` keeps channel profiles; ``slack_stores`` are slack_sdk's own
SQLAlchemy installation and state stores over the same engine. Nothing here is imported by the CLI.
"""
