"""Every code block of the README and of every page of docs/ (subfolders too) is run (Sybil parses the
Markdown; the same pages make the MkDocs site, where these HTML-comment directives do not show).

- ```python blocks run in order, one namespace per page.
- ```sh blocks run each line with bash in a fresh folder per page (so a record saved by one block is
  there for the next), stdin closed (a human seat leaves at once), and must succeed. A comment
  ``<!-- ludus-test: --games 2 --jobs 1 -->`` before a block gives smaller values for flags its
  ``ludus`` commands already carry, so that long studies run as a quick smoke test.
- ```console blocks hold ``$ command`` lines with the output the page promises; the output (stdout
  and stderr together) must be exactly that.
- ``<!-- ludus-test: serve -->`` starts ``ludus serve`` on a free port with a new SQLite file for
  the rest of the page; ``localhost:8000`` in later blocks is pointed at it.
- ``<!-- skip: next "reason" -->`` marks a block that cannot run here (the whole suite, a benchmark,
  a configuration file); every other fenced block must be of a kind above, so none is silently
  left out.

That every link of the site leads somewhere is ``mkdocs build --strict``'s to check (scripts/test
runs it); the README is not part of the site, so its links are checked here.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from unittest import SkipTest

import pytest
from sybil import Document, Example, Region, Sybil
from sybil.parsers.markdown import CodeBlockParser, SkipParser
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, FencedCodeBlockLexer

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
KINDS = ("python", "sh", "console")
BIN = Path(sys.executable).parent  # where the ``ludus`` script of this environment lives
TIMEOUT = 300
NEEDS = ("numpy", "gymnasium", "pettingzoo", "pyspiel", "httpx", "fastapi", "matplotlib")


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "100",
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def _lines(source: str) -> list[str]:
    """Shell lines, backslash continuations joined, comments and blank lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", source)
    return [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _smaller(command: str, overrides: dict[str, str]) -> str:
    """The command with the values of the overridden flags it carries replaced."""
    words = shlex.split(command, comments=True)
    for i, word in enumerate(words[:-1]):
        if word in overrides:
            words[i + 1] = overrides[word]
    return shlex.join(words)


def _pointed(source: str, namespace: dict) -> str:
    """The source with ``localhost:8000`` pointed at the page's test server, if it has one."""
    address = namespace.get("_server")
    return source.replace("localhost:8000", address) if address else source


def run_python(example: Example) -> None:
    source = "\n" * example.line + _pointed(example.parsed, example.namespace)  # tracebacks give page lines
    exec(compile(source, example.path, "exec", dont_inherit=True), example.namespace)


def run_sh(example: Example) -> None:
    overrides = example.namespace.pop("_ludus_test", {})
    for line in _lines(_pointed(example.parsed, example.namespace)):
        if not line.startswith("ludus ") and not (
            line.startswith("curl ") and "_server" in example.namespace
        ):
            raise AssertionError(
                f"only ludus commands (and curl with a test server) run here; mark the block skip: {line!r}"
            )
        command = _smaller(line, overrides) if overrides else line
        done = _shell(command, example.namespace["_cwd"])
        assert done.returncode == 0, (
            f"{command}\nexit {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )


def run_console(example: Example) -> str | None:
    """Run each ``$ command``; its output must be the lines the page shows under it."""
    blocks = re.split(r"^\$ ", example.parsed, flags=re.MULTILINE)
    for block in blocks[1:]:
        command, _, expected = block.partition("\n")
        done = _shell("exec 2>&1\n" + command, example.namespace["_cwd"])
        got = "\n".join(line.rstrip() for line in done.stdout.rstrip("\n").splitlines())
        want = "\n".join(line.rstrip() for line in expected.rstrip("\n").splitlines())
        if got != want:
            return f"$ {command}\nexpected:\n{want}\ngot:\n{got}"
    return None


class LudusTestParser:
    """``<!-- ludus-test: --flag value ... -->``: smaller values for the next sh block's commands."""

    def __init__(self) -> None:
        self.lexer = DirectiveInHTMLCommentLexer(directive="ludus-test", arguments=".+?")

    def __call__(self, document: Document):
        for lexed in self.lexer(document):
            words = shlex.split(lexed.lexemes["arguments"])
            if words == ["serve"]:
                yield Region(lexed.start, lexed.end, None, start_server)
            else:
                yield Region(
                    lexed.start, lexed.end, dict(zip(words[::2], words[1::2], strict=True)), self.evaluate
                )

    @staticmethod
    def evaluate(example: Example) -> None:
        example.namespace["_ludus_test"] = example.parsed


def start_server(example: Example) -> None:
    """``ludus serve`` on a free loopback port, stopped when the page's test ends."""
    namespace = example.namespace
    if "_server" in namespace:
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    cwd = namespace["_cwd"]
    process = subprocess.Popen(
        [
            str(BIN / "ludus"),
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{cwd / 'docs-server.db'}",
        ],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    namespace["_cleanup"].append(process)
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=2).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(
                    f"ludus serve did not start: {process.stderr.read().decode()[-2000:]}"
                ) from None
            time.sleep(0.2)
    namespace["_server"] = f"127.0.0.1:{port}"


def _fenced_blocks(page: Path) -> int:
    """The page's fenced blocks: its fence lines (each block opens and closes with one), halved."""
    fences = re.findall(r"^[ \t]*```", page.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return len(fences) // 2


class OtherBlockParser:
    """Any other fenced block (a configuration file, no language): it must be marked skip."""

    def __init__(self) -> None:
        self.lexer = FencedCodeBlockLexer(language=r"[^\n]*")

    def __call__(self, document: Document):
        for lexed in self.lexer(document):
            if lexed.lexemes["language"].strip() not in KINDS:
                yield Region(lexed.start, lexed.end, lexed.lexemes["language"].strip(), self.evaluate)

    @staticmethod
    def evaluate(example: Example) -> None:
        raise AssertionError(
            f"a ```{example.parsed} block runs as none of {', '.join(KINDS)}; "
            'mark it <!-- skip: next "why" --> if it cannot run'
        )


BLOCK_EVALUATORS = (run_python, run_sh, run_console, OtherBlockParser.evaluate)

SYBIL = Sybil(
    parsers=[
        CodeBlockParser("python", run_python),
        CodeBlockParser("sh", run_sh),
        CodeBlockParser("console", run_console),
        OtherBlockParser(),
        SkipParser(),
        LudusTestParser(),
    ]
)


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_of_the_page_runs(page, tmp_path, monkeypatch):
    for module in NEEDS:  # the pages use every extra: left out, not failed, without them
        pytest.importorskip(module)
    monkeypatch.chdir(tmp_path)
    document = SYBIL.parse(page)
    document.namespace.update(_cwd=tmp_path, _cleanup=[])
    blocks = 0  # fenced blocks run or skipped with a reason
    try:
        for example in document.examples():
            fenced = example.region.evaluator in BLOCK_EVALUATORS
            try:
                example.evaluate()
            except SkipTest:
                blocks += fenced
                continue
            except Exception as exc:
                raise AssertionError(
                    f"{page.name}, line {example.line}: {type(exc).__name__}: {exc}"
                ) from exc
            blocks += fenced
    finally:
        for process in document.namespace["_cleanup"]:
            process.terminate()
            process.wait(timeout=30)
    assert blocks == _fenced_blocks(page), "a fenced block of the page was neither run nor skipped"


def test_the_quick_start_is_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL).group(1)
    assert [line.split()[0] for line in _lines(block)] == ["scripts/serve", "scripts/test"]
    assert all(
        (ROOT / name).is_file() and os.access(ROOT / name, os.X_OK)
        for name in ("scripts/serve", "scripts/test")
    )


def test_the_http_api_page_has_every_route_and_schema_of_the_server():
    """The hook that writes docs/http-api.md at build time, on the app's own schema."""
    pytest.importorskip("fastapi")
    spec = importlib.util.spec_from_file_location("openapi_page", ROOT / "docs" / "hooks" / "openapi_page.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    schema = hook.openapi()
    page = hook.on_page_markdown("# HTTP API\n\n<!-- openapi -->\n", page=None)
    assert "<!-- openapi -->" not in page
    for path, methods in schema["paths"].items():
        for method in methods:
            assert f"\n### {method.upper()} {path}\n" in page
    for name in schema["components"]["schemas"]:
        assert f"\n### {name}\n" in page
    assert hook.on_page_markdown("no marker", page=None) == "no marker"


def test_every_link_of_the_readme_leads_to_a_file():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme)
    local = [t.split("#")[0] for t in targets if "://" not in t and not t.startswith("#")]
    assert "docs/images/table.png" in local and "docs/contract.md" in local
    assert [t for t in local if not (ROOT / t).is_file()] == []
