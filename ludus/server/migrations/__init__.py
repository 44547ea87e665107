"""Schema migrations (alembic), run programmatically when the server starts."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

HERE = Path(__file__).resolve().parent


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    return cfg


def upgrade(engine: Engine, is_sqlite: bool, revision: str = "head") -> None:
    """Upgrade to ``revision`` inside one transaction that holds the database's write lock,

    so that two processes starting together do not both create the tables.
    """
    cfg = alembic_config()
    with engine.connect().execution_options(ludus_write=True) as conn, conn.begin():
        if not is_sqlite:
            conn.execute(text("SELECT pg_advisory_xact_lock(7403117)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
