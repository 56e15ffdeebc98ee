"""``manage.py import_circle FILE --map-user NAME=ACCOUNT … [--owner ACCOUNT]``: read a
circle written by ``export_circle`` as a new circle (``circles.transfer`` says how a
file is checked).

The file is hostile input: its links are not used (the circle, its seasons and its
sheets get new ones), no account is made from it, and an account here becomes a member
only when the operator maps the export's user name to it with ``--map-user``. Someone
must own the circle: map one of the export's owners, or name an account with
``--owner``. Every file that cannot be imported is answered with one line that says
why, and nothing is stored.

The sheets are checked and stored a batch at a time (``circles.transfer.BATCH``), then
the circle's club evenings, all in one transaction; how many sheets are done goes to
standard error (not with ``--verbosity 0``). A file of every version so far is read
(``circles.transfer`` says what each adds)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse
from django.utils.translation import gettext as _

from circles.models import Circle
from circles.transfer import NoOwner, import_circle, read_document
from games.rules.errors import RuleError

MAX_MESSAGE = 900


def one_line(text: str) -> str:
    """``text`` safe for a terminal: on one line, no control character (a file's text
    may be quoted in a message), and not endless."""
    text = "".join("?" if unicodedata.category(c) in ("Cc", "Cs") else c for c in text)
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _account(username: str) -> Any:
    model = get_user_model()
    account = model._default_manager.filter(**{model.USERNAME_FIELD: username}).first()
    if account is None:
        raise CommandError(one_line(_("There is no account %(name)s here.") % {"name": username}))
    return account


def _accounts(pairs: list[str]) -> dict[str, Any]:
    """``--map-user NAME=ACCOUNT`` options as the export's user names and accounts here."""
    found: dict[str, Any] = {}
    for pair in pairs:
        name, equals, username = (part.strip() for part in pair.partition("="))
        if not (equals and name and username):
            raise CommandError(
                one_line(
                    _(
                        "Give --map-user as NAME=ACCOUNT (the user name in the export, then "
                        "the account here), not %(pair)s."
                    )
                    % {"pair": pair}
                )
            )
        if name in found:
            raise CommandError(one_line(_("%(name)s is mapped twice.") % {"name": name}))
        found[name] = _account(username)
    return found


def _problems(error: RuleError) -> str:
    return " ".join(
        f"{problem.field}: {problem.message}" if problem.field else str(problem.message)
        for problem in error.problems
    )


class Command(BaseCommand):
    help = (
        "Import a circle exported with export_circle as a new circle with new links. No "
        "account is made and none is attached unless mapped: --map-user NAME=ACCOUNT makes "
        "the account ACCOUNT here the export's member NAME, with NAME's role; --owner "
        "ACCOUNT makes an account here an owner. The circle needs an owner."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file export_circle wrote")
        parser.add_argument(
            "--map-user",
            action="append",
            default=[],
            metavar="NAME=ACCOUNT",
            help=(
                "the export's user NAME (a member, or a sheet's owner) is the account ACCOUNT "
                "here: it becomes a member with NAME's role, linked to NAME's player, and "
                "owns NAME's sheets; repeat for each person. Unmapped members are left out "
                "(their players stay, without an account)."
            ),
        )
        parser.add_argument(
            "--owner",
            metavar="ACCOUNT",
            help="an account here that owns the imported circle (besides mapped owners)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        accounts = _accounts(options["map_user"])
        owner = _account(options["owner"]) if options["owner"] else None
        path = options["file"]
        try:
            with open(path, "rb") as file:
                raw = file.read()
        except OSError as error:
            raise CommandError(
                one_line(_("Cannot read %(file)s: %(error)s") % {"file": path, "error": error})
            ) from error
        progress = self._progress if options["verbosity"] > 0 else None
        try:
            data = read_document(raw)
            del raw  # from here on only what the file says is kept (its bytes are freed)
            circle = import_circle(data, accounts=accounts, owner=owner, progress=progress)
        except NoOwner as error:
            raise CommandError(
                one_line(
                    _(
                        "%(file)s was not imported: nobody here would own the circle. Map one "
                        "of the export's owners (%(owners)s) to an account here with "
                        "--map-user NAME=ACCOUNT, or name an owner with --owner ACCOUNT."
                    )
                    % {"file": path, "owners": ", ".join(error.owners) or "–"}
                )
            ) from error
        except RuleError as error:
            raise CommandError(
                one_line(
                    _("%(file)s was not imported: %(problems)s")
                    % {"file": path, "problems": _problems(error)}
                )
            ) from error
        self._report(circle, data, accounts)

    def _progress(self, done: int, total: int) -> None:
        self.stderr.write(
            _("%(done)d/%(total)d sheets checked and stored") % {"done": done, "total": total}
        )

    def _report(self, circle: Circle, data: Mapping[str, Any], accounts: Mapping[str, Any]) -> None:
        self.stdout.write(
            _("Imported %(name)s as circle %(id)d.") % {"name": circle.name, "id": circle.pk}
        )
        mapped = {account: name for name, account in accounts.items()}
        members = [
            _("%(account)s (%(role)s, %(name)s in the export)")
            % {
                "account": m.user.get_username(),
                "role": m.get_role_display(),
                "name": mapped.get(m.user, "–"),
            }
            for m in circle.memberships.select_related("user").order_by("pk")
        ]
        self.stdout.write(_("Members: %(members)s.") % {"members": "; ".join(members)})
        left = [m["username"] for m in data["members"] if m["username"] not in accounts]
        if left:
            self.stdout.write(
                one_line(
                    _(
                        "Not attached, as no account here was mapped to them: %(names)s. Their "
                        "players are kept under their names, without an account; they join "
                        "with the circle's new invite link and say which player they are."
                    )
                    % {"names": ", ".join(left)}
                )
            )
        # The circle's club evenings (circles.transfer's parts), by the reverse relation
        # their app gives the circle.
        evenings = circle.evenings.count()
        if evenings:
            self.stdout.write(
                _("Club evenings: %(count)d, each with new organiser, view and player links.")
                % {"count": evenings}
            )
        self.stdout.write(
            _(
                "Every link is new: the export's invite link, the seasons' share links and "
                "the sheets' edit and view links open nothing here. Share the new ones from "
                "the circle's page: %(url)s"
            )
            % {"url": reverse("circles:circle", args=[circle.pk])}
        )
