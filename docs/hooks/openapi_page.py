"""MkDocs hook: the HTTP API page is written from the server's own OpenAPI schema at every build.

``docs/http-api.md`` holds the page's words and the marker ``<!-- openapi -->``; the marker becomes
every route (parameters, body, answers) and every schema of ``ludus.server.create_app().openapi()``,
so the page says exactly what the server checks and can never fall behind it. The app is only built,
never started: no database is opened.
"""

from __future__ import annotations

import tempfile
from typing import Any

MARKER = "<!-- openapi -->"


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, reference(openapi()))


def openapi() -> dict[str, Any]:
    """The schema of an app over a database that is never created."""
    from ludus.server import create_app

    with tempfile.TemporaryDirectory() as folder:
        return create_app(f"sqlite:///{folder}/never-opened.db").openapi()


def reference(spec: dict[str, Any]) -> str:
    """The routes, then the schemas, as Markdown."""
    lines = ["## Overview", "", spec["info"].get("description", "").strip(), ""]
    lines += ["## Routes", "", *_summary(spec), ""]
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            lines += _operation(method.upper(), path, operation)
    lines += ["## Schemas", ""]
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        lines += _schema(name, schema)
    return "\n".join(lines)


def _summary(spec: dict[str, Any]) -> list[str]:
    rows = ["| Route | What |", "|---|---|"]
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            route = f"{method.upper()} {path}"
            rows.append(f"| [`{route}`](#{_slug(route)}) | {_cell(operation.get('summary', ''))} |")
    return rows


def _operation(method: str, path: str, operation: dict[str, Any]) -> list[str]:
    lines = [f"### {method} {path}", "", operation.get("summary", ""), ""]
    if operation.get("description"):
        lines += [operation["description"].strip(), ""]
    parameters = operation.get("parameters", [])
    if parameters:
        lines += ["| Parameter | In | Type | Default | What |", "|---|---|---|---|---|"]
        for p in parameters:
            schema = p.get("schema", {})
            name = f"`{p['name']}`" + ("" if p.get("required") else " (optional)")
            default = f"`{schema['default']}`" if "default" in schema else ""
            what = p.get("description") or schema.get("description", "")
            lines.append(f"| {name} | {p['in']} | {_type(schema)} | {default} | {_cell(what)} |")
        lines.append("")
    body = operation.get("requestBody", {}).get("content", {})
    for media, form in body.items():
        lines += [f"Body ({media}): {_type(form.get('schema', {}))}", ""]
    answers: list[str] = []
    errors: dict[str, list[str]] = {}  # the errors' schema -> their status codes
    for status, response in operation.get("responses", {}).items():
        forms: list[dict[str, Any]] = list(response.get("content", {}).values())
        shown = _type(forms[0]["schema"]) if forms and "schema" in forms[0] else ""
        if status[0] in "45":
            errors.setdefault(shown, []).append(status)
        else:
            answers.append(f"**{status}** {shown}".strip())
    failures = "; ".join(f"{', '.join(codes)} {shown}".strip() for shown, codes in errors.items())
    lines.append("Answers: " + ", ".join(answers) + (f". Errors: {failures}" if failures else "") + ".")
    return [*lines, ""]


def _schema(name: str, schema: dict[str, Any]) -> list[str]:
    lines = [f"### {name}", ""]
    if schema.get("description"):
        lines += [schema["description"].strip(), ""]
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    if properties:
        lines += ["| Field | Type | What |", "|---|---|---|"]
        for field, sub in properties.items():
            shown = f"`{field}`" + ("" if field in required else " (optional)")
            lines.append(f"| {shown} | {_type(sub)} | {_cell(sub.get('description', ''))} |")
        lines.append("")
    elif schema.get("type"):
        lines += [_type(schema), ""]
    return lines


def _type(schema: dict[str, Any]) -> str:
    """A JSON schema in a few words: its type, its bounds, a link for a named schema."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{_slug(name)})"
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(_type(sub) for sub in schema[key])
    if "enum" in schema:
        return "one of " + ", ".join(f"`{value}`" for value in schema["enum"])
    kind = schema.get("type", "any")
    if kind == "array":
        shown = "array of " + _type(schema.get("items", {}))
        return shown + _bounds(schema.get("minItems"), schema.get("maxItems"), "items")
    if kind == "string":
        return "string" + _bounds(schema.get("minLength"), schema.get("maxLength"), "characters")
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is None and high is None:
            return kind
        return (
            f"{kind} {_number(low) if low is not None else ''}..{_number(high) if high is not None else ''}"
        )
    return kind


def _bounds(low: int | None, high: int | None, unit: str) -> str:
    if low is None and high is None:
        return ""
    if low is None or low == 0:
        return f" (at most {high} {unit})"
    if high is None:
        return f" (at least {low} {unit})"
    return f" ({low} to {high} {unit})"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _cell(text: str) -> str:
    """Text that stays in one table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _slug(text: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's toc slugify)."""
    from markdown.extensions.toc import slugify  # type: ignore[import-untyped]

    return slugify(text, "-")
