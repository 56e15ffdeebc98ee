from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CirclesConfig(AppConfig):
    name = "circles"
    verbose_name = _("Circles and seasons")

    def ready(self) -> None:
        # Keep what each sheet contributes to its season in step with its deals.
        from circles import receivers  # noqa: F401
