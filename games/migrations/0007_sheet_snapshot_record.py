"""A sheet keeps its engine's running counts as a plain JSON record instead of the pickled
engine (games.snapshots): a few hundred bytes a sheet instead of some 24 KB, and nothing
read back can run code. The pickles are a cache, so they are dropped, not converted:
each sheet replays its deals once, on its next view or write, and keeps a record then."""

from django.db import migrations, models


def drop_kept_engines(apps, schema_editor):
    apps.get_model("games", "SheetSnapshot").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_idempotency_answers_compact"),
    ]

    operations = [
        migrations.RunPython(drop_kept_engines, migrations.RunPython.noop, elidable=True),
        # A new column rather than a changed one: PostgreSQL cannot cast bytea to jsonb.
        migrations.RemoveField(model_name="sheetsnapshot", name="engine"),
        migrations.AddField(
            model_name="sheetsnapshot",
            name="engine",
            field=models.JSONField(default=dict),
            preserve_default=False,
        ),
    ]
