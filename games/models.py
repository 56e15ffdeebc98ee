"""Score sheets. A sheet stores what was entered; every score is derived by replay.

- ``Sheet``: one game at one table, with its options and two unguessable tokens, and
  the account that started it (none for a sheet started without signing in).
- ``Seat``: who sits where on a sheet (seat order matters for dealing and teams), by
  the name typed for this sheet. A name belongs to its sheet alone: typing "ANA" here
  changes nothing on anybody else's sheet. A person across sheets is a circle's
  player (the ``circles`` app links seats to them; ``games`` never needs to know).
- ``Hand``: one deal, its input exactly as entered (the API's JSON). Removing the
  last deal keeps the row (``removed_at``) so that the undo can be undone.
- ``SheetEvent``: the history of a sheet, every change with before and after.
- ``IdempotencyKey``: the first answer to a request, so that a retry (a double tap,
  a phone on a bad connection) gets the same answer and stores nothing new; kept
  for 30 days (a phone may keep a deal offline for days), answered only to the link,
  account or client that sent it, and whole only when small (a large answer keeps
  its short members; its retry reads the resource again).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    # 32 random bytes: unguessable, and short enough for a QR code.
    return secrets.token_urlsafe(32)


class Sheet(models.Model):
    game = models.CharField(max_length=20)
    options = models.JSONField(default=dict)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    # Who started the sheet while signed in; None for a sheet kept by its edit link alone.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="sheets",
    )
    # Bumped by every change: the ETag of the sheet's pages and the read-only poll.
    version = models.PositiveIntegerField(default=0)
    # Derived from the deals and written with them (lists show open sheets first
    # without replaying any): how many deals are on the sheet, and whether it is over.
    deal_count = models.PositiveIntegerField(default=0)
    finished = models.BooleanField(default=False)
    # The day the game was played (a paper list entered the next day still counts for
    # its evening): today in the server's time zone unless the starter says otherwise.
    played_on = models.DateField(_("played on"), default=timezone.localdate)
    # In the trash since then (restorable for TRASH_DAYS), or None.
    deleted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-updated_at",)

    def __str__(self) -> str:
        return f"{self.game} sheet {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:sheet", args=[self.edit_token])

    def get_view_url(self) -> str:
        return reverse("games:sheet-view", args=[self.view_token])


class SheetSnapshot(models.Model):
    """The game engine's running counts as the last write left them (before the deals
    the sheet page lists, and after each of them), and the sheet version they belong to.

    A cache, never a record: the next deal, its preview and the sheet page start from
    it instead of replaying the sheet (``games.snapshots``); when it is missing, old,
    written by other rules code or not a record the engine takes, the deals are
    replayed and it is written again. ``engine`` is plain JSON (``snapshots.dump``), a
    few hundred bytes whatever the sheet's length. Its own table, so that lists of
    sheets never load it."""

    sheet = models.OneToOneField(
        Sheet, on_delete=models.CASCADE, primary_key=True, related_name="snapshot"
    )
    version = models.PositiveIntegerField()
    engine = models.JSONField()

    def __str__(self) -> str:
        return f"snapshot of sheet {self.sheet_id} at version {self.version}"


class Seat(models.Model):
    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ("position",)
        constraints = (
            models.UniqueConstraint(fields=["sheet", "position"], name="one_player_per_seat"),
        )

    def __str__(self) -> str:
        return f"seat {self.position + 1}: {self.name}"


class Hand(models.Model):
    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    entry = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("number",)
        constraints = (
            models.UniqueConstraint(
                fields=["sheet", "number"],
                condition=Q(removed_at__isnull=True),
                name="one_live_hand_per_number",
            ),
        )
        indexes = (models.Index(fields=["sheet", "removed_at", "number"]),)

    def __str__(self) -> str:
        return f"hand {self.number} of sheet {self.sheet_id}"


class SheetEvent(models.Model):
    """One change to a sheet, kept for its history: what, when, by which link or
    account, and the deal before and after. A deal that was deleted or overwritten
    can be brought back from here."""

    STARTED = "started"
    ENTERED = "entered"
    CORRECTED = "corrected"
    REMOVED = "removed"
    UNDONE = "undone"
    RESTORED = "restored"
    RECOVERED = "recovered"
    DELETED = "deleted"
    UNDELETED = "undeleted"
    LINKS = "links"
    DATED = "dated"
    HANDS = "hands"
    KINDS = (
        (STARTED, _("Sheet started")),
        (ENTERED, _("Entered")),
        (CORRECTED, _("Corrected")),
        (REMOVED, _("Deleted")),
        (UNDONE, _("Undone")),
        (RESTORED, _("Brought back")),
        (RECOVERED, _("Restored from the history")),
        (DELETED, _("Sheet moved to the trash")),
        (UNDELETED, _("Sheet brought back from the trash")),
        (LINKS, _("New links made")),
        (DATED, _("Day played changed")),
        (HANDS, _("Number of hands set")),
    )

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=12, choices=KINDS)
    number = models.PositiveIntegerField(null=True, blank=True)
    hand = models.ForeignKey(
        "Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # Who: the account when signed in, and the way in ("edit link", "API").
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="sheet_events",
    )
    via = models.CharField(max_length=10, default="link")
    # The history entry a recovery came from (a deal is brought back once).
    recovered = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-at", "-pk")
        indexes = (models.Index(fields=["sheet", "-at"]),)

    def __str__(self) -> str:
        return f"{self.kind} on sheet {self.sheet_id}"


class IdempotencyKey(models.Model):
    # "sheets:<who>" for creating a sheet (an account, or without one a digest of the
    # client: its address for the API, its CSRF secret for a browser's form),
    # "sheet:<id>:<link>" for a sheet's writes: a key is only ever answered to the
    # link, account or client that sent it. ("chores" holds games.cleanup's mark.)
    scope = models.CharField(max_length=80)
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64)  # sha256 of method, path and body
    status = models.PositiveSmallIntegerField()
    # The answer, whole up to services.KEPT_BYTES; of a larger one (a whole sheet) only
    # its short members, marked compact: its retry reads the resource as it is now.
    response = models.JSONField()
    compact = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["scope", "key"], name="one_answer_per_key"),)
        indexes = (models.Index(fields=["created_at"]),)

    def __str__(self) -> str:
        return f"{self.key} in {self.scope}"
