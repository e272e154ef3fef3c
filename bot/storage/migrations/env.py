"""Alembic's environment: migrations run on the connection ``bot.storage.database.migrate`` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    msg = "effbatch migrates through effbatch.bot.storage.database.migrate, which passes a connection"
    raise TypeError(msg)
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
