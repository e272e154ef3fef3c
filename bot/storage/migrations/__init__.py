"""Alembic's migrations of effbatch's schema, run by ``bot.storage.database.migrate`` (never by hand-written SQL)."""
