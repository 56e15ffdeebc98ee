"""An Idempotency-Key keeps its answer whole only up to 16 KB (games.services.KEPT_BYTES);
a larger one keeps its short members and is marked compact (its retry reads the resource
again). The answers kept whole before are made compact here, so the table shrinks at
once instead of as they expire (a whole sheet could take 263 KB a key)."""

import json

from django.db import migrations, models

# As games.services keeps them today (copied: a migration must not change with the code).
KEPT_BYTES = 16 * 1024
SHORT_BYTES = 1024


def compact_kept_answers(apps, schema_editor):
    IdempotencyKey = apps.get_model("games", "IdempotencyKey")
    rows = IdempotencyKey.objects.filter(compact=False).only("pk", "response")
    for row in rows.iterator(chunk_size=100):
        body = row.response
        if not isinstance(body, dict) or len(json.dumps(body)) <= KEPT_BYTES:
            continue
        short, room = {}, KEPT_BYTES
        for name, value in body.items():
            size = len(json.dumps({name: value}))
            if size <= SHORT_BYTES and size <= room:
                short[name] = value
                room -= size
        IdempotencyKey.objects.filter(pk=row.pk).update(response=short, compact=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_sheet_played_on"),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotencykey",
            name="compact",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(compact_kept_answers, migrations.RunPython.noop, elidable=True),
    ]
