"""The circle pages: a group's sheets, players, members and seasons.

Thin: who may do what is asked of ``circles.permissions``; writes go through
``circles.services``; standings come from ``circles.selectors``. A signed-in visitor
who is not a member gets a 404 (a circle's existence is nobody else's business);
an anonymous one is sent to log in first.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from circles import (
    audit,
    charts_data,
    permissions,
    player_totals,
    selectors,
    services,
    standings_cache,
    wording,
)
from circles.forms import CircleForm, NewPlayerForm, PlayerForm, SeasonForm, SheetFilterForm
from circles.models import Circle, CircleSheet, Membership, Player, Season
from games import views_app
from games.games import GAMES
from games.rules.errors import RuleError
from games.selectors import sheet_by_token
from games.views import new_sheet_form


def _circle(request: HttpRequest, circle_id: int, *, manage: bool = False) -> Circle:
    circle = Circle.objects.filter(pk=circle_id).first()
    allowed = circle is not None and (
        permissions.can_manage_circle(request.user, circle)
        if manage
        else permissions.can_view_circle(request.user, circle)
    )
    if not allowed:
        raise Http404(_("No circle of yours at this address"))
    return circle


def _problems_into(form: Any, error: RuleError) -> None:
    for problem in error.problems:
        field = problem.field if problem.field in form.fields else None
        form.add_error(field, problem.message)


@login_required
@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    """The signed-in home: your circles and your sheets, open ones first."""
    return render(request, "circles/mine.html")


# -- Circles --------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def circle_new(request: HttpRequest) -> HttpResponse:
    """A new circle; the form's key makes a second send of it (a double tap, Back and
    Create again) lead to the circle the first one made."""
    form = CircleForm(request.POST or None)
    key = views_app.form_key(request.POST.get("idempotency_key"))
    if request.method == "POST" and form.is_valid():
        try:
            circle, _made = views_app.create_once(
                request,
                key,
                form="new-circle-form",
                create=lambda: services.circle_create(
                    owner=request.user,
                    name=form.cleaned_data["name"],
                    player_name=form.cleaned_data["player_name"],
                ),
                find=lambda pk: Circle.objects.filter(
                    pk=pk, memberships__user=request.user
                ).first(),
            )
        except RuleError as error:
            _problems_into(form, error)
        else:
            return redirect(circle.get_absolute_url())
    status = 422 if form.errors else 200
    context = {"form": form, "form_key": key or views_app.new_form_key()}
    return render(request, "circles/circle_new.html", context, status=status)


# The circle page lists its latest sheets and club evenings, so many a page.
SHEETS_A_PAGE = 25
EVENINGS_A_PAGE = 8
# A player page's history: the latest sheets, so many a page.
HISTORY_A_PAGE = 30


@login_required
@require_GET
def circle_page(request: HttpRequest, circle_id: int) -> HttpResponse:
    """The circle's seasons, its latest club evenings and sheets, a page at a time: a
    circle of years has thousands of sheets; the search finds one by player, game and
    days."""
    circle = _circle(request, circle_id)
    seasons = list(circle.seasons.all())
    search = SheetFilterForm(
        request.GET if "search" in request.GET else None, circle=circle, games=GAMES.values()
    )
    wanted: dict[str, Any] = {}
    if search.is_bound and search.is_valid():
        wanted = {k: v for k, v in search.cleaned_data.items() if v not in (None, "")}
    page = Paginator(selectors.circle_sheets(circle, **wanted), SHEETS_A_PAGE).get_page(
        request.GET.get("page")
    )
    evenings = Paginator(circle.evenings.all(), EVENINGS_A_PAGE).get_page(
        request.GET.get("evenings")
    )
    context = {
        "circle": circle,
        "membership": permissions.membership(request.user, circle),
        "sheets": [{"link": link, "season": selectors.season_of(link, seasons)} for link in page],
        "page": page,
        "search": search,
        "evenings": evenings,
        "seasons": seasons,
        "current": selectors.current_season(circle),
        "player_count": circle.players.count(),
        "games": GAMES.values(),
    }
    status = 400 if search.errors else 200
    return render(request, "circles/circle.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def circle_settings(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = _circle(request, circle_id, manage=True)
    form = CircleForm(request.POST or None, initial={"name": circle.name})
    form.fields["player_name"].widget = form.fields["player_name"].hidden_widget()
    if request.method == "POST" and form.is_valid():
        try:
            services.circle_rename(circle=circle, name=form.cleaned_data["name"])
        except RuleError as error:
            _problems_into(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect("circles:settings", circle.pk)
    memberships = list(circle.memberships.select_related("user"))
    context = {
        "circle": circle,
        "form": form,
        "memberships": memberships,
        # The only owner is not offered to step down or leave: the circle needs an owner.
        "owner_count": sum(1 for m in memberships if m.is_owner),
        "invite_url": request.build_absolute_uri(
            reverse("circles:join", args=[circle.invite_token])
        ),
    }
    return render(
        request, "circles/circle_settings.html", context, status=422 if form.errors else 200
    )


@login_required
@require_POST
def invite_rotate(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = _circle(request, circle_id, manage=True)
    services.invite_rotate(circle=circle, by=request.user)
    messages.success(request, _("A new invite link is ready; the old one no longer works."))
    return redirect("circles:settings", circle.pk)


@login_required
@require_POST
def member_change(request: HttpRequest, circle_id: int, membership_id: int) -> HttpResponse:
    circle = _circle(request, circle_id, manage=True)
    membership = get_object_or_404(Membership, pk=membership_id, circle=circle)
    action = request.POST.get("action")
    try:
        if action == "remove":
            removal = services.member_remove(
                membership=membership,
                by=request.user,
                new_links=request.POST.get("new_links") == "1",
            )
            messages.success(
                request, _("%(name)s left the circle.") % {"name": membership.user.username}
            )
            if removal.new_links:
                messages.success(request, audit.new_links_made(removal))
        elif action in (Membership.OWNER, Membership.MEMBER):
            services.member_set_role(membership=membership, role=action, by=request.user)
            messages.success(request, _("Saved."))
        else:
            messages.error(request, _("Choose what to do with this member."))
    except RuleError as error:
        for problem in error.problems:
            messages.error(request, problem.message)
        return redirect("circles:settings", circle.pk)
    if membership.user_id == request.user.pk and action in ("remove", Membership.MEMBER):
        return redirect("games:home")
    return redirect("circles:settings", circle.pk)


@login_required
@require_GET
def member_remove_page(request: HttpRequest, circle_id: int, membership_id: int) -> HttpResponse:
    """Before a member is taken out: what they saw (every sheet's edit link, the
    seasons' share links, the invite link), and the offer to make all of it new in the
    same step. Leaving oneself asks only to confirm."""
    circle = _circle(request, circle_id, manage=True)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, circle=circle
    )
    context = {
        "circle": circle,
        "membership": membership,
        "leaving": membership.user_id == request.user.pk,
        "sheets": CircleSheet.objects.filter(circle=circle).count(),
        "seasons": circle.seasons.count(),
    }
    return render(request, "circles/member_remove.html", context)


@login_required
@require_GET
def audit_log(request: HttpRequest, circle_id: int) -> HttpResponse:
    """The circle's administration log, newest first, for its owners."""
    circle = _circle(request, circle_id, manage=True)
    lines, more = audit.entries(circle, before=_int(request.GET.get("before")))
    context = {"circle": circle, "lines": lines, "more": more}
    return render(request, "circles/audit_log.html", context)


@require_http_methods(["GET", "POST"])
def circle_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link. A visitor without an account is told which circle invites and
    offered to sign up (or log in) and come back; a signed-in one joins, and is then
    asked which of the circle's players they are (or to be added as a new one)."""
    circle = Circle.objects.filter(invite_token=token).first()
    if circle is None:
        return render(request, "circles/join_invalid.html", status=404)
    here = request.path
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(here)
        return render(request, "circles/join.html", {"circle": circle, "next": here})
    member = permissions.membership(request.user, circle) is not None
    linked = member and circle.players.filter(user=request.user).exists()
    error = None
    if request.method == "POST":
        if not member:
            services.circle_join(user=request.user, token=token)
            return redirect(here)
        if linked or request.POST.get("action") != "link":
            return redirect(circle.get_absolute_url())
        choice = request.POST.get("player", "")
        chosen: Any = (
            request.POST.get("name", "")
            if choice == "new"
            else circle.players.filter(pk=_int(choice), user__isnull=True, erased=False).first()
        )
        if chosen is None:
            error = _("Choose one of the players listed, or give your name.")
        else:
            try:
                player = services.player_claim(circle=circle, user=request.user, player=chosen)
            except RuleError as problem:
                error = " ".join(p.message for p in problem.problems)
            else:
                messages.success(
                    request,
                    _("Welcome to %(circle)s: you are %(name)s on its sheets.")
                    % {"circle": circle.name, "name": player.name},
                )
                return redirect(circle.get_absolute_url())
    context = {
        "circle": circle,
        "member": member,
        "linked": linked,
        "error": error,
        "unlinked": list(circle.players.filter(user__isnull=True, erased=False))
        if member and not linked
        else [],
        "chosen": request.POST.get("player", "") if error else "",
        "name": request.POST.get("name", "")
        if error
        else (request.user.get_full_name() or request.user.get_username()),
    }
    return render(request, "circles/join.html", context, status=422 if error else 200)


# -- Players --------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def players_page(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = _circle(request, circle_id)
    form = NewPlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.player_add(circle=circle, name=form.cleaned_data["name"])
        except RuleError as error:
            _problems_into(form, error)
        else:
            return redirect("circles:players", circle.pk)
    context = {
        "circle": circle,
        "form": form,
        "players": list(circle.players.select_related("user")),
    }
    return render(request, "circles/players.html", context, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def player_page(request: HttpRequest, circle_id: int, player_id: int) -> HttpResponse:
    circle = _circle(request, circle_id)
    player = get_object_or_404(Player, pk=player_id, circle=circle)
    player.circle = circle
    link = request.POST.get("link") if request.method == "POST" else None
    # The person, or an owner; or a member saying in this very step that they are it.
    speaks_for = permissions.can_speak_for(request.user, player) or (
        link == "me" and permissions.can_link_to_me(request.user, player)
    )
    form = PlayerForm(
        request.POST or None,
        initial={"name": player.name, "guest": player.guest, "shown_as": player.shown_as},
    )
    # How the name is shown outside the circle is the person's choice (or an owner's).
    form.fields["shown_as"].disabled = not speaks_for
    status = 200
    if request.method == "POST":
        refused = _player_change_refused(request, player, link, speaks_for)
        if refused:
            return refused
        if form.is_valid():
            user: Any = ...
            if link == "me":
                user = request.user
            elif link == "none":
                user = None
            try:
                services.player_update(
                    player=player,
                    name=form.cleaned_data["name"],
                    guest=form.cleaned_data["guest"],
                    shown_as=form.cleaned_data["shown_as"],
                    user=user,
                    by=request.user,
                )
            except RuleError as error:
                _problems_into(form, error)
            else:
                messages.success(request, _("Saved."))
                return redirect(player.get_absolute_url())
        status = 422
    players = list(circle.players.all())

    def record() -> dict[str, Any]:
        profile = player_totals.profile(circle, player, latest=charts_data.CHART_SHEETS)
        return {
            "profile": wording.profile(
                profile, wording.Names({p.pk: p for p in players}, public=False)
            ),
            "charts": charts_data.player_charts(profile, player),
            "history_length": profile.sheets,
        }

    # The record over every counted sheet, kept with each write (circles.player_totals)
    # and worded once per standings version.
    kept = standings_cache.kept(circle, ("player-page", player.pk, get_language()), record)
    # The history, the latest sheets first, read a page at a time.
    history = Paginator(
        wording.History(player_totals.history(circle, player, count=kept["history_length"])),
        HISTORY_A_PAGE,
    ).get_page(request.GET.get("history"))
    context = {
        "circle": circle,
        "player": player,
        "form": form,
        **kept,
        "history": history,
        "others": [p for p in players if p.pk != player.pk],
        "can_manage": permissions.can_manage_circle(request.user, circle),
        "is_me": player.user_id == request.user.pk,
        "speaks_for": permissions.can_speak_for(request.user, player),
        "can_link_to_me": permissions.can_link_to_me(request.user, player),
    }
    return render(request, "circles/player.html", context, status=status)


def _player_change_refused(
    request: HttpRequest, player: Player, link: str | None, speaks_for: bool
) -> HttpResponse | None:
    """A 403 page when a member asks for what only the person or an owner may do: link
    someone else's player to their own account, unlink another's account, or choose how
    another person's name is shown outside the circle. Nothing is changed."""
    why = None
    if link == "me" and not permissions.can_link_to_me(request.user, player):
        why = _(
            "%(name)s is linked to another member's account; only that member or an owner "
            "can change it."
        )
    elif link == "none" and player.user_id is not None and not speaks_for:
        why = _("Only %(name)s or an owner can unlink this account.")
    elif (
        not speaks_for
        and "shown_as" in request.POST
        and request.POST["shown_as"] != player.shown_as
    ):
        why = _("Only %(name)s or an owner chooses how the name is shown outside the circle.")
    if why is None:
        return None
    context = {
        "status": 403,
        "title": _("Not yours to change"),
        "message": why % {"name": player.name},
        "back": player.get_absolute_url(),
    }
    return render(request, "error.html", context, status=403)


@login_required
@require_POST
def player_erase(request: HttpRequest, circle_id: int, player_id: int) -> HttpResponse:
    """Owners erase a person who asked to be forgotten (the games stay, the name goes)."""
    circle = _circle(request, circle_id, manage=True)
    player = get_object_or_404(Player, pk=player_id, circle=circle)
    if request.POST.get("confirm") != "erase":
        messages.error(request, _("Tick the box to confirm: erasing cannot be undone."))
        return redirect(player.get_absolute_url())
    services.player_erase(player=player, by=request.user)
    messages.success(request, _("The name is erased from every sheet of the circle."))
    return redirect("circles:players", circle.pk)


@login_required
@require_POST
def player_merge(request: HttpRequest, circle_id: int, player_id: int) -> HttpResponse:
    circle = _circle(request, circle_id, manage=True)
    keep = get_object_or_404(Player, pk=player_id, circle=circle)
    absorb = circle.players.filter(pk=_int(request.POST.get("absorb"))).first()
    if absorb is None:
        messages.error(request, _("Choose the player to merge into this one."))
        return redirect(keep.get_absolute_url())
    try:
        services.player_merge(keep=keep, absorb=absorb, by=request.user)
    except RuleError as error:
        for problem in error.problems:
            messages.error(request, problem.message)
    else:
        messages.success(
            request,
            _("%(absorb)s is now part of %(keep)s; every sheet follows.")
            % {"absorb": absorb.name, "keep": keep.name},
        )
    return redirect(keep.get_absolute_url())


def _int(value: object) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


# -- Sheets ---------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def sheet_new(request: HttpRequest, circle_id: int, game: str) -> HttpResponse:
    circle = _circle(request, circle_id)
    entry = GAMES.get(game)
    if entry is None:
        raise Http404(_("No such game"))

    def create(**values: Any) -> Any:
        return services.sheet_create_in_circle(circle=circle, **values)

    return new_sheet_form(
        request,
        entry,
        action=reverse("circles:sheet-new", args=[circle.pk, entry.slug]),
        create=create,
        extra={"circle": circle},
    )


@login_required
@require_POST
def sheet_settings(request: HttpRequest, circle_id: int, sheet_id: int) -> HttpResponse:
    circle = _circle(request, circle_id)
    # By the sheet's own id: Django checks an id against the integer column's range
    # there, not on this table's key (a link to its sheet), where SQLite overflows.
    link = get_object_or_404(CircleSheet, sheet__pk=sheet_id, circle=circle)
    if "counted" in request.POST:
        services.sheet_set_counted(link=link, counted=request.POST["counted"] == "1")
        messages.success(request, _("Saved."))
    if "played_on" in request.POST:
        try:
            played_on = datetime.date.fromisoformat(request.POST["played_on"].strip())
        except ValueError:
            messages.error(request, _("Give a date, such as 2026-09-01."))
        else:
            try:
                services.sheet_set_played_on(link=link, played_on=played_on)
            except RuleError as error:
                # A day after tomorrow, or a sheet in the trash: nothing changed.
                for problem in error.problems:
                    messages.error(request, str(problem.message))
            else:
                messages.success(request, _("Saved."))
    return redirect(_local_url(request, request.POST.get("back")) or circle.get_absolute_url())


def _local_url(request: HttpRequest, url: str | None) -> str | None:
    """``url`` if it is a path on this site; None for anything else (another site, or a
    word that ``redirect`` would take for a view's name and fail to find)."""
    if (
        url
        and url.startswith("/")
        and url_has_allowed_host_and_scheme(
            url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return url
    return None


@login_required
@require_http_methods(["GET", "POST"])
def sheet_move(request: HttpRequest, token: str) -> HttpResponse:
    """Bring a sheet kept by its edit link into one of the visitor's circles."""
    found = sheet_by_token(token)
    if found is None or not found[1]:
        raise Http404(_("No sheet at this link"))
    sheet = found[0]
    circles = [
        c
        for c in selectors.circles_of(request.user)
        if permissions.can_move_sheet(request.user, sheet, c)
    ]
    already = CircleSheet.objects.filter(sheet=sheet).select_related("circle").first()
    error = None
    if request.method == "POST" and already is None:
        circle = next((c for c in circles if c.pk == _int(request.POST.get("circle"))), None)
        if circle is None:
            error = _("Choose one of your circles.")
        else:
            services.sheet_move(sheet=sheet, circle=circle)
            messages.success(
                request, _("The sheet is now kept in %(circle)s.") % {"circle": circle.name}
            )
            return redirect(circle.get_absolute_url())
    context = {
        "sheet": sheet,
        "circles": circles,
        "already": already,
        "error": error,
        "names": list(sheet.seats.values_list("name", flat=True)),
    }
    return render(request, "circles/sheet_move.html", context, status=422 if error else 200)


# -- Seasons --------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, circle_id: int, season_id: int | None = None) -> HttpResponse:
    circle = _circle(request, circle_id, manage=True)
    season = get_object_or_404(Season, pk=season_id, circle=circle) if season_id else None
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_for(season))
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_save(circle=circle, data=form.season_data(), season=season)
        except RuleError as error:
            for problem in error.problems:
                field = problem.field.rsplit(".", 1)[-1] if problem.field else None
                form.add_error(field if field in form.fields else None, problem.message)
        else:
            return redirect(season.get_absolute_url())
    context = {"circle": circle, "season": season, "form": form}
    return render(request, "circles/season_edit.html", context, status=422 if form.errors else 200)


def _standings_context(request: HttpRequest, season: Season, *, public: bool) -> dict[str, Any]:
    include_guests = request.GET.get("guests") == "1"

    def build() -> dict[str, Any]:
        standings = selectors.kept_season_standings(season, include_guests=include_guests)
        parts = {
            "tables": wording.tables(standings, public=public),
            "race": wording.title_race(standings, public=public),
            "changes": wording.changes(standings, public=public, include_guests=include_guests),
            "charts": charts_data.season_charts(standings, public=public),
        }
        return {
            "standings": {
                "counted_sheets": standings.counted_sheets,
                "open_sheets": standings.open_sheets,
            },
            # Rendered here, once per version and view: a warm read of a long season
            # then costs what a short one's does (its charts and tables are the largest
            # part of the page).
            "standings_body": render_to_string("circles/season.html#standings-body", parts),
        }

    # Computed from every counted sheet once per standings version (and language, view
    # and day: the title race counts the evenings left), then kept.
    key = ("season-page", season.pk, public, include_guests, get_language(), timezone.localdate())
    return {
        **standings_cache.kept(season.circle, key, build),
        "season": season,
        "circle": season.circle,
        "include_guests": include_guests,
        "public": public,
    }


@require_GET
def season_page(request: HttpRequest, circle_id: int, season_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    circle = _circle(request, circle_id)
    season = get_object_or_404(Season, pk=season_id, circle=circle)
    season.circle = circle  # already read: the page names it without asking again
    context = _standings_context(request, season, public=False)
    context["can_manage"] = permissions.can_manage_circle(request.user, circle)
    context["share_url"] = request.build_absolute_uri(
        reverse("circles:season-public", args=[season.view_token])
    )
    return render(request, "circles/season.html", context)


@require_GET
def season_public(request: HttpRequest, token: str) -> HttpResponse:
    season = Season.objects.select_related("circle").filter(view_token=token).first()
    if season is None:
        raise Http404(_("No standings at this link"))
    return render(request, "circles/season.html", _standings_context(request, season, public=True))


@login_required
@require_POST
def season_rotate(request: HttpRequest, circle_id: int, season_id: int) -> HttpResponse:
    circle = _circle(request, circle_id, manage=True)
    season = get_object_or_404(Season, pk=season_id, circle=circle)
    services.season_rotate_token(season=season, by=request.user)
    messages.success(request, _("A new link is ready; the old one no longer works."))
    return redirect(season.get_absolute_url())
