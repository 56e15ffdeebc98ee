"""The shared cache (the rate-limit counters) holds plain JSON, never a pickle.

Django's ``DatabaseCache`` and ``RedisCache`` store values as pickles and load them
with ``pickle.loads``: whoever can write a row of the cache table (or a Redis key)
could make every worker run code of their choosing. Here values are JSON instead:

- ``PlainSerializer`` turns a value into JSON and back, and refuses anything else
  (a pickle, ``NaN``, text that is not JSON). The Redis cache takes it as its
  ``serializer`` option (settings.CACHES); integers stay plain numbers there, so
  Redis's ``INCR`` still works on them.
- ``PlainDatabaseCache`` is Django 5.2's ``DatabaseCache`` with the serializer in place
  of pickle where a row's value is read (``get_many``, which ``get``, ``incr`` and
  ``get_or_set`` go through) and written (``_base_set``, behind ``set``, ``add``,
  ``touch`` and ``set_many``). A row that is not plain JSON is taken for a missing one
  and deleted, as an expired one is; rows from before (pickles) are simply forgotten.

What can be stored: ``None``, booleans, numbers, text, and lists and dicts (with text
keys) of those; a tuple comes back as a list. Anything else raises ``TypeError`` on
``set``, instead of being pickled.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.db import DatabaseError, connections, models, router, transaction
from django.utils.timezone import now as tz_now

logger = logging.getLogger(__name__)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not plain JSON")


class PlainSerializer:
    """Values to JSON (UTF-8 bytes) and back; ``loads`` raises ``ValueError`` for
    anything that is not plain JSON. Works as Django's Redis ``serializer`` too."""

    def dumps(self, value) -> bytes:
        return self.dumps_text(value).encode()

    def loads(self, data: bytes | str):
        if isinstance(data, bytes):
            data = data.decode()  # a UnicodeDecodeError is a ValueError
        return json.loads(data, parse_constant=_refuse_constant)

    @staticmethod
    def dumps_text(value) -> str:
        return json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))


class PlainDatabaseCache(DatabaseCache):
    """Django's database cache with JSON rows (the module's docstring).

    ``get_many`` and ``_base_set`` follow Django 5.2's own, line for line, but for the
    one line each that loads or dumps a value, and ``_base_set`` counts the rows (to
    cull the oldest past MAX_ENTRIES) only before it inserts one: Django counts them
    at every write, a scan of the table on every rate-limited request.
    """

    serializer = PlainSerializer()

    def get_many(self, keys, version=None):
        if not keys:
            return {}

        key_map = {self.make_and_validate_key(key, version=version): key for key in keys}

        db = router.db_for_read(self.cache_model_class)
        connection = connections[db]
        quote_name = connection.ops.quote_name
        table = quote_name(self._table)

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT {}, {}, {} FROM {} WHERE {} IN ({})".format(
                    quote_name("cache_key"),
                    quote_name("value"),
                    quote_name("expires"),
                    table,
                    quote_name("cache_key"),
                    ", ".join(["%s"] * len(key_map)),
                ),
                list(key_map),
            )
            rows = cursor.fetchall()

        result = {}
        dropped_keys = []
        expression = models.Expression(output_field=models.DateTimeField())
        converters = connection.ops.get_db_converters(expression) + expression.get_db_converters(
            connection
        )
        for key, value, expires in rows:
            for converter in converters:
                expires = converter(expires, expression, connection)
            if expires < tz_now():
                dropped_keys.append(key)
                continue
            try:
                result[key_map.get(key)] = self.serializer.loads(connection.ops.process_clob(value))
            except (ValueError, TypeError):
                # Not written by this cache: taken for a missing row, and dropped.
                logger.warning("Cache row %r is not plain JSON: dropped, never loaded", key)
                dropped_keys.append(key)
        self._base_delete_many(dropped_keys)
        return result

    def _base_set(self, mode, key, value, timeout=DEFAULT_TIMEOUT):
        # Serialised first, before any query: a value JSON cannot hold raises TypeError.
        text = self.serializer.dumps_text(value)
        timeout = self.get_backend_timeout(timeout)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote_name = connection.ops.quote_name
        table = quote_name(self._table)

        with connection.cursor() as cursor:
            now = tz_now()
            now = now.replace(microsecond=0)
            if timeout is None:
                exp = datetime.max
            else:
                tz = UTC if settings.USE_TZ else None
                exp = datetime.fromtimestamp(timeout, tz=tz)
            exp = exp.replace(microsecond=0)
            try:
                with transaction.atomic(using=db):
                    cursor.execute(
                        "SELECT {}, {} FROM {} WHERE {} = %s".format(
                            quote_name("cache_key"),
                            quote_name("expires"),
                            table,
                            quote_name("cache_key"),
                        ),
                        [key],
                    )
                    result = cursor.fetchone()

                    if result:
                        current_expires = result[1]
                        expression = models.Expression(output_field=models.DateTimeField())
                        for converter in connection.ops.get_db_converters(
                            expression
                        ) + expression.get_db_converters(connection):
                            current_expires = converter(current_expires, expression, connection)

                    exp = connection.ops.adapt_datetimefield_value(exp)
                    if result and mode == "touch":
                        cursor.execute(
                            "UPDATE {} SET {} = %s WHERE {} = %s".format(
                                table, quote_name("expires"), quote_name("cache_key")
                            ),
                            [exp, key],
                        )
                    elif result and (mode == "set" or (mode == "add" and current_expires < now)):
                        cursor.execute(
                            "UPDATE {} SET {} = %s, {} = %s WHERE {} = %s".format(
                                table,
                                quote_name("value"),
                                quote_name("expires"),
                                quote_name("cache_key"),
                            ),
                            [text, exp, key],
                        )
                    elif mode != "touch":
                        # Only a new row can take the table past its size: the rows are
                        # counted (and the oldest culled) then, not at every update of a
                        # rate-limit counter (a count of up to MAX_ENTRIES rows, inside
                        # SQLite's one write lock, on every request).
                        cursor.execute(f"SELECT COUNT(*) FROM {table}")
                        num = cursor.fetchone()[0]
                        if num > self._max_entries:
                            self._cull(db, cursor, now, num)
                        cursor.execute(
                            "INSERT INTO {} ({}, {}, {}) VALUES (%s, %s, %s)".format(
                                table,
                                quote_name("cache_key"),
                                quote_name("value"),
                                quote_name("expires"),
                            ),
                            [key, text, exp],
                        )
                    else:
                        return False  # touch failed.
            except DatabaseError:
                # To be threadsafe, updates/inserts are allowed to fail silently
                return False
            else:
                return True
