import pytest


@pytest.fixture(autouse=True)
def _plain_static_storage(request):
    """Tests do not depend on a fresh collectstatic manifest.

    The referee's tests run without Django too (``-p no:django``), so this only
    applies where pytest-django is loaded.
    """
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    yield
