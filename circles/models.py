"""Circles: the people who play together, their seasons and what each sheet adds.

- ``Circle``: a group with owners and members, joined by an invite link the owners
  can rotate.
- ``Membership``: an account in a circle, as owner or member.
- ``Player``: a person of one circle, the same across all its sheets; may be linked
  to a member's account, may be a guest (left out of standings unless asked for),
  and chooses how the name is shown outside the circle.
- ``CircleSheet``: a score sheet (``games.Sheet``) kept in a circle, with the day it
  was played and whether it counts (a practice game does not).
- ``SeatPlayer``: which of the circle's players sat at which seat of such a sheet.
- ``Season``: a period of the circle; every counted sheet played in it counts, under
  the season's club rules for Skat. Its view token lets people outside the circle
  read the standings.
- ``SheetResult``: what one seat of one sheet contributes to standings, derived from
  the deals and written in the same transaction as the deal that changes it, so a
  standings request never replays a season.
- ``StandingsChange``: a change to a finished sheet that moved its contributions
  (a correction after the evening), shown on the standings page.

``games`` never imports this app: it announces every change to a sheet with the
``games.signals.sheet_changed`` signal, and ``circles.receivers`` keeps the results.
"""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Sheet


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Circle(models.Model):
    name = models.CharField(_("name"), max_length=60)
    invite_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="circles"
    )
    # The money rules its club evenings usually start with (as api.md writes an
    # evening's "money"; {} for none). The evenings app reads and checks them.
    evening_money = models.JSONField(default=dict, blank=True)
    # Moves with every write that changes what a standings page, the standings API,
    # the CSV or a player page shows (circles.standings_cache): they keep what they
    # computed by this number, so a read costs the same at 5,000 sheets as at 10.
    standings_version = models.PositiveBigIntegerField(default=0, editable=False)
    # The standings version the players' totals (PlayerTotals, PlayerContribution) were
    # last brought to (circles.player_totals): a player page reads them only when it is
    # the circle's version; null until the circle's first write after they came.
    players_kept_at = models.PositiveBigIntegerField(null=True, editable=False)

    class Meta:
        ordering = ("name", "pk")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("circles:circle", args=[self.pk])


class Membership(models.Model):
    OWNER = "owner"
    MEMBER = "member"
    ROLES = ((OWNER, _("Owner")), (MEMBER, _("Member")))

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=ROLES, default=MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("joined_at", "pk")
        constraints = (
            models.UniqueConstraint(fields=["circle", "user"], name="one_membership_per_user"),
        )

    def __str__(self) -> str:
        return f"{self.user} in {self.circle} ({self.role})"

    @property
    def is_owner(self) -> bool:
        return self.role == self.OWNER


class Player(models.Model):
    FULL = "full"
    FIRST = "first"
    INITIALS = "initials"
    SHOWN_AS = (
        (FULL, _("Full name")),
        (FIRST, _("First name only")),
        (INITIALS, _("Initials")),
    )

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    # Case-folded: "ana" typed on a circle's sheet is the circle's "Ana".
    name_key = models.CharField(max_length=160)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    guest = models.BooleanField(_("guest"), default=False)
    # Erased at the person's request: the name is gone from every sheet and record;
    # the games stay, under a placeholder.
    erased = models.BooleanField(default=False)
    shown_as = models.CharField(
        _("name shown outside the circle"), max_length=10, choices=SHOWN_AS, default=FULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("name", "pk")
        constraints = (
            models.UniqueConstraint(fields=["circle", "name_key"], name="one_player_per_name"),
            models.UniqueConstraint(
                fields=["circle", "user"],
                condition=Q(user__isnull=False),
                name="one_player_per_member",
            ),
        )

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("circles:player", args=[self.circle_id, self.pk])

    def shown_name(self) -> str:
        """The name as the circle's pages show it: an erased player's placeholder in the
        reader's language (it was written in the language of whoever erased them)."""
        if self.erased:
            found = re.search(r"(\d+)\s*$", self.name)
            number = int(found.group(1)) if found else 1
            return gettext("Former player %(number)d") % {"number": number}
        return self.name

    def public_name(self) -> str:
        """The name as people outside the circle see it."""
        if self.erased:
            return self.shown_name()
        parts = self.name.split()
        if self.shown_as == self.FIRST and parts:
            return parts[0]
        if self.shown_as == self.INITIALS and parts:
            return "".join(part[0].upper() + "." for part in parts)
        return self.name


class CircleSheet(models.Model):
    sheet = models.OneToOneField(
        Sheet, on_delete=models.CASCADE, primary_key=True, related_name="circle_link"
    )
    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="sheets")
    played_on = models.DateField(_("played on"))
    excluded = models.BooleanField(_("left out of the standings"), default=False)
    # A game written on a tally card instead of hand by hand (a Pitch night's table):
    # ``{"teams": {"A": n, "B": n}}``; what the sheet contributes comes from it
    # (circles.rules.contributions.tally_state), not from its deals.
    tally = models.JSONField(null=True, blank=True, default=None)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-played_on", "-sheet_id")
        indexes = (models.Index(fields=["circle", "played_on"]),)

    def __str__(self) -> str:
        return f"sheet {self.sheet_id} in {self.circle}"


class SeatPlayer(models.Model):
    sheet = models.ForeignKey(CircleSheet, on_delete=models.CASCADE, related_name="seat_players")
    position = models.PositiveSmallIntegerField()
    # RESTRICT, not PROTECT: a player who sat at a sheet cannot be deleted alone, but
    # deleting the whole circle (players and sheets together) goes through.
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")

    class Meta:
        ordering = ("position",)
        constraints = (
            models.UniqueConstraint(fields=["sheet", "position"], name="one_circle_player_a_seat"),
            models.UniqueConstraint(fields=["sheet", "player"], name="one_seat_a_circle_player"),
        )

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position + 1} of sheet {self.sheet_id}"


class Season(models.Model):
    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=60)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    # How many evenings the circle plans in this season (the title race counts what
    # is left); None: estimated from how often it has played so far.
    planned_evenings = models.PositiveSmallIntegerField(
        _("evenings planned"), null=True, blank=True
    )
    # Skat club rules (circles.rules.standings.ClubRules as a mapping).
    skat_rules = models.JSONField(default=dict)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-starts_on", "-pk")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("circles:season", args=[self.circle_id, self.pk])


class SeasonTotals(models.Model):
    """What a season's counted sheets add up to, game by game
    (circles.rules.season_totals), kept up to date in the transaction of every write
    that moves the circle's standings (circles.season_totals.follow). ``version`` is
    the circle's standings version they were made at: a read at another version adds
    the season up from its sheets instead."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="totals")
    version = models.PositiveBigIntegerField()
    data = models.JSONField(default=dict)
    # The tables made from ``data`` before anyone is placed (season_totals.view): what
    # a read takes, so that it costs the same however many sheets are behind them.
    view = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"totals of {self.season} at version {self.version}"


class SeasonContribution(models.Model):
    """What one counted sheet adds to its season's totals, as they took it in
    (circles.rules.season_totals.contribution, with the season's id): taken away again
    when the sheet changes. Written only under the circle's lock, with the totals."""

    sheet = models.OneToOneField(
        CircleSheet, on_delete=models.CASCADE, primary_key=True, related_name="contribution"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="contributions")
    data = models.JSONField()

    def __str__(self) -> str:
        return f"what sheet {self.sheet_id} adds to {self.season}"


class PlayerTotals(models.Model):
    """What a player's counted sheets add up to, every season and game
    (circles.rules.profile.apply), kept up to date in the transaction of every write
    that moves the circle's standings (circles.player_totals.follow). Read only while
    the circle's ``players_kept_at`` is its standings version. A player without
    counted sheets has none."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="totals"
    )
    data = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"totals of player {self.player_id}"


class PlayerContribution(models.Model):
    """What one counted sheet adds to the record of one player at its table
    (circles.rules.profile.contributions): taken away again when the sheet changes, and
    the line of the player's history a player page reads a page at a time. Written only
    under the circle's lock, with the totals."""

    sheet = models.ForeignKey(
        CircleSheet, on_delete=models.CASCADE, related_name="player_contributions"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="contributions")
    # Beside ``data`` for the queries a page makes: the history by day, the latest
    # sheets of a game, the biggest game.
    game = models.CharField(max_length=20)
    played_on = models.DateField()
    # The score of the biggest game the player won at this sheet (Skat), for the page's
    # "Biggest game" without adding up every sheet.
    biggest = models.BigIntegerField(null=True)
    data = models.JSONField()

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("sheet", "player"), name="one_contribution_a_player"),
        )
        indexes = (
            models.Index(fields=("player", "played_on", "sheet"), name="player_history"),
            models.Index(fields=("player", "game", "played_on", "sheet"), name="player_game"),
            models.Index(fields=("player", "biggest"), name="player_biggest"),
        )

    def __str__(self) -> str:
        return f"what sheet {self.sheet_id} adds to player {self.player_id}"


class SheetResult(models.Model):
    sheet = models.ForeignKey(CircleSheet, on_delete=models.CASCADE, related_name="results")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    # circles.rules.contributions.seat_stats for this seat.
    stats = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("sheet", "position")
        constraints = (
            models.UniqueConstraint(fields=["sheet", "position"], name="one_result_a_seat"),
        )

    def __str__(self) -> str:
        return f"{self.player} on sheet {self.sheet_id}"


class StandingsChange(models.Model):
    """A finished sheet changed after the fact: what moved, and when."""

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="changes")
    sheet = models.ForeignKey(
        CircleSheet, on_delete=models.SET_NULL, null=True, related_name="changes"
    )
    played_on = models.DateField()
    game = models.CharField(max_length=20)
    # games.signals change kind ("corrected", "removed" …, or "excluded"/"included").
    change = models.CharField(max_length=20)
    number = models.PositiveIntegerField(null=True)
    # [{"player": id, "name": str, "before": n, "after": n}]: the seat's headline number.
    moves = models.JSONField(default=list)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-at", "-pk")
        indexes = (models.Index(fields=["circle", "played_on"]),)

    def __str__(self) -> str:
        return f"{self.change} on {self.played_on}"


class AuditEntry(models.Model):
    """One act of a circle's administration, for its owners to read: who removed a
    member or changed a role, merged or erased a player, linked a player to an account,
    or made new links, and when. ``detail`` holds plain values the log page words in
    the reader's language (circles.wording.audit_line); an erasure rewrites the names it
    holds, as it does everywhere else."""

    REMOVED = "removed"
    LEFT = "left"
    ROLE = "role"
    MERGED = "merged"
    ERASED = "erased"
    LINKED = "linked"
    UNLINKED = "unlinked"
    SHOWN_AS = "shown_as"
    INVITE = "invite"
    SEASON_LINK = "season_link"
    ACTIONS = (
        (REMOVED, _("Member removed")),
        (LEFT, _("Member left")),
        (ROLE, _("Role changed")),
        (MERGED, _("Players merged")),
        (ERASED, _("Player erased")),
        (LINKED, _("Player linked to an account")),
        (UNLINKED, _("Player unlinked from an account")),
        (SHOWN_AS, _("Name shown outside changed")),
        (INVITE, _("New invite link")),
        (SEASON_LINK, _("New share link for a season")),
    )

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="audit")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The account's name when it acted (the account may be gone later).
    actor_name = models.CharField(max_length=150, blank=True, default="")
    action = models.CharField(max_length=12, choices=ACTIONS)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("-at", "-pk")
        indexes = (models.Index(fields=["circle", "-at"]),)

    def __str__(self) -> str:
        return f"{self.action} in circle {self.circle_id}"
