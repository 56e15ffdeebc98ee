import django.utils.timezone
from django.db import migrations, models


def date_existing_sheets(apps, schema_editor):
    """A sheet from before this field was played on the day it was started (in the
    server's time zone); one kept in a circle on the day its circle dated it."""
    Sheet = apps.get_model("games", "Sheet")
    for sheet in Sheet.objects.only("pk", "created_at").iterator():
        day = django.utils.timezone.localdate(sheet.created_at)
        Sheet.objects.filter(pk=sheet.pk).update(played_on=day)
    try:
        CircleSheet = apps.get_model("circles", "CircleSheet")
    except LookupError:
        # The circles app is not (yet) in this database: no sheet is dated by one.
        return
    for sheet_id, played_on in CircleSheet.objects.values_list("sheet_id", "played_on"):
        Sheet.objects.filter(pk=sheet_id).update(played_on=played_on)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_sheet_snapshot"),
    ]

    operations = [
        migrations.AddField(
            model_name="sheet",
            name="played_on",
            field=models.DateField(
                default=django.utils.timezone.localdate, verbose_name="played on"
            ),
        ),
        migrations.RunPython(date_existing_sheets, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="sheetevent",
            name="kind",
            field=models.CharField(
                choices=[
                    ("started", "Sheet started"),
                    ("entered", "Entered"),
                    ("corrected", "Corrected"),
                    ("removed", "Deleted"),
                    ("undone", "Undone"),
                    ("restored", "Brought back"),
                    ("recovered", "Restored from the history"),
                    ("deleted", "Sheet moved to the trash"),
                    ("undeleted", "Sheet brought back from the trash"),
                    ("links", "New links made"),
                    ("dated", "Day played changed"),
                ],
                max_length=12,
            ),
        ),
    ]
