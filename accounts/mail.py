"""Mail to account holders: every mail the accounts send goes through ``send``.

- ``send`` renders a plain-text mail (a subject and a body template) and sends it,
  unless its address already got ``settings.RATE_LIMITS["mail-recipient"]`` mails in
  that limit's window, whoever asked for them: nobody can flood an inbox through the
  password-reset or sign-up forms. A mail held back, or one the mail server refused,
  changes nothing the asker sees: the page answers as always, and says nothing about
  which addresses have accounts.
- ``offer_email``, after a sign-up: the address typed is mailed a link to confirm it
  for the new account (``confirm_token``; ``accounts.views.EmailConfirmView`` keeps it
  on the account), or, when it already belongs to an account, its owner is told that
  someone signed up with it. The one signing up sees the same either way.
- ``UnsentMailBackend`` is ``EMAIL_BACKEND`` when no ``EMAIL_HOST`` is set and
  ``DEBUG`` is off (settings.py): nothing is sent, and one log line per mail names it
  by its subject, never its text: a reset link in a server log would let whoever
  reads the log take over the account. ``manage.py check`` warns of it
  (``scorekeeper.W001``, scorekeeper/checks.py).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from scorekeeper.security import hit

logger = logging.getLogger(__name__)

RECIPIENT_LIMIT = "mail-recipient"
CONFIRM_SALT = "accounts.email-confirm"


def valid_days() -> int:
    """How many days a link in a mail works (a reset link, a confirm link): what
    ``settings.PASSWORD_RESET_TIMEOUT`` allows, said in whole days."""
    return max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)


def send(
    to: str,
    *,
    subject_template: str,
    body_template: str,
    context: dict,
    from_email: str | None = None,
) -> bool:
    """Send one plain-text mail to ``to`` unless its address had its share (the
    module's docstring); whether it went out."""
    if not hit(RECIPIENT_LIMIT, to.strip().casefold()).allowed:
        logger.info(
            "Mail %r held back: its address reached RATE_LIMITS[%r]",
            body_template,
            RECIPIENT_LIMIT,
        )
        return False
    # A subject must not hold a line break.
    subject = "".join(render_to_string(subject_template, context).splitlines())
    body = render_to_string(body_template, context)
    try:
        EmailMessage(subject, body, from_email, [to]).send()
    except Exception:
        # The mail server is down or refused it: the page answers as always.
        logger.exception("Mail %r could not be sent", subject)
        return False
    return True


# -- confirming the e-mail given at sign-up ------------------------------------------------


def confirm_token(user: User, email: str) -> str:
    """A signed, dated token that gives ``email`` to ``user`` once its owner opens it."""
    return signing.dumps({"user": user.pk, "email": email}, salt=CONFIRM_SALT)


def read_confirm_token(token: str) -> tuple[User, str] | None:
    """The account and the e-mail of a token ``confirm_token`` made, or None when the
    token was changed, is older than ``PASSWORD_RESET_TIMEOUT`` or its account is
    gone or switched off."""
    try:
        found = signing.loads(token, salt=CONFIRM_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
        user = User.objects.get(pk=found["user"], is_active=True)
        email = str(found["email"])
    except (signing.BadSignature, KeyError, TypeError, ValueError, User.DoesNotExist):
        return None
    return user, email


def email_owner(email: str, *, besides: User | None = None) -> User | None:
    """The account that has ``email`` (in any case), other than ``besides``."""
    owners = User.objects.filter(email__iexact=email).order_by("pk")
    if besides is not None:
        owners = owners.exclude(pk=besides.pk)
    return owners.first()


def offer_email(request: HttpRequest, user: User, email: str) -> None:
    """After ``user`` signed up giving ``email``: mail the link that confirms it, or,
    when another account has it already, tell that account's owner instead."""
    owner = email_owner(email, besides=user)
    if owner is None:
        link = reverse("accounts:email-confirm", kwargs={"token": confirm_token(user, email)})
        send(
            email,
            subject_template="registration/email_confirm_subject.txt",
            body_template="registration/email_confirm_email.txt",
            context={
                "user": user,
                "email": email,
                "link": request.build_absolute_uri(link),
                "valid_days": valid_days(),
            },
        )
    else:
        send(
            owner.email,
            subject_template="registration/signup_taken_subject.txt",
            body_template="registration/signup_taken_email.txt",
            context={
                "user": owner,
                "login_link": request.build_absolute_uri(reverse("accounts:login")),
                "reset_link": request.build_absolute_uri(reverse("accounts:password-reset")),
            },
        )


# -- no mail server ------------------------------------------------------------------------


class UnsentMailBackend(BaseEmailBackend):
    """Sends nothing and logs one line per mail, with its subject only (the module's
    docstring)."""

    def send_messages(self, email_messages) -> int:
        for message in email_messages:
            logger.warning("Mail %r not sent: EMAIL_HOST is not set.", message.subject)
        return 0
