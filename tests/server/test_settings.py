"""The server's settings: one object (``ludus.server.settings.Settings``) read from ``LUDUS_*`` once,
documented by the table it generates, refused at start-up naming the variable."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from ludus.cli import main
from ludus.server import create_app
from ludus.server.settings import Settings, SettingsError, load_settings, settings_table

ROOT = Path(__file__).resolve().parents[2]


def test_docs_settings_md_is_exactly_the_table_the_settings_make():
    assert (ROOT / "docs" / "settings.md").read_text(encoding="utf-8") == settings_table(), (
        "docs/settings.md is out of date: write ludus.server.settings.settings_table() to it"
    )


def test_the_table_lists_every_setting_with_its_variable_and_a_description():
    table = settings_table()
    for name, field in Settings.model_fields.items():
        assert f"| `LUDUS_{name.upper()}` |" in table
        assert field.description, f"{name} has no description"


def test_each_setting_is_read_from_its_ludus_variable(monkeypatch):
    monkeypatch.setenv("LUDUS_BOT_SECONDS", "0.25")
    monkeypatch.setenv("LUDUS_BOT_PROCESSES", "3")
    monkeypatch.setenv("LUDUS_CREATE_RATE", "5/hour")
    monkeypatch.setenv("LUDUS_HINT_MOST", "2")
    monkeypatch.setenv("LUDUS_STANDIN_BOT", "random")
    monkeypatch.setenv("LUDUS_DATABASE_URL", "postgresql://u@db/ludus")
    settings = load_settings()
    assert (settings.bot_seconds, settings.bot_processes, settings.create_rate) == (0.25, 3, "5/hour")
    assert (settings.hint_most, settings.standin_bot) == (2, "random")
    assert settings.database_url == "postgresql+psycopg://u@db/ludus"  # in the form the engine takes
    assert load_settings(bot_seconds=0.5).bot_seconds == 0.5  # a command's flag wins


def test_an_empty_variable_means_the_default(monkeypatch):
    monkeypatch.setenv("LUDUS_BOT_PACE", "")
    assert load_settings().bot_pace == Settings.model_fields["bot_pace"].default


@pytest.mark.parametrize(
    "variable, value, says",
    [
        ("LUDUS_BOT_SECONDS", "fast", "valid number"),
        ("LUDUS_BOT_PACE", "11", "less than or equal to 10"),
        ("LUDUS_CREATE_RATE", "lots", "couldn't parse rate limit string 'lots'"),
        ("LUDUS_HINT_RATE", "4 a minute", "couldn't parse rate"),
        ("LUDUS_STANDIN_BOT", "oracle", "no bot 'oracle'"),
        ("LUDUS_DATABASE_URL", "mysql://db/x", "unsupported database 'mysql'"),
        ("LUDUS_SQLITE_SYNCHRONOUS", "OFF", "'FULL' or 'NORMAL'"),
        ("LUDUS_BOT_PROCESSES", "0", "greater than or equal to 1"),
    ],
)
def test_a_bad_variable_is_refused_naming_it(monkeypatch, variable, value, says):
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as refused:
        load_settings()
    message = str(refused.value)
    assert message.startswith(f"{variable}: ") and says in message and "\n" not in message


def test_ludus_serve_reports_a_bad_setting_in_one_line_and_exits_2(monkeypatch, tmp_path):
    import ludus.server

    ran = []
    monkeypatch.setattr(ludus.server, "serve", lambda *args: ran.append(args))
    monkeypatch.setenv("LUDUS_JOIN_RATE", "often")
    result = CliRunner().invoke(main, ["serve", "--database", f"sqlite:///{tmp_path / 'x.db'}"])
    assert result.exit_code == 2 and not ran
    assert result.output.startswith("error: LUDUS_JOIN_RATE: ") and len(result.output.splitlines()) == 1


def test_ludus_serve_runs_with_the_settings_its_flag_overrides(monkeypatch, tmp_path):
    import ludus.server

    ran = []
    monkeypatch.setattr(ludus.server, "serve", lambda *args: ran.append(args))
    monkeypatch.setenv("LUDUS_DATABASE_URL", f"sqlite:///{tmp_path / 'from-env.db'}")
    monkeypatch.setenv("LUDUS_LOBBY_PAGE", "7")
    flag = f"sqlite:///{tmp_path / 'from-flag.db'}"
    result = CliRunner().invoke(main, ["serve", "--port", "8125", "--database", flag])
    assert result.exit_code == 0, result.output
    [(host, port, settings)] = ran
    assert (host, port, settings.database_url, settings.lobby_page) == ("127.0.0.1", 8125, flag, 7)


def test_ludus_serve_names_the_variable_of_a_database_it_cannot_use(monkeypatch, tmp_path):
    import ludus.server

    monkeypatch.setattr(ludus.server, "serve", lambda *args: None)
    monkeypatch.setenv("LUDUS_DATABASE_URL", f"sqlite:///{tmp_path / 'no' / 'such' / 'x.db'}")
    result = CliRunner().invoke(main, ["serve", "--port", "8126"])
    assert result.exit_code == 2
    assert (
        result.output.startswith("error: LUDUS_DATABASE_URL sqlite:///") and "does not exist" in result.output
    )


def test_the_app_reads_the_environment_once_when_it_is_given_no_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDUS_LOBBY_PAGE", "7")
    app = create_app(f"sqlite:///{tmp_path / 'env.db'}")
    monkeypatch.setenv("LUDUS_LOBBY_PAGE", "9")  # read when the app was built: no later change counts
    with TestClient(app) as client:
        assert client.get("/api/games", params={"limit": 7}).status_code == 200
        assert client.get("/api/games", params={"limit": 8}).status_code == 422
    assert app.state.settings.lobby_page == 7


def test_given_settings_are_the_apps_whatever_the_environment_says(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDUS_LOBBY_PAGE", "7")
    app = create_app(f"sqlite:///{tmp_path / 'given.db'}", settings=Settings(lobby_page=20))
    with TestClient(app) as client:
        assert client.get("/api/games", params={"limit": 20}).status_code == 200
        assert client.get("/api/games", params={"limit": 21}).status_code == 422


def _reads_environment(path: Path) -> list[str]:
    """Where a module reads the process's environment (``os.environ``, ``os.getenv``, ``environ``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        name = (
            node.attr
            if isinstance(node, ast.Attribute)
            else node.id
            if isinstance(node, ast.Name)
            else node.module or ""
            if isinstance(node, ast.ImportFrom)
            else ""
        )
        imported = [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
        if name in ("environ", "getenv", "environb") or {"environ", "getenv"} & set(imported):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")  # type: ignore[attr-defined]
    return found


def test_no_module_of_the_server_reads_the_environment_but_the_settings():
    """Every setting is a field of ``Settings``, read once; no module reads a variable of its own."""
    modules = [
        *(ROOT / "ludus" / "server").rglob("*.py"),
        *(ROOT / "ludus" / "web").rglob("*.py"),
        ROOT / "ludus" / "cli" / "serve.py",
    ]
    assert [where for path in modules for where in _reads_environment(path)] == []
