"""alembic environment: always given a connection by ``ludus.server.migrations.upgrade``."""

from alembic import context

from ludus.server.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through ludus.server.migrations.upgrade(engine)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
