"""WSGI entry point for gunicorn: ``gunicorn scorekeeper.wsgi``."""

import os
import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

try:
    application = get_wsgi_application()
except ImproperlyConfigured as refused:
    # A setting read from the environment: one line naming the variable.
    sys.exit(f"Scorekeeper cannot start: {refused}")
