"""A club evening: its roll, its series, each series' tables (each an ordinary sheet)
and what each player scored at their table.

The evening's rules (who sits where, how the ranking adds up) are pure Python in
``evenings.rules``; these models only keep what they decided, so that a page reads an
evening with a fixed number of queries and never replays a sheet.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Sheet, new_token


class Evening(models.Model):
    SKAT = "skat"
    PITCH = "pitch"
    GAMES = ((SKAT, "Skat"), (PITCH, "10-Point Pitch"))
    FOURS_FIRST = "fours_first"
    THREES_FIRST = "threes_first"
    ORDERS = ((FOURS_FIRST, _("Tables of four first")), (THREES_FIRST, _("Tables of three first")))

    name = models.CharField(_("name"), max_length=80)
    played_on = models.DateField(_("date"))
    game = models.CharField(_("game"), max_length=10, choices=GAMES, default=SKAT)
    circle = models.ForeignKey(
        "circles.Circle",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        # The circle page lists its evenings through this name (circles never imports
        # evenings).
        related_name="evenings",
    )
    series_count = models.PositiveSmallIntegerField(_("series"), default=3)
    # {"3": 36, "4": 48, "5": 60}: evenings.rules.seating.SeriesDeals.as_dict()
    series_deals = models.JSONField(default=dict)
    table_order = models.CharField(max_length=12, choices=ORDERS, default=FOURS_FIRST)
    # Pitch: the players over a multiple of four sit out in turn (otherwise such a roll
    # is refused).
    sit_out = models.BooleanField(default=False)
    # Pitch: how the players move between rounds (issue 21): each round drawn like a
    # series ("lot", the organiser's draw form), or by evenings.rules.movement:
    # "progressive" (winners up a table, partners split) or "rotation" (a fixed
    # schedule, everyone partners everyone once; 4 to 16 players).
    LOT = "lot"
    PROGRESSIVE = "progressive"
    ROTATION = "rotation"
    MOVEMENTS = (
        (LOT, _("Drawn for each round")),
        (PROGRESSIVE, _("Progressive")),
        (ROTATION, _("Rotation")),
    )
    movement = models.CharField(max_length=12, choices=MOVEMENTS, default=LOT)
    # Pitch: what a player's total adds up (evenings.rules.pitch_night.MODES): their
    # teams' scores, or match points as duplicate events count them.
    POINTS = "points"
    MATCH_POINTS = "match_points"
    COUNTS = ((POINTS, _("Points")), (MATCH_POINTS, _("Match points")))
    counts = models.CharField(max_length=12, choices=COUNTS, default=POINTS)
    # Pitch: when a round ends at a table: its game reaches the target (the sheets'
    # target), after a number of hands, or when the organiser calls time (the hand in
    # play is finished).
    TO_TARGET = "target"
    HANDS = "hands"
    MINUTES = "minutes"
    ROUND_FORMATS = (
        (TO_TARGET, _("To the target")),
        (HANDS, _("A number of hands")),
        (MINUTES, _("Minutes")),
    )
    round_format = models.CharField(max_length=8, choices=ROUND_FORMATS, default=TO_TARGET)
    # Pitch: the house rules of every table's sheet (games.rules.pitch.PitchOptions, as
    # a new sheet's options; {} for the usual game to 52).
    pitch_options = models.JSONField(default=dict, blank=True)
    round_hands = models.PositiveSmallIntegerField(null=True, blank=True)
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # The money rules as api.md writes them (evenings.rules.money.MoneyRules.as_dict());
    # {} for an evening without money. Read back through read_rules, which checks them.
    money = models.JSONField(default=dict, blank=True)
    organiser_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # One more with every write to the evening (the API's ETag and If-Match).
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-played_on", "-pk")

    def __str__(self) -> str:
        return self.name

    @property
    def target(self) -> int:
        """Pitch: the target of the tables' games."""
        target = (self.pitch_options or {}).get("target")
        return target if isinstance(target, int) and not isinstance(target, bool) else 52


class EveningPlayer(models.Model):
    """A player on the evening's roll: a circle player (circle evenings) or a name
    typed at the door. ``left`` players keep their results but are not drawn again."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    circle_player = models.ForeignKey(
        "circles.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    left = models.BooleanField(default=False)
    # A team of four or a tandem of two, by name ("" for none), and categories such as
    # women, juniors, seniors: each gets its own list (evenings.rules.ranking).
    team = models.CharField(_("team"), max_length=40, blank=True, default="")
    tags = models.JSONField(default=list, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    # The player's own link (p/<token>/): their table, their place and their bill, on
    # their phone; nobody else's bill.
    token = models.CharField(max_length=64, unique=True, default=new_token)

    class Meta:
        ordering = ("pk",)
        constraints = (
            models.UniqueConstraint(fields=("evening", "name"), name="evening_player_name_once"),
        )

    def __str__(self) -> str:
        return self.name


class Series(models.Model):
    """One series of the evening: how it was drawn (the seed shown, so anyone can
    check it), its swaps and whether it is over."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="series")
    number = models.PositiveSmallIntegerField()
    # "lot" or "seeded"; a Pitch night's movement: "progressive" or "rotation".
    method = models.CharField(max_length=12)
    seed = models.PositiveIntegerField(null=True, blank=True)
    keep_apart = models.BooleanField(default=False)
    attempt = models.PositiveSmallIntegerField(default=0)
    # [{"first": player id, "second": player id, "at": ISO time}]
    swaps = models.JSONField(default=list)
    # Player ids sitting this series out (Pitch, in turn).
    sitting_out = models.JSONField(default=list)
    # Pitch, a round of minutes: when the organiser called time.
    time_called_at = models.DateTimeField(null=True, blank=True)
    closed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("evening", "number")
        verbose_name_plural = "series"
        constraints = (
            models.UniqueConstraint(fields=("evening", "number"), name="series_number_once"),
        )

    def __str__(self) -> str:
        return f"series {self.number} of {self.evening_id}"


class EveningTable(models.Model):
    """A table of a series: its sheet (the table link is the sheet's edit link), or a
    paper list whose result the organiser typed."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()
    sheet = models.OneToOneField(
        Sheet, on_delete=models.PROTECT, related_name="evening_table", null=True, blank=True
    )
    deals = models.PositiveSmallIntegerField(default=0)
    of = models.PositiveSmallIntegerField()
    paper = models.BooleanField(default=False)
    done = models.BooleanField(default=False)
    signed_at = models.DateTimeField(null=True, blank=True)
    last_entry_at = models.DateTimeField(null=True, blank=True)
    # Pitch: the team that won the table's round, 0 (seats 1 and 3) or 1 (seats 2 and
    # 4): its sheet's winner once finished, or from a tally card (the organiser's
    # choice when the two scores are level). The progressive movement moves it up.
    winning_team = models.PositiveSmallIntegerField(null=True, blank=True)
    # Pitch: the number of hands after which the table's round ends: the night's hands
    # (a round of hands), or when time is called the hand in play, one more (a round of
    # minutes; the hands so far when the organiser ends a table between hands). None
    # while the round runs to the target or the clock.
    ends_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # Pitch: the organiser's winner of a round that ended level (0 or 1).
    level_winner = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ("series", "number")
        constraints = (
            models.UniqueConstraint(fields=("series", "number"), name="table_number_once"),
        )

    def __str__(self) -> str:
        return f"table {self.number} of series {self.series_id}"


class TableSeat(models.Model):
    """A player's seat at a table, and what they scored there this series."""

    table = models.ForeignKey(EveningTable, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(EveningPlayer, on_delete=models.PROTECT, related_name="seats")
    points = models.IntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    others_lost = models.PositiveIntegerField(default=0)
    signed = models.BooleanField(default=False)

    class Meta:
        ordering = ("table", "position")
        constraints = (
            models.UniqueConstraint(fields=("table", "position"), name="table_seat_once"),
        )

    def __str__(self) -> str:
        return f"seat {self.position} of table {self.table_id}"


class EveningChange(models.Model):
    """A change to a table after it was signed: what changed in the ranking."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="changes")
    table = models.ForeignKey(EveningTable, on_delete=models.CASCADE, related_name="changes")
    # [{"player": id, "name": "…", "before": score, "after": score,
    #   "place_before": n, "place_after": n}]
    moves = models.JSONField(default=list)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-at", "-pk")

    def __str__(self) -> str:
        return f"change to table {self.table_id}"


class Payment(models.Model):
    """Money a player handed over (cash), marked by the organiser. Undone, it stays in
    the history with who undid it and when."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="payments")
    player = models.ForeignKey(EveningPlayer, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    at = models.DateTimeField(auto_now_add=True)
    # Who marked it: a signed-in organiser's name, or "organiser link" / "API".
    by = models.CharField(max_length=150, blank=True, default="")
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        ordering = ("at", "pk")

    def __str__(self) -> str:
        return f"{self.amount} from player {self.player_id}"


class BillChange(models.Model):
    """A correction to a table's deals that changed what a player owes: the evening's
    history says so (lost games as declarer, and the fee, before and after)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="bill_changes")
    player = models.ForeignKey(EveningPlayer, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(EveningTable, on_delete=models.CASCADE, related_name="+")
    # The sheet's change: "corrected", "removed" or "restored".
    change = models.CharField(max_length=12)
    lost_before = models.PositiveIntegerField()
    lost_after = models.PositiveIntegerField()
    fee_before = models.DecimalField(max_digits=12, decimal_places=2)
    fee_after = models.DecimalField(max_digits=12, decimal_places=2)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("at", "pk")

    def __str__(self) -> str:
        return f"bill of player {self.player_id}: {self.fee_before} → {self.fee_after}"
