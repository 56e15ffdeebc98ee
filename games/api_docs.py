"""The API described: the OpenAPI schema at /api/v1/openapi.json and the page at /api/.

Kept apart from ``games.api`` (the endpoints) so that the endpoints and their
description (``games.openapi``) never import each other: both are built from the
declarations in ``games.api_requests``.
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from games import openapi
from scorekeeper.i18n import JsonResponse


@cache
def _schema_json() -> bytes:
    """The schema as served, written once per process: it never changes while the
    process runs, and writing it (every text made a string, indented by the pure-Python
    encoder) took about 45 ms a request."""
    # The machine-readable schema is English, whatever the request's language: the
    # descriptions the API page shows translated are the same (lazy) texts.
    with translation.override(settings.LANGUAGE_CODE):
        return JsonResponse(openapi.schema(), json_dumps_params={"indent": 2}).content


def openapi_schema(request: HttpRequest) -> HttpResponse:
    return HttpResponse(_schema_json(), content_type="application/json")


def documentation(request: HttpRequest) -> HttpResponse:
    context = {"api": openapi.documentation(), "sheet_operations": openapi.sheet_documentation()}
    return render(request, "games/api_docs.html", context)
