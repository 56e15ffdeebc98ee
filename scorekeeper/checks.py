"""System checks of the deployment's settings (``manage.py check``, also ``--deploy``).

- ``scorekeeper.W001``: no mail server (``EMAIL_HOST``) with ``DEBUG`` off, so account
  mail (password reset, confirming the e-mail given at sign-up) is not sent. The pages
  cannot say so without telling who has an account; this check and one log line per
  unsent mail tell the operator (``accounts.mail.UnsentMailBackend``).
- ``scorekeeper.W002``: ``TRUSTED_PROXY_HOPS`` is set, which is no longer read: the
  proxies trusted with ``X-Forwarded-For`` are named in ``FORWARDED_ALLOW_IPS``
  (scorekeeper/security.py).

Registered by ``accounts.apps.AccountsConfig.ready``.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.checks import Warning
from django.utils.module_loading import import_string


def mail_can_be_sent(app_configs=None, **kwargs) -> list[Warning]:
    from accounts.mail import UnsentMailBackend

    if not issubclass(import_string(settings.EMAIL_BACKEND), UnsentMailBackend):
        return []
    return [
        Warning(
            "Password-reset mail cannot be sent: EMAIL_HOST is not set.",
            hint=(
                "Set EMAIL_HOST to an SMTP server (and EMAIL_HOST_USER, "
                "EMAIL_HOST_PASSWORD, DEFAULT_FROM_EMAIL as it needs). Until then no "
                "account mail goes out and the log names each unsent one, without its "
                "link; a user's password can be set with `manage.py changepassword`. "
                "With DEBUG=1 mail is printed to the console instead."
            ),
            id="scorekeeper.W001",
        )
    ]


def proxy_hops_not_read(app_configs=None, **kwargs) -> list[Warning]:
    if "TRUSTED_PROXY_HOPS" not in os.environ:
        return []
    return [
        Warning(
            "TRUSTED_PROXY_HOPS is set but no longer read.",
            hint=(
                "Name the proxies in front in FORWARDED_ALLOW_IPS (addresses or networks, "
                "default 127.0.0.1): X-Forwarded-For counts only on a connection from one "
                "of them, read from the right past every one of them."
            ),
            id="scorekeeper.W002",
        )
    ]
