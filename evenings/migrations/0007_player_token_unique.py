# The player's link is unique, once every player has one (0006 gave them); a migration
# of its own, so that PostgreSQL alters the table after the rows are written.

from django.db import migrations, models

import games.models


class Migration(migrations.Migration):
    dependencies = [
        ("evenings", "0006_money"),
    ]

    operations = [
        migrations.AlterField(
            model_name="eveningplayer",
            name="token",
            field=models.CharField(default=games.models.new_token, max_length=64, unique=True),
        ),
    ]
