"""Read a page's forms as a browser does, and say what it would send.

The HTML standard's rules, for what the project's pages use: each form's controls
(also those outside it that name it with form="…"); disabled ones (and those in a
disabled fieldset) left out; checkboxes and radios only when checked; a select's
selected options, else its first; a textarea's text; each submit button one way to
send the form (its name and value added, its formaction/formmethod obeyed). Values
are sanitized by type as the standard's "value sanitization algorithm" does: a
date input drops a value that is no valid date string ("01.09.2026" is dropped, so
the field is empty), a number input one that is no valid number, an email input
trims its value, text inputs lose line breaks.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

_DATE = re.compile(r"(\d{4,})-(\d\d)-(\d\d)")
_NUMBER = re.compile(r"-?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?")
_LINE_BREAKS = re.compile(r"[\r\n]")


def sanitized(kind: str, value: str) -> str:
    """An <input type=kind>'s value after the standard's value sanitization."""
    if kind == "date":
        found = _DATE.fullmatch(value)
        if not found:
            return ""
        try:
            datetime.date(*(int(part) for part in found.groups()))
        except ValueError:
            return ""
        return value
    if kind == "number":
        return value if _NUMBER.fullmatch(value) else ""
    if kind == "email":
        return _LINE_BREAKS.sub("", value).strip(" \t\n\f\r")
    if kind in ("text", "search", "tel", "password", "url"):
        value = _LINE_BREAKS.sub("", value)
        return value.strip(" \t\n\f\r") if kind == "url" else value
    return value


@dataclass
class Control:
    tag: str
    kind: str
    name: str
    value: str
    checked: bool = False
    disabled: bool = False
    options: list[tuple[str, bool, bool]] = field(default_factory=list)  # value, selected, disabled
    multiple: bool = False
    form: str | None = None  # form="…"
    formaction: str | None = None
    formmethod: str | None = None


@dataclass
class Form:
    method: str
    action: str | None
    id: str | None
    controls: list[Control] = field(default_factory=list)

    def data(self) -> list[tuple[str, str]]:
        """The entries the form sends, before the submit button's."""
        entries = []
        for control in self.controls:
            if control.disabled or not control.name:
                continue
            if control.tag == "button" or control.kind in ("submit", "image", "reset", "button"):
                continue
            if control.tag == "select":
                enabled = [o for o in control.options if not o[2]]
                chosen = [o for o in enabled if o[1]]
                if not chosen and not control.multiple and control.options:
                    chosen = [control.options[0]] if not control.options[0][2] else enabled[:1]
                if not control.multiple:
                    chosen = chosen[-1:]
                entries.extend((control.name, o[0]) for o in chosen)
            elif control.kind in ("checkbox", "radio"):
                if control.checked:
                    entries.append((control.name, control.value))
            elif control.kind == "file":
                continue
            else:
                entries.append((control.name, control.value))
        return entries

    def submitters(self) -> list[Control]:
        return [
            c
            for c in self.controls
            if not c.disabled
            and ((c.tag == "button" and c.kind == "submit") or c.kind in ("submit", "image"))
        ]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.loose: list[Control] = []  # controls outside any form
        self.current: Form | None = None
        self.select: Control | None = None
        self.option: list | None = None
        self.textarea: Control | None = None
        self.fieldsets: list[bool] = []  # disabled?

    def _in_disabled_fieldset(self) -> bool:
        return any(self.fieldsets)

    def _add(self, control: Control) -> None:
        if control.form is not None or self.current is None:
            self.loose.append(control)
        else:
            self.current.controls.append(control)

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        disabled = "disabled" in a or self._in_disabled_fieldset()
        if tag == "form":
            self.current = Form(
                method=(a.get("method") or "get").lower(), action=a.get("action"), id=a.get("id")
            )
            self.forms.append(self.current)
        elif tag == "fieldset":
            self.fieldsets.append("disabled" in a)
        elif tag == "input":
            kind = (a.get("type") or "text").lower()
            # A checkbox or radio without a value attribute sends "on"; with value="" it
            # sends "".
            value = a.get("value", "on" if kind in ("checkbox", "radio") else "")
            if kind not in ("checkbox", "radio", "submit", "image", "reset", "button", "hidden"):
                value = sanitized(kind, value)
            self._add(
                Control(
                    "input",
                    kind,
                    a.get("name", ""),
                    value,
                    checked="checked" in a,
                    disabled=disabled,
                    form=a.get("form"),
                    formaction=a.get("formaction"),
                    formmethod=a.get("formmethod"),
                )
            )
        elif tag == "button":
            self._add(
                Control(
                    "button",
                    (a.get("type") or "submit").lower(),
                    a.get("name", ""),
                    a.get("value", ""),
                    disabled=disabled,
                    form=a.get("form"),
                    formaction=a.get("formaction"),
                    formmethod=a.get("formmethod"),
                )
            )
        elif tag == "select":
            self.select = Control(
                "select",
                "select",
                a.get("name", ""),
                "",
                disabled=disabled,
                multiple="multiple" in a,
                form=a.get("form"),
            )
            self._add(self.select)
        elif tag == "option" and self.select is not None:
            self.option = [a.get("value"), "selected" in a, "disabled" in a, ""]
            self.select.options.append(self.option)  # type: ignore[arg-type]
        elif tag == "textarea":
            self.textarea = Control(
                "textarea", "textarea", a.get("name", ""), "", disabled=disabled, form=a.get("form")
            )
            self._add(self.textarea)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        if self.option is not None:
            self.option[3] += data
        if self.textarea is not None:
            self.textarea.value += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "fieldset" and self.fieldsets:
            self.fieldsets.pop()
        elif tag == "select":
            if self.select is not None:
                self.select.options = [
                    (o[0] if o[0] is not None else o[3].strip(), o[1], o[2])
                    for o in self.select.options
                ]
            self.select = None
            self.option = None
        elif tag == "option":
            self.option = None
        elif tag == "textarea":
            if self.textarea is not None:
                # The parser drops one line break right after <textarea>.
                self.textarea.value = self.textarea.value.removeprefix("\n")
            self.textarea = None


@dataclass
class Submission:
    """One way to send a form: by one of its buttons (or by Enter when it has none)."""

    method: str
    url: str
    data: list[tuple[str, str]]
    button: str  # for messages


def submissions(markup: str, page_url: str) -> list[Submission]:
    reader = _Reader()
    reader.feed(markup)
    by_id = {form.id: form for form in reader.forms if form.id}
    for control in reader.loose:
        if control.form in by_id:
            by_id[control.form].controls.append(control)
    found = []
    for form in reader.forms:
        base = urljoin(page_url, form.action) if form.action else page_url
        buttons = form.submitters()
        for button in buttons or [None]:
            method = ((button.formmethod if button else None) or form.method).lower()
            url = urljoin(page_url, button.formaction) if button and button.formaction else base
            data = form.data()
            if button is not None and button.name:
                data.append((button.name, button.value))
            label = f"{button.name}={button.value}" if button and button.name else "submit"
            found.append(Submission(method, url, data, label))
    return found
