"""``manage.py import_circle FILE``: read a circle written by ``export_circle``.

Passwords are never exported: a member whose account is new here gets one without a
usable password, and the command names those members and says how they set one."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from circles.transfer import import_circle
from games.rules.errors import RuleError


class Command(BaseCommand):
    help = "Import a circle exported with export_circle (into a database that lacks it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file export_circle wrote")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["file"], encoding="utf-8") as file:
                data = json.load(file)
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from error
        try:
            circle = import_circle(data)
        except RuleError as error:
            raise CommandError(" ".join(p.message for p in error.problems)) from error
        self.stdout.write(f"Imported {circle.name} as circle {circle.pk}.")
        without = sorted(
            m.user.get_username()
            for m in circle.memberships.select_related("user")
            if not m.user.has_usable_password()
        )
        if without:
            self.stdout.write(
                ngettext(
                    "%(count)d member account was made without a password: %(names)s.",
                    "%(count)d member accounts were made without a password: %(names)s.",
                    len(without),
                )
                % {"count": len(without), "names": ", ".join(without)}
            )
            self.stdout.write(
                _(
                    "They cannot log in yet. Each of them opens the log-in page, taps "
                    "“Forgot your password?” (%(url)s) and gives the e-mail address of the "
                    "export; the mail's link sets a new password. For an account without an "
                    "e-mail address, run: manage.py changepassword USERNAME"
                )
                % {"url": reverse("accounts:password-reset")}
            )
