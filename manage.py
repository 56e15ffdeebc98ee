#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as refused:
        # A setting read from the environment (DEBUG=maybe, PORT=abc): one line that
        # names the variable, not a traceback through Django's start.
        sys.exit(f"Scorekeeper cannot start: {refused}")


if __name__ == "__main__":
    main()
