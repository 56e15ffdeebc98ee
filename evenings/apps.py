from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EveningsConfig(AppConfig):
    name = "evenings"
    verbose_name = _("Club evenings")

    def ready(self) -> None:
        # Keep each table's series result in step with its sheet's deals.
        from evenings import receivers  # noqa: F401
