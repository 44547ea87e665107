"""alembic revisions of the server schema."""
