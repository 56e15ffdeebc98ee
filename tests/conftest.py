import uuid

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
    # Password hashing is slow on purpose; the tests make many accounts and check
    # behaviour, not the hash's strength.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Slow referee work runs in the test's own process (tests/test_offload.py tries the
    # helper process).
    settings.REFEREE_PROCESSES = 0
    # A request leaves its language active in the thread (LocaleMiddleware activates
    # it and nothing deactivates it): each test starts in the default language.
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "rate_limits: the real rate limits apply (elsewhere they are off)"
    )


@pytest.fixture(autouse=True)
def _rate_limits(request):
    """The rate limits (settings.RATE_LIMITS) are off in the plain Django tests, which
    send hundreds of API requests from one client (the fuzz tests, some without a
    database, where the counters live). They are on, as configured, in the browser
    tests (play at a table must never meet them) and wherever a test is marked
    ``rate_limits`` (tests/test_throttle.py), each such test with counters of its own.
    """
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    settings = request.getfixturevalue("settings")
    if request.node.get_closest_marker("rate_limits") or request.node.get_closest_marker("browser"):
        # A key prefix of its own: counters of earlier tests (which a transactional
        # test's flush leaves in the cache table) do not count here.
        settings.CACHES = {
            alias: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
            for alias, config in settings.CACHES.items()
        }
    else:
        settings.RATE_LIMITS = {}
    yield
