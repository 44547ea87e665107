"""The API docs page (Swagger UI) served from files this server holds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>ludus server — API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>
"""
DOCS_START = 'SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true});\n'


def mount_docs(app: FastAPI) -> None:
    """The API docs (Swagger UI) from files this server holds: no page loads anything from another
    origin, and the start-up script is a file, so the Content-Security-Policy holds on /docs too."""
    # Swagger UI 5 (OpenAPI 3.1) as the swagger-ui-py package ships it; its Python code is not used.
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        return  # without the package: no /docs (the OpenAPI schema stays at /openapi.json)
    swagger_ui_path = Path(next(iter(spec.submodule_search_locations))) / "static"
    if not (swagger_ui_path / "swagger-ui-bundle.js").exists():
        return

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(DOCS_PAGE)

    @app.get("/docs/start.js", include_in_schema=False)
    def docs_start() -> Response:
        return Response(DOCS_START, media_type="text/javascript")

    app.mount("/docs/assets", StaticFiles(directory=swagger_ui_path), name="swagger-ui")
