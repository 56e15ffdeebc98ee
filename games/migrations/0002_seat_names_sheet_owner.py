"""Names belong to their sheet; sheets know who started them and whether they are over.

Before this, one global ``Player`` per case-folded name meant that typing "ANA" on
one sheet changed how "Ana" was shown on everybody else's. Each seat now keeps the
name as it was shown on its sheet when this ran. ``deal_count`` and ``finished`` are
derived from the deals (replayed once here) and kept by every write from now on.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def copy_names(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    for seat in Seat.objects.select_related("player").iterator():
        seat.name = seat.player.name
        seat.save(update_fields=["name"])


def derive_counts(apps, schema_editor):
    # The registry replays with today's rules; a sheet that no longer replays keeps
    # its counts at zero and is shown as open, which loses nothing.
    from games.games import GAMES
    from games.rules.errors import RuleError

    Sheet = apps.get_model("games", "Sheet")
    Hand = apps.get_model("games", "Hand")
    for sheet in Sheet.objects.all().iterator():
        entry = GAMES.get(sheet.game)
        if entry is None:
            continue
        names = list(sheet.seats.order_by("position").values_list("name", flat=True))
        entries = list(
            Hand.objects.filter(sheet=sheet, removed_at__isnull=True)
            .order_by("number")
            .values_list("entry", flat=True)
        )
        try:
            options = entry.read_options(sheet.options, players=len(names))
            game_sheet = entry.new_sheet(
                names=names, first_dealer=sheet.first_dealer, options=options
            )
            for data in entries:
                game_sheet.add(entry.read_deal(data, players=len(names), options=options))
            state = game_sheet.state
        except RuleError:
            continue
        Sheet.objects.filter(pk=sheet.pk).update(
            deal_count=len(state.deals), finished=state.finished
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="name",
            field=models.CharField(default="", max_length=40),
            preserve_default=False,
        ),
        migrations.RunPython(copy_names, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="seat", name="one_seat_per_player"),
        migrations.RemoveField(model_name="seat", name="player"),
        migrations.DeleteModel(name="Player"),
        migrations.AddField(
            model_name="sheet",
            name="owner",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="sheets",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="sheet",
            name="deal_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="sheet",
            name="finished",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(derive_counts, migrations.RunPython.noop),
    ]
