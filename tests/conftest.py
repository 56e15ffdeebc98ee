import uuid

import pytest
from hypothesis import settings as hypothesis_settings

# Hypothesis's per-example deadline (200 ms) is a timed assertion: on a loaded two-core
# machine (CI runs the referee's tests beside the main suite) an example can take
# longer without anything being wrong, and speed is measured in bench/, not in tests.
# Everything else of Hypothesis's defaults stays.
hypothesis_settings.register_profile("scorekeeper", deadline=None)
hypothesis_settings.load_profile("scorekeeper")


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


_static_scans: dict[tuple, dict] = {}


def _scan_static_files_once() -> None:
    """WhiteNoise reads the whole static tree (some 500 files, each with its compressed
    copies) when its middleware is made, and the test client makes the middleware anew
    for every client: that was half of the time of a test that signs many people in.
    Here a process scans each tree once, under everything the scan depends on, and
    every later middleware gets the same files: what a server does, which makes its
    middleware once."""
    from django.conf import settings
    from whitenoise.base import WhiteNoise

    scan = WhiteNoise.update_files_dictionary

    def update_files_dictionary(self, root, prefix):
        key = (
            type(self),
            root,
            prefix,
            self.max_age,
            self.allow_all_origins,
            self.charset,
            self.index_file,
            self.add_headers_function,
            getattr(self, "static_prefix", None),
            repr(getattr(settings, "WHITENOISE_MIMETYPES", None)),
            getattr(settings, "WHITENOISE_IMMUTABLE_FILE_TEST", None),
            settings.STORAGES["staticfiles"]["BACKEND"],
        )
        files = _static_scans.get(key)
        if files is None:
            kept, self.files = self.files, {}
            try:
                scan(self, root, prefix)
                files = _static_scans[key] = self.files
            finally:
                self.files = kept
        self.files.update(files)

    WhiteNoise.update_files_dictionary = update_files_dictionary


def pytest_configure(config):
    if config.pluginmanager.hasplugin("django"):
        _scan_static_files_once()
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
