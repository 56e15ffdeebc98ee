"""The input guard: a request carrying text that is not text never reaches a view.

Text that no page, form or API field can mean, and that breaks code far from where
it came in, is refused here with a 400 before any view or database sees it:

- a NUL character, which PostgreSQL refuses in every text it is given (a token in an
  address, a name on a sheet, a deal's JSON), while SQLite quietly stores it;
- bytes that are not UTF-8, which Django would quietly replace with U+FFFD in a query
  string, and lone surrogates (``"\\ud800"`` is a valid JSON escape, and
  ``json.loads`` hands it on as a ``str`` that cannot be encoded, hashed or stored).

It looks at the address (path and query string), the headers and cookies, and the
body: each field of a form, every key and string of a JSON body (the referee reads a
body as JSON whatever its content type), and any other body as text. The answer is
the site's error page, or under ``/api/`` the API's error format with the field at
fault, as every other refusal there. What readable text means (a number with too many
digits, a name too long) is left to the views and forms, which answer 4xx themselves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

TITLE = gettext_lazy("That request could not be read")
# A NUL character, or half of a surrogate pair standing alone.
_UNREADABLE = re.compile("[\x00\ud800-\udfff]")


@dataclass(frozen=True)
class Refusal:
    field: str | None
    message: str


def text_problem(text: str) -> str | None:
    """What makes ``text`` unreadable ("a NUL character" …), or None if it is fine."""
    found = _UNREADABLE.search(text)
    if found is None:
        return None
    if found.group() == "\x00":
        # Translators: what a text "contains" (the messages below say so): in Esperanto
        # the accusative.
        return _("a NUL character")
    # Translators: what a text "contains" (the messages below say so): in Esperanto
    # the accusative. %(code)s is the character's code, such as \ud800.
    return _("a lone surrogate (%(code)s), which is not a character") % {
        "code": f"\\u{ord(found.group()):04x}"
    }


def json_problem(data: object) -> tuple[str | None, str] | None:
    """The first key or string of decoded JSON that is unreadable, as (dotted path of
    where it is, what is wrong), or None. Iterative: JSON nested as deep as the parser
    allows is no reason for a RecursionError here."""
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem:
                message = (
                    _('The text at "%(path)s" contains %(problem)s.')
                    if path
                    else _("The text contains %(problem)s.")
                )
                return path or None, message % {"path": path, "problem": problem}
        elif isinstance(value, dict):
            for key, item in value.items():
                problem = text_problem(key)
                if problem:
                    message = (
                        _('A field name in "%(path)s" contains %(problem)s.')
                        if path
                        else _("A field name contains %(problem)s.")
                    )
                    return path or None, message % {"path": path, "problem": problem}
                stack.append((f"{path}.{key}" if path else key, item))
        elif isinstance(value, list):
            stack.extend((f"{path}.{i}" if path else str(i), item) for i, item in enumerate(value))
    return None


def _urlencoded_message(name: str | None, *, in_address: bool, problem: str | None = None) -> str:
    """What is wrong with a field of the address (query string) or of a form body: one
    whole sentence for each case."""
    values = {"name": name, "problem": problem}
    if in_address:
        if name:
            if problem is None:
                return _('The field "%(name)s" in the address is not UTF-8 text.') % values
            return _('The field "%(name)s" in the address contains %(problem)s.') % values
        if problem is None:
            return _("A field name in the address is not UTF-8 text.")
        return _("A field name in the address contains %(problem)s.") % values
    if name:
        if problem is None:
            return _('The field "%(name)s" of the form is not UTF-8 text.') % values
        return _('The field "%(name)s" of the form contains %(problem)s.') % values
    if problem is None:
        return _("A field name of the form is not UTF-8 text.")
    return _("A field name of the form contains %(problem)s.") % values


def _urlencoded(raw: bytes, *, in_address: bool) -> Refusal | None:
    """Each name and value of a query string or form body, percent-decoded and read as
    UTF-8 (Django requires it of a form body), except that bytes Django would replace
    with U+FFFD are refused."""
    for pair in raw.split(b"&"):
        name_raw, _equals, value_raw = pair.partition(b"=")
        texts = []
        for part in (name_raw, value_raw):
            try:
                texts.append(unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8"))
            except UnicodeDecodeError:
                texts.append(None)
        name, value = texts
        shown = name if name is not None and not text_problem(name) else None
        if name is None or value is None:
            return Refusal(shown, _urlencoded_message(shown, in_address=in_address))
        problem = text_problem(name) or text_problem(value)
        if problem:
            return Refusal(
                shown, _urlencoded_message(shown, in_address=in_address, problem=problem)
            )
    return None


def _address(request: HttpRequest) -> Refusal | None:
    # Django has decoded the path already, putting bytes that are not UTF-8 back as
    # %XX (so they reach no view as text); a NUL it decodes like any other character.
    problem = text_problem(request.path_info)
    if problem:
        return Refusal(
            None, _("The address contains %(problem)s; check the link.") % {"problem": problem}
        )
    # The query string is as the server read it: bytes, as Latin-1 text (WSGI).
    query = request.META.get("QUERY_STRING", "")
    try:
        raw_query = query.encode("latin-1")
    except UnicodeEncodeError:
        raw_query = query.encode("utf-8", "surrogatepass")
    return _urlencoded(raw_query, in_address=True) if raw_query else None


def _headers(request: HttpRequest) -> Refusal | None:
    for key, value in request.META.items():
        if key.startswith("HTTP_") and isinstance(value, str):
            problem = text_problem(value)
            if problem:
                name = key.removeprefix("HTTP_").replace("_", "-").title()
                return Refusal(
                    None,
                    _("The %(name)s header contains %(problem)s.")
                    % {"name": name, "problem": problem},
                )
    for name, value in request.COOKIES.items():
        problem = text_problem(name) or text_problem(value)
        if problem:
            return Refusal(
                None,
                _("A cookie contains %(problem)s; clear this site's cookies.")
                % {"problem": problem},
            )
    return None


def _body(request: HttpRequest) -> Refusal | None:
    # The JSON API reads its body as JSON, never as a form: a form sent there (as `curl
    # -F` sends one) is checked as raw text below, so the view can still read the body
    # and answer that it is not JSON (read here as a form, it could not be read again).
    api = request.path_info.startswith("/api/")
    if request.content_type == "multipart/form-data" and not api:
        try:
            fields = [(name, v) for name, values in request.POST.lists() for v in values]
        except MultiPartParserError:
            return Refusal(None, _("The form could not be read."))
        fields += [(name, f.name or "") for name, f in request.FILES.items()]
        for name, value in fields:
            problem = text_problem(name) or text_problem(value)
            if problem:
                shown = None if text_problem(name) else name
                return Refusal(
                    shown,
                    _('The form field "%(name)s" contains %(problem)s.')
                    % {"name": shown or "?", "problem": problem},
                )
        return None
    raw = request.body
    if not raw:
        return None
    if request.content_type == "application/x-www-form-urlencoded":
        return _urlencoded(raw, in_address=False)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Refusal(None, _("The request body must be UTF-8 text."))
    problem = text_problem(text)
    if problem:
        return Refusal(None, _("The request body contains %(problem)s.") % {"problem": problem})
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        # Not JSON (or JSON too odd to decode): the view that reads it says what is wrong.
        return None
    found = json_problem(data)
    return Refusal(*found) if found else None


def refusal(request: HttpRequest) -> Refusal | None:
    """Why the request cannot be read, or None when all its text is text."""
    return _address(request) or _headers(request) or _body(request)


def refused(request: HttpRequest, why: Refusal) -> HttpResponse:
    if request.path_info.startswith("/api/"):
        body = {"errors": [{"field": why.field, "message": why.message}]}
        return JsonResponse(body, status=400)
    context = {"status": 400, "title": TITLE, "message": why.message}
    return render(request, "error.html", context, status=400)


class InputGuardMiddleware:
    """Answers 400 to a request with unreadable text before any view sees it; placed
    early in ``MIDDLEWARE`` (after the security headers, before sessions and static
    files), so nothing reads the request before it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        why = refusal(request)
        if why is not None:
            # This runs before LocaleMiddleware: the refusal is said again in the
            # request's language (the page's prefix, the cookie, Accept-Language).
            language = translation.get_language_from_request(request, check_path=True)
            with translation.override(language):
                return refused(request, refusal(request) or why)
        return self.get_response(request)
