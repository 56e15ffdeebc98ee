from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Card games"

    def ready(self) -> None:
        # The referee's sentences are shown in the reader's language.
        from scorekeeper import i18n

        i18n.install()
