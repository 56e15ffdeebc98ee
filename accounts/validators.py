"""Django's password checks, saying what is wrong in the app's own words.

Django 5.2 reworded its "too short" message, and its Esperanto catalogue has only the
old wording, so an Esperanto reader met it in English; Django's German for "too similar"
lacks its article ("zu ähnlich zu Benutzername"). The checks themselves are Django's.
"""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short: it needs at least %(min_length)d character.",
            "This password is too short: it needs at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}


class UserAttributeSimilarityValidator(password_validation.UserAttributeSimilarityValidator):
    def get_error_message(self) -> str:
        # Translators: %(verbose_name)s is a field's name, such as "user name" or "email
        # address"; Django fills it in.
        return _("This password is too much like your %(verbose_name)s.")
