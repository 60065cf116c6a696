"""The API's documentation page, Swagger UI, served with its own assets so it works offline.

FastAPI's default ``/api/docs`` loads Swagger UI's script and style from a CDN, so without a
network the page is blank. Here they come from the ``fastapi-offline`` package (part of the
``web`` extra), mounted under :data:`ASSETS_URL`; without that package there is no docs page
at all rather than a blank one (the schema stays at ``/api/openapi.json``).

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI(docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
>>> add_docs_page(app)
True
>>> client = TestClient(app)
>>> page = client.get(DOCS_URL).text
>>> "/api/docs-assets/swagger-ui-bundle.js" in page, "cdn" in page
(True, False)
>>> client.get(f"{ASSETS_URL}/swagger-ui.css").status_code
200
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS_URL", "DOCS_URL", "add_docs_page", "swagger_assets"]

DOCS_URL = "/api/docs"
ASSETS_URL = "/api/docs-assets"
_FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "favicon.png")


def swagger_assets() -> Path | None:
    """The folder holding Swagger UI's script, style and icon, or None if not installed."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    return folder if all((folder / name).is_file() for name in _FILES) else None


def add_docs_page(app: FastAPI) -> bool:
    """Serve Swagger UI at :data:`DOCS_URL` from local assets; False (no page) without them."""
    folder = swagger_assets()
    if folder is None or app.openapi_url is None:
        return False
    app.mount(ASSETS_URL, StaticFiles(directory=folder), name="docs-assets")
    title = f"{app.title}: API"
    schema = app.openapi_url

    @app.get(DOCS_URL, include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=schema,
            title=title,
            swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_URL}/favicon.png",
        )

    return True
