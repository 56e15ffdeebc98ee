from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.core import checks

        from scorekeeper.checks import mail_can_be_sent, proxy_hops_not_read

        checks.register(mail_can_be_sent)
        checks.register(proxy_hops_not_read)
