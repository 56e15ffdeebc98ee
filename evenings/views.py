"""The evening's pages: starting one, the organiser's board, a paper table, signing a
table, the ranking and the big screen.

Thin: who may do what is asked of ``evenings.permissions``; writes go through
``evenings.services``; what a page shows comes from ``evenings.selectors`` with a
fixed number of queries. A link that opens nothing is a 404.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from circles.models import Circle
from evenings import accounts, permissions, selectors, services
from evenings.forms import DrawForm, EveningForm, MoneyForm, PlayerForm, SwapForm, money_field_of
from evenings.locking import StaleEvening
from evenings.models import Evening, EveningPlayer, EveningTable
from evenings.rules.seating import new_seed
from games import views_app
from games.games import GAMES
from games.qr import qr_svg
from games.rules.errors import RuleError
from games.rules.words import exact
from scorekeeper import i18n


def _whole(text: str, *, digits: int = 9) -> int | None:
    """A number a form sent (a player's or circle's id, a seat), or None: ASCII digits
    only (``"²".isdigit()`` is true, and ``int("²")`` fails) and short enough for an id
    (a 5,000-digit one is not turned into a number at all)."""
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def _secret(response: HttpResponse) -> HttpResponse:
    # The organiser's pages and a table's page carry links that write.
    response.carries_secret = True  # type: ignore[attr-defined]
    return response


def _organised(token: str) -> Evening:
    evening = selectors.evening_by_organiser(token)
    if not permissions.can_organise(evening, token):
        raise Http404(_("No evening at this address"))
    assert evening is not None
    return evening


def _viewed(token: str) -> Evening:
    evening = selectors.evening_by_view(token)
    if not permissions.can_view(evening, token):
        raise Http404(_("No evening at this address"))
    assert evening is not None
    return evening


def _problems_into(form: Any, error: RuleError, fields: dict[str, str] | None = None) -> None:
    fields = fields or {}
    for problem in error.problems:
        field = (problem.field or "").split(".")[0]
        field = fields.get(problem.field or "", fields.get(field, field))
        form.add_error(field if field in form.fields else None, problem.message)


def _problems_message(request: HttpRequest, error: RuleError) -> None:
    for problem in error.problems:
        messages.error(request, problem.message)


def _evening_create(
    request: HttpRequest,
    form: EveningForm,
    money_form: MoneyForm,
    circle: Circle | None,
    rules: dict[str, Any] | None,
) -> Evening:
    """The evening the checked new-evening form describes."""
    data = form.cleaned_data
    evening = services.evening_create(
        name=data["name"],
        played_on=data["played_on"],
        game=data["game"],
        series_count=data["series_count"],
        series_deals=form.series_deals(),
        table_order=data["table_order"],
        sit_out=data["sit_out"],
        # A Skat evening keeps neither (the Pitch part of the form is left as it was
        # when the game was switched).
        movement=(data["movement"] or "lot") if data["game"] == "pitch" else "lot",
        counts=(data["counts"] or "points") if data["game"] == "pitch" else "points",
        round_format=((data["round_format"] or "target") if data["game"] == "pitch" else "target"),
        # The house rules of every table's sheet, as a new sheet asks for them.
        pitch_options=(
            GAMES["pitch"].options_from_post(request.POST) if data["game"] == "pitch" else None
        ),
        round_hands=data["round_hands"],
        round_minutes=data["round_minutes"],
        circle=circle,
        by=request.user,
        # Said on the form: with the box unticked the evening keeps no money.
        money=rules or {},
    )
    owner = circle is not None and permissions.can_keep_circle_rules(request.user, circle)
    if owner and rules and money_form.cleaned_data.get("keep_for_circle"):
        accounts.keep_for_circle(circle=circle, rules=accounts.rules_of(evening))
    return evening


@require_http_methods(["GET", "POST"])
def evening_new(request: HttpRequest) -> HttpResponse:
    """Start an evening: anyone for a one-off tournament, a circle's member for the
    circle (``?circle=<id>``)."""
    circle = None
    circle_id = request.GET.get("circle", "")
    if circle_id:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        circle_pk = _whole(circle_id)
        circle = Circle.objects.filter(pk=circle_pk).first() if circle_pk is not None else None
        if circle is None or not permissions.can_start_in_circle(request.user, circle):
            raise Http404(_("No circle of yours at this address"))
    form = EveningForm(request.POST or None)
    usual = accounts.circle_rules(circle) if circle is not None else {}
    initial = MoneyForm.initial_from(accounts.read_kept(usual))
    money_form = MoneyForm(request.POST or None, prefix="money", initial=initial)
    owner = circle is not None and permissions.can_keep_circle_rules(request.user, circle)
    if not owner:
        del money_form.fields["keep_for_circle"]
    valid = request.method == "POST" and form.is_valid()
    valid = valid and money_form.is_valid()
    key = views_app.form_key(request.POST.get("idempotency_key"))
    if valid:
        rules = money_form.rules_data()
        try:
            evening, made = views_app.create_once(
                request,
                key,
                form="new-evening-form",
                create=lambda: _evening_create(request, form, money_form, circle, rules),
                find=lambda pk: Evening.objects.filter(pk=pk).first(),
                secret=lambda evening: evening.organiser_token,
            )
        except RuleError as error:
            for problem in error.problems:
                name = money_field_of(problem.field)
                if name is not None:
                    money_form.add_error(
                        name if name in money_form.fields else None, problem.message
                    )
            error = RuleError([p for p in error.problems if money_field_of(p.field) is None] or [])
            _problems_into(
                form,
                error,
                {
                    "series": "series_count",
                    "date": "played_on",
                    "tables": "table_order",
                    "series_deals.3": "deals_3",
                    "series_deals.4": "deals_4",
                    "series_deals.5": "deals_5",
                },
            )
        else:
            if made:
                messages.success(
                    request,
                    _(
                        "The evening is started. Keep this page's address: it is the "
                        "organiser's link, and only it changes the evening."
                    ),
                )
            else:
                messages.info(request, _("This evening was started already: here it is."))
            return redirect("evenings:board", evening.organiser_token)
    status = 400 if form.errors or money_form.errors else 200
    context = {
        "form": form,
        "form_key": key or views_app.new_form_key(),
        "money_form": money_form,
        "circle": circle,
        # A Pitch night's house rules, as typed (or the usual game).
        "pitch_game": GAMES["pitch"],
        "pitch_options": GAMES["pitch"].options_from_post(request.POST)
        if request.method == "POST"
        else {},
    }
    return render(request, "evenings/new.html", context, status=status)


def _kept(parts: dict[str, Callable[[], tuple[str, dict[str, Any]]]]) -> dict[str, str]:
    """Parts of a page rendered once and kept, each by a cache key that names the
    state of what it shows and the language: those found are reused, the others built
    (their context too, only then), rendered and kept. A kept part holds no form token
    and nothing of the visitor's, so one rendering serves every request."""
    renders = caches["renders"]
    found = renders.get_many(list(parts))
    out, new = {}, {}
    for key, build in parts.items():
        html = found.get(key)
        if html is None:
            template, context = build()
            html = new[key] = render_to_string(template, context)
        out[key] = mark_safe(html)
    if new:
        renders.set_many(new)
    return out


def _board_key(evening: Evening, part: str) -> str:
    # The evening's version is in every key (the roll, a name, a sign-off change it).
    # The cards' buttons post the page's one form (form="board-post"): no token inside.
    # By the view token, not the id: an id freed by a rolled-back insert comes back
    # (SQLite), and its new evening must not meet the cards of another.
    return f"board:{evening.view_token}:{evening.version}:{get_language()}:{part}"


def _board_cards(evening: Evening, board: selectors.Board) -> dict[str, Any]:
    """The tables' cards, for the board and its poll."""
    board_url = reverse("evenings:board", args=[evening.organiser_token])
    shared = {"evening": evening, "board_url": board_url}
    # A poll after one table's deal renders that table's card alone.
    keys = [_board_key(evening, f"card:{table.state}") for table in board.tables]
    rendered = _kept(
        {
            key: (lambda t=table: ("evenings/_board_card.html", {**shared, "t": t}))
            for key, table in zip(keys, board.tables, strict=True)
        }
    )
    return {
        "evening": evening,
        "board": board,
        "board_url": board_url,
        "cards": [rendered[key] for key in keys],
    }


def _board_context(request: HttpRequest, evening: Evening) -> dict[str, Any]:
    board = selectors.board_view(evening)
    context = _board_cards(evening, board)
    context["adding"] = request.GET.get("adding") == "1"
    current = board.current
    chips: list[tuple[int, str]] = []
    if evening.circle_id is not None:
        on_roll = {p.name.casefold() for p in board.roll}
        chips = [
            (pk, name)
            for pk, name in evening.circle.players.filter(erased=False)
            .order_by("name")
            .values_list("pk", "name")
            if name.casefold() not in on_roll
        ]
    # Who may leave changes when a table finishes its series.
    done = "".join("1" if t.done else "0" for t in board.tables)
    roll_key = _board_key(evening, f"roll:{done}")
    roll = {
        "evening": evening,
        "board_url": context["board_url"],
        "roll": board.roll,
        "playing": board.playing,
    }
    context.update(
        {
            "current": current,
            "roll": _kept({roll_key: lambda: ("evenings/_board_roll.html", roll)})[roll_key],
            "chips": chips,
            "draw_form": DrawForm(initial={"seed": new_seed(), "method": "lot"}),
            # A Pitch night seated by its movement: round 1 by lot, then by itself,
            # and why each player sits where they sit this round.
            "moving": evening.game == "pitch" and evening.movement != "lot",
            "seating_steps": (
                selectors.seating_steps(selectors.evening_view(evening), current)
                if current is not None and evening.game == "pitch" and evening.movement != "lot"
                else ()
            ),
            # A Pitch round of minutes: when its time is up (the organiser calls it).
            "round_ends": (
                current.created_at + datetime.timedelta(minutes=evening.round_minutes)
                if current is not None and evening.round_minutes
                else None
            ),
            "swap_form": _swap_form(board) if current and not board.started else None,
            "view_url": request.build_absolute_uri(
                reverse("evenings:ranking", args=[evening.view_token])
            ),
            "screen_url": request.build_absolute_uri(
                reverse("evenings:screen", args=[evening.view_token])
            ),
            "changes": list(evening.changes.select_related("table__series")[:10]),
        }
    )
    return context


def _swap_form(board: selectors.Board) -> SwapForm:
    """Two players to swap, offered as the first of table 1 and the first of table 2
    (two different players, so that the form as shown can be sent)."""
    tables = board.tables
    players = [(s.player, s.name) for t in tables for s in t.seats]
    second = tables[1].seats[0] if len(tables) > 1 else tables[0].seats[1]
    initial = {"first": players[0][0], "second": second.player}
    return SwapForm(players=players, initial=initial)


@require_GET
def board(request: HttpRequest, token: str) -> HttpResponse:
    """The organiser's board: the roll, the draw and every table of the series."""
    evening = _organised(token)
    return _secret(render(request, "evenings/board.html", _board_context(request, evening)))


@require_GET
def board_tables(request: HttpRequest, token: str) -> HttpResponse:
    """What the board polls: the series' table cards (deals played, done, signed, quiet)."""
    evening = _organised(token)
    context = _board_cards(evening, selectors.board_view(evening))
    return _secret(render(request, "evenings/_board_tables.html", context))


@require_GET
def table_link(request: HttpRequest, token: str, table_id: int) -> HttpResponse:
    """A table's link as a QR code filling the organiser's phone, to be scanned at the
    table (a code among twenty-five on the board is too small to scan), with its
    players and the previous and next table."""
    evening = _organised(token)
    table = _table(evening, table_id)
    if table.sheet is None:
        raise Http404(_("This table plays on paper: it has no link."))
    url = request.build_absolute_uri(table.sheet.get_absolute_url())
    neighbours = list(
        EveningTable.objects.filter(series=table.series, sheet__isnull=False)
        .order_by("number")
        .values_list("pk", "number")
    )
    at = next(i for i, (pk, _number) in enumerate(neighbours) if pk == table.pk)
    context = {
        "evening": evening,
        "table": table,
        "seats": list(table.seats.select_related("player")),
        "url": url,
        "qr": qr_svg(url),
        "previous": neighbours[at - 1] if at > 0 else None,
        "next": neighbours[at + 1] if at + 1 < len(neighbours) else None,
    }
    return _secret(render(request, "evenings/table_link.html", context))


def _back(evening: Evening, anchor: str = "", query: str = "") -> HttpResponse:
    url = reverse("evenings:board", args=[evening.organiser_token])
    return redirect(url + (f"?{query}" if query else "") + (f"#{anchor}" if anchor else ""))


def _refused(
    request: HttpRequest,
    evening: Evening,
    error: RuleError,
    *,
    adding: bool = False,
    drawing: bool = False,
) -> HttpResponse:
    """The board again with the problems on top (409 when the evening changed since the
    page was read, else 400), and what was typed still in its form."""
    for problem in error.problems:
        messages.error(request, problem.message)
    context = _board_context(request, evening)
    if adding:  # the name box keeps the focus, and what was typed to mend it
        context["adding"] = True
        context["typed_name"] = request.POST.get("name", "")
        context["typed_team"] = request.POST.get("team", "")
        context["typed_tags"] = request.POST.get("tags", "")
    if drawing:  # the seed typed (to check a draw) stays, not a new random one
        context["draw_form"] = DrawForm(
            initial={
                "seed": request.POST.get("seed", ""),
                "method": request.POST.get("method", "lot"),
                "keep_apart": bool(request.POST.get("keep_apart")),
            }
        )
    status = 409 if isinstance(error, StaleEvening) else 400
    return _secret(render(request, "evenings/board.html", context, status=status))


@require_POST
def players_add(request: HttpRequest, token: str) -> HttpResponse:
    evening = _organised(token)
    chip = request.POST.get("player", "")
    try:
        if chip:
            if _whole(chip) is None:
                raise RuleError(_("No player of the circle has that number."), "players")
            added = services.players_add(evening=evening, circle_players=[_whole(chip)])
        else:
            added = services.players_add(
                evening=evening,
                names=[request.POST.get("name", "")],
                team=request.POST.get("team", ""),
                tags=request.POST.get("tags", ""),
            )
    except RuleError as error:
        return _refused(request, evening, error, adding=True)
    messages.success(request, _("%(name)s is on the roll.") % {"name": added[0].name})
    # Back with the name box ready for the next name (a club's roll is typed in a row).
    return _back(evening, "roll", "adding=1")


@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, token: str, player_id: int) -> HttpResponse:
    """A player's team and categories."""
    evening = _organised(token)
    player = EveningPlayer.objects.filter(evening=evening, pk=player_id).first()
    if player is None:
        raise Http404(_("No such player on this evening's roll"))
    form = PlayerForm(
        request.POST or None, initial={"team": player.team, "tags": ", ".join(player.tags)}
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.player_update(
                evening=evening,
                player=player,
                team=form.cleaned_data["team"],
                tags=form.cleaned_data["tags"],
            )
        except RuleError as error:
            _problems_into(form, error)
        else:
            messages.success(request, _("Saved."))
            return _back(evening, "roll")
    url = request.build_absolute_uri(reverse("evenings:own", args=[player.token]))
    context = {"evening": evening, "player": player, "form": form, "url": url, "qr": qr_svg(url)}
    status = 400 if form.errors else 200
    return _secret(render(request, "evenings/player.html", context, status=status))


@require_GET
def own(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page (their link): this series' table and seat, their place and
    total, and their own bill. It shows no other player's bill and changes nothing."""
    player = (
        EveningPlayer.objects.select_related("evening").filter(token=token).first()
        if token
        else None
    )
    if player is None:
        raise Http404(_("No player at this address"))
    evening = player.evening
    view = selectors.evening_view(evening)
    seat = next(
        ((t.table, s) for t in view.current_tables for s in t.seats if s.player_id == player.pk),
        None,
    )
    row = view.brief_ranking.row_of(player.pk)
    # A Pitch night: where the player sits this round, with whom against whom, and
    # their rounds before it.
    rounds = view.seat_lines(player.pk) if evening.game == "pitch" else []
    money = accounts.money_view(evening, view) if accounts.has_money(evening) else None
    line = money.line_of(player.pk) if money else None
    changes = [c for c in money.changes if c.player_id == player.pk] if money else []
    context = {
        "evening": evening,
        "player": player,
        "view": view,
        "seat": seat,
        "rounds": rounds,
        "row": row,
        "line": line,
        "changes": changes,
        "currency": accounts.rules_of(evening).currency,
    }
    return _secret(render(request, "evenings/own.html", context))


@require_POST
def player_leave(request: HttpRequest, token: str, player_id: int) -> HttpResponse:
    evening = _organised(token)
    player = EveningPlayer.objects.filter(evening=evening, pk=player_id, left=False).first()
    if player is None:
        raise Http404(_("No such player on this evening's roll"))
    try:
        services.player_leave(evening=evening, player=player)
    except RuleError as error:
        return _refused(request, evening, error)
    messages.success(request, _("%(name)s has left the roll.") % {"name": player.name})
    return _back(evening, "roll")


@require_POST
def draw(request: HttpRequest, token: str) -> HttpResponse:
    evening = _organised(token)
    form = DrawForm(request.POST)
    if not form.is_valid():
        error = RuleError([p for errors in form.errors.values() for p in _as_problems(errors)])
        return _refused(request, evening, error, drawing=True)
    data = form.cleaned_data
    seed = data["seed"]
    if data["method"] == "lot" and seed is None:
        seed = new_seed()
    try:
        series = services.series_draw(
            evening=evening,
            method=data["method"],
            seed=seed if data["method"] == "lot" else None,
            keep_apart=data["keep_apart"],
        )
    except RuleError as error:
        return _refused(request, evening, error, drawing=True)
    if evening.game == "pitch":
        messages.success(request, _("Round %(round)s is seated.") % {"round": series.number})
    else:
        messages.success(request, _("Series %(series)s is drawn.") % {"series": series.number})
    return _back(evening, "tables")


def _as_problems(errors: Any) -> list[Any]:
    from games.rules.errors import Problem

    return [Problem(None, str(e)) for e in errors]


@require_POST
def swap(request: HttpRequest, token: str, number: int) -> HttpResponse:
    evening = _organised(token)
    series = evening.series.filter(number=number).first()
    if series is None:
        raise Http404(_("No such series"))
    first, second = request.POST.get("first", ""), request.POST.get("second", "")
    first_pk, second_pk = _whole(first), _whole(second)
    if first_pk is None or second_pk is None:
        return _refused(request, evening, RuleError(_("Choose the two players to swap.")))
    try:
        services.series_swap(
            series=series,
            first=first_pk,
            second=second_pk,
            expected_version=_whole(request.POST.get("version", "")),
        )
    except StaleEvening as error:
        # A swap is its own undo, so a second send (a double tap, Back and send again)
        # must not swap back: sent from the board read before the last swap of these
        # two, it is that swap.
        series.refresh_from_db(fields=["swaps"])
        last = series.swaps[-1] if series.swaps else {}
        if {last.get("first"), last.get("second")} != {first_pk, second_pk}:
            return _refused(request, evening, error)
    except RuleError as error:
        return _refused(request, evening, error)
    messages.success(request, _("The two players have swapped places."))
    return _back(evening, "tables")


def _table(evening: Evening, table_id: int) -> EveningTable:
    table = (
        EveningTable.objects.select_related("series", "sheet")
        .filter(pk=table_id, series__evening=evening)
        .first()
    )
    if table is None:
        raise Http404(_("No such table"))
    return table


def _read_rows(text: str, seats: list[Any]) -> list[dict[str, Any]]:
    """Rows typed one a line: the declarer's name (or seat number) and the value as
    written ("Anna 48", "2 -96")."""
    by_name = {s.player.name.casefold(): s.player_id for s in seats}
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.replace("\N{MINUS SIGN}", "-").split()
        if not words:
            continue
        who, value = " ".join(words[:-1]).casefold(), words[-1]
        player = by_name.get(who)
        seat_number = _whole(who, digits=2)
        if player is None and seat_number is not None and 1 <= seat_number <= len(seats):
            player = seats[seat_number - 1].player_id
        if player is None:
            raise RuleError(
                _(
                    "Row %(row)s: write the declarer's name or seat number, then the value, "
                    "like “Anna 48” or “2 -96”."
                )
                % {"row": number},
                "rows",
            )
        rows.append({"declarer": player, "value": value})
    return rows


def _paper_said(problem: Any, seats: list[Any]) -> str:
    """A problem with a typed row, named by its line ("Row 3: …"), or with a line of the
    foot, named by its player ("Bernd: …") unless it names them already."""
    parts = (problem.field or "").split(".")
    if len(parts) > 1 and parts[0] == "rows" and parts[1].isdigit():
        return _("Row %(row)s: %(problem)s") % {
            "row": int(parts[1]) + 1,
            "problem": problem.message,
        }
    if len(parts) > 1 and parts[0] == "players" and parts[1].isdigit():
        at = int(parts[1])
        name = seats[at].player.name if at < len(seats) else ""
        if name and name not in str(problem.message):
            return _("%(name)s: %(problem)s") % {"name": name, "problem": problem.message}
    return str(problem.message)


def _foot_boxes_refused(problems: Any, seats: list[Any]) -> set[str]:
    """The foot's boxes a problem is about (``points_<player>``), marked on the form."""
    boxes = set()
    for problem in problems:
        parts = (problem.field or "").split(".")
        if len(parts) == 3 and parts[0] == "players" and parts[1].isdigit():
            at = int(parts[1])
            if at < len(seats) and parts[2] in ("points", "won", "lost"):
                boxes.add(f"{parts[2]}_{seats[at].player_id}")
    return boxes


@require_http_methods(["GET", "POST"])
def table_paper(request: HttpRequest, token: str, table_id: int) -> HttpResponse:
    """A table that played on paper: the organiser types its foot, its rows, or both
    (Skat), or its tally card (Pitch)."""
    evening = _organised(token)
    table = _table(evening, table_id)
    seats = list(table.seats.select_related("player"))
    if evening.game == "pitch":
        return _tally(request, evening, table, seats)
    problems: list[Any] = []
    refused: set[str] = set()
    values: dict[str, str] = {}
    if table.paper:
        # A correction starts from the foot as it was saved.
        for seat in seats:
            values[f"points_{seat.player_id}"] = str(seat.points)
            values[f"won_{seat.player_id}"] = str(seat.won)
            values[f"lost_{seat.player_id}"] = str(seat.lost)
    if request.method == "POST":
        values = {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
        foot = None
        if any(values.get(f"points_{s.player_id}", "").strip() for s in seats):
            foot = [
                {
                    "player": s.player_id,
                    "points": values.get(f"points_{s.player_id}", ""),
                    "won": values.get(f"won_{s.player_id}", "") or "0",
                    "lost": values.get(f"lost_{s.player_id}", "") or "0",
                }
                for s in seats
            ]
        try:
            rows = (
                _read_rows(values.get("rows", ""), seats)
                if values.get("rows", "").strip()
                else None
            )
            services.table_paper_result(table=table, foot=foot, rows=rows)
        except RuleError as error:
            problems = [_paper_said(problem, seats) for problem in error.problems]
            refused = _foot_boxes_refused(error.problems, seats)
        else:
            messages.success(
                request, _("Table %(table)s's result is in.") % {"table": table.number}
            )
            return _back(evening, "tables")
    context = {
        "evening": evening,
        "table": table,
        "lines": [
            {
                "seat": s,
                "points": values.get(f"points_{s.player_id}", ""),
                "won": values.get(f"won_{s.player_id}", ""),
                "lost": values.get(f"lost_{s.player_id}", ""),
                "refused": {
                    box for box in ("points", "won", "lost") if f"{box}_{s.player_id}" in refused
                },
            }
            for s in seats
        ],
        "rows": values.get("rows", ""),
        "problems": problems,
    }
    response = render(request, "evenings/paper.html", context, status=400 if problems else 200)
    return _secret(response)


def _tally(
    request: HttpRequest, evening: Evening, table: EveningTable, seats: list[Any]
) -> HttpResponse:
    """A Pitch table's tally card: its two teams' scores, and who won a level round."""
    values = {"first": "", "second": "", "winner": ""}
    if table.paper:
        # A correction starts from the card as it was saved.
        by_position = {seat.position: seat.points for seat in seats}
        values = {
            "first": str(by_position.get(0, "")),
            "second": str(by_position.get(1, "")),
            "winner": "" if table.winning_team is None else str(table.winning_team),
        }
    problems: list[str] = []
    if request.method == "POST":
        values = {key: request.POST.get(key, "").strip() for key in values}
        try:
            services.table_tally_result(
                table=table, scores=[values["first"], values["second"]], winner=values["winner"]
            )
        except RuleError as error:
            problems = [_tally_said(problem, seats) for problem in error.problems]
        else:
            messages.success(
                request, _("Table %(table)s's result is in.") % {"table": table.number}
            )
            return _back(evening, "tables")
    names = [seat.player.name for seat in sorted(seats, key=lambda seat: seat.position)]
    teams = [names[0::2], names[1::2]] if len(names) == 4 else [names, []]
    context = {
        "evening": evening,
        "table": table,
        "teams": teams,
        "values": values,
        "problems": problems,
        "progressive": evening.movement == Evening.PROGRESSIVE,
    }
    response = render(request, "evenings/tally.html", context, status=400 if problems else 200)
    return _secret(response)


def _tally_said(problem: Any, seats: list[Any]) -> str:
    """A problem with a typed score, named by its team ("Ana and Cem: …")."""
    names = [seat.player.name for seat in sorted(seats, key=lambda seat: seat.position)]
    if problem.field in ("scores.0", "scores.1") and len(names) == 4:
        index = int(problem.field[-1])
        team = _("%(a)s and %(b)s") % {"a": names[index], "b": names[index + 2]}
        return _("%(team)s: %(problem)s") % {"team": team, "problem": problem.message}
    return str(problem.message)


@require_POST
def round_time(request: HttpRequest, token: str) -> HttpResponse:
    """The organiser calls time on a Pitch round of minutes."""
    evening = _organised(token)
    try:
        series = services.round_call_time(evening=evening)
    except RuleError as error:
        return _refused(request, evening, error)
    messages.success(
        request,
        _("Time is called on round %(round)s: every table finishes the hand in play.")
        % {"round": series.number},
    )
    return _back(evening, "tables")


@require_POST
def table_end(request: HttpRequest, token: str, table_id: int) -> HttpResponse:
    """Time was called while the table was between hands: its round ends now."""
    evening = _organised(token)
    table = _table(evening, table_id)
    try:
        services.table_end_now(table=table)
    except RuleError as error:
        return _refused(request, evening, error)
    messages.success(request, _("Table %(table)s's round is over.") % {"table": table.number})
    return _back(evening, "tables")


@require_POST
def table_winner(request: HttpRequest, token: str, table_id: int) -> HttpResponse:
    """The organiser says which team won a round that ended level."""
    evening = _organised(token)
    table = _table(evening, table_id)
    try:
        services.table_level_winner(table=table, team=request.POST.get("team", ""))
    except RuleError as error:
        return _refused(request, evening, error)
    messages.success(request, _("Table %(table)s has its winner.") % {"table": table.number})
    return _back(evening, "tables")


@require_POST
def table_signed(request: HttpRequest, token: str, table_id: int) -> HttpResponse:
    """The organiser marks a table signed (its players signed the paper list)."""
    evening = _organised(token)
    table = _table(evening, table_id)
    try:
        services.table_sign(table=table)
    except RuleError as error:
        return _refused(request, evening, error)
    messages.success(request, _("Table %(table)s is signed.") % {"table": table.number})
    return _back(evening, "tables")


@require_http_methods(["GET", "POST"])
def table_sign(request: HttpRequest, token: str) -> HttpResponse:
    """The table's phone (the table link): each player taps their name to sign the
    series once it is over."""
    table = selectors.table_by_link(token)
    if table is None:
        raise Http404(_("No table at this address"))
    if not permissions.can_sign_table(table, token):
        return _secret(
            render(
                request,
                "evenings/sign.html",
                {"table": table, "closed": True},
                status=403,
            )
        )
    if request.method == "POST":
        player = request.POST.get("player", "")
        seat = (
            table.seats.select_related("player").filter(player_id=_whole(player)).first()
            if _whole(player) is not None
            else None
        )
        try:
            if seat is None:
                raise RuleError(_("Tap your name to sign."), "player")
            services.table_sign(table=table, player=seat.player)
        except RuleError as error:
            _problems_message(request, error)
            context = {"table": table, "seats": list(table.seats.select_related("player"))}
            return _secret(render(request, "evenings/sign.html", context, status=400))
        messages.success(request, _("%(name)s has signed.") % {"name": seat.player.name})
        return redirect("evenings:table-sign", token)
    context = {"table": table, "seats": list(table.seats.select_related("player"))}
    return _secret(render(request, "evenings/sign.html", context))


def _listed(view: selectors.EveningView, rows: Any) -> list[dict[str, Any]]:
    """A list's rows as the page shows them: place, name, total in the reader's
    digits, games won and lost (worded once per list: a hundred rows)."""
    games = _("%(won)s won, %(lost)s lost")
    # A Pitch night's tie-breaks: rounds won, then points against.
    rounds = _("rounds won: %(won)s, points against: %(against)s")
    return [
        {
            "player": row.player,
            "place": row.place,
            "name": view.names.get(row.player, ""),
            "total": str(exact(row.total)),
            "games": games % {"won": row.won, "lost": row.lost}
            if row.against is None
            else rounds % {"won": row.won, "against": i18n.number(row.against)},
        }
        for row in rows
    ]


def _series_parts(evening: Evening, view: selectors.EveningView, stamps: Any) -> list[str]:
    """Each series' brief list, newest first, rendered once per state of that series:
    while series 3 is played, the lists of series 1 and 2 are not drawn again."""
    prefix = f"evening:{evening.view_token}:{get_language()}:series:"
    pitch = evening.game == "pitch"
    if pitch:
        empty = _("No table has a result in this round yet.")
    else:
        empty = _("No table has a result in this series yet.")

    def build(number: int) -> tuple[str, dict[str, Any]]:
        rows = _listed(view, selectors.series_ranking(view, number).rows)
        if pitch:
            title = _("Round %(round)s") % {"round": number}
        else:
            title = _("Series %(number)s") % {"number": number}
        context = {"rows": rows, "id": number, "title": title, "empty": empty, "brief": True}
        return "evenings/_ranking_table.html", context

    keys = [f"{prefix}{s.number}:{stamps.series.get(s.number, '')}" for s in reversed(view.series)]
    numbers = [s.number for s in reversed(view.series)]
    rendered = _kept({key: (lambda n=n: build(n)) for key, n in zip(keys, numbers, strict=True)})
    return [rendered[key] for key in keys]


def _ranking_context(evening: Evening, stamps: Any) -> dict[str, Any]:
    view = selectors.evening_view(evening)
    return {
        "evening": evening,
        "view": view,
        # Each row's explanation is its own page, opened in place when the row is
        # tapped: a hundred explained rows would weigh 200 KB on every phone.
        "players_url": reverse("evenings:ranking", args=[evening.view_token]) + "players/",
        "rows": _listed(view, view.brief_ranking.rows),
        "per_series": _series_parts(evening, view, stamps),
        "teams": selectors.team_table(view),
        "rule_url": reverse("evenings:rules") + "#evening-ranking",
        # The money rules every player may know (never who owes what).
        "rules": accounts.rules_of(evening) if accounts.has_money(evening) else None,
        "categories": [
            {
                "tag": tag,
                "rows": _listed(view, r.rows),
            }
            for tag, r in selectors.categories(view)
        ],
    }


def _shared(evening: Evening, part: str, build: Any, *, which: str = "") -> str:
    """A read-only part of a page (no form, no token), rendered once per state of the
    evening and language (and ``which`` player) and shared by every phone and screen
    that follows it."""
    stamps = selectors.evening_stamps(evening)
    key = f"evening:{evening.view_token}:{stamps.whole}:{get_language()}:{part}:{which}"
    return _kept({key: lambda: (part, build(evening, stamps))})[key]


def _player_context(player: EveningPlayer) -> Any:
    def build(evening: Evening, stamps: Any) -> dict[str, Any]:
        view = selectors.evening_view(evening)
        row = view.ranking.row_of(player.pk)
        return {
            "evening": evening,
            "player": player,
            "row": row,
            "steps": (*view.ranking.explanation, *(row.explanation if row else ())),
            # A Pitch night: the player's bids, moons and partners (issue 21).
            "stats": (
                selectors.night_statistics(view, player.pk)
                if evening.game == "pitch" and row
                else None
            ),
        }

    return build


@require_GET
def player_ranking(request: HttpRequest, token: str, player_id: int) -> HttpResponse:
    """How one player's total comes about: opened in place on the ranking page (htmx),
    or as a page of its own."""
    evening = _viewed(token)
    player = EveningPlayer.objects.filter(evening=evening, pk=player_id).first()
    if player is None:
        raise Http404(_("No such player on this evening's roll"))
    steps = _shared(
        evening, "evenings/_player_steps.html", _player_context(player), which=player.pk
    )
    if request.htmx:
        return HttpResponse(steps)
    context = {"evening": evening, "player": player, "steps": steps}
    return render(request, "evenings/player_ranking.html", context)


def _list_context(evening: Evening, stamps: Any) -> dict[str, Any]:
    view = selectors.evening_view(evening)
    numbers = [series.number for series in view.series]
    overall = [
        {
            "place": row.place,
            "name": view.names.get(row.player, ""),
            "cells": [
                next((line.score for line in row.series if line.number == n), None) for n in numbers
            ],
            "total": row.total,
            # What breaks a tie, printed as the ranking shows it: games (at Pitch,
            # rounds) won and lost, and at Pitch the points scored against.
            "won": row.won,
            "lost": row.lost,
            "against": row.against,
        }
        for row in view.brief_ranking.rows
    ]
    return {"evening": evening, "view": view, "overall": overall}


@require_GET
def evening_list(request: HttpRequest, token: str) -> HttpResponse:
    """The evening's list to print: name, each series, total and place."""
    evening = _viewed(token)
    body = _shared(evening, "evenings/_evening_list.html", _list_context)
    return render(request, "evenings/evening_list.html", {"evening": evening, "body": body})


@require_GET
def ranking(request: HttpRequest, token: str) -> HttpResponse:
    """The evening's ranking for the players' phones (the view link)."""
    evening = _viewed(token)
    body = _shared(evening, "evenings/_ranking_body.html", _ranking_context)
    return render(request, "evenings/ranking.html", {"evening": evening, "body": body})


def _screen_context(evening: Evening, stamps: Any = None) -> dict[str, Any]:
    view = selectors.evening_view(evening)
    tables = view.current_tables
    seating = bool(tables) and not any(t.table.deals or t.table.paper for t in tables)
    return {
        "evening": evening,
        "view": view,
        "seating": seating,
        "rows": view.rows(explained=False)[:24],
        "tables": tables,
    }


@require_GET
def screen(request: HttpRequest, token: str) -> HttpResponse:
    """The big screen: the live ranking during play, the next seating between series."""
    evening = _viewed(token)
    body = _shared(evening, "evenings/_screen.html", _screen_context)
    return render(request, "evenings/screen.html", {"evening": evening, "body": body})


@require_GET
def screen_live(request: HttpRequest, token: str) -> HttpResponse:
    """What the big screen polls: its content alone."""
    evening = _viewed(token)
    return HttpResponse(_shared(evening, "evenings/_screen.html", _screen_context))


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The rules of an evening that its explanations link to."""
    return render(request, "evenings/rules.html")


@require_GET
def series_print(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """A series' seating list (by name: table and seat) and a card per table with its
    QR code, to print on A4."""
    evening = _organised(token)
    view = selectors.evening_view(evening)
    series = next((s for s in view.series if s.number == number), None)
    if series is None:
        raise Http404(_("No such series"))
    tables = view.tables.get(number, [])
    pitch = evening.game == "pitch"
    round_ = view.round_of(series) if pitch else None

    def partner(player: int) -> str:
        table = round_.table_of(player) if round_ else None
        return view.names.get(table.partner_of(player), "") if table else ""

    seating = sorted(
        (
            {
                "name": view.names[seat.player_id],
                "table": t.table.number,
                "seat": seat.position + 1,
                "partner": partner(seat.player_id),
            }
            for t in tables
            for seat in t.seats
        ),
        key=lambda line: line["name"].casefold(),
    )
    out = sorted((view.names.get(p, "") for p in series.sitting_out), key=str.casefold)
    cards = []
    for item in tables:
        sheet = item.table.sheet
        url = request.build_absolute_uri(sheet.get_absolute_url()) if sheet else ""
        seats = sorted(item.seats, key=lambda seat: seat.position)
        names = [view.names.get(seat.player_id, "") for seat in seats]
        teams = (names[0::2], names[1::2]) if pitch and len(names) == 4 else None
        cards.append(
            {"table": item.table, "seats": seats, "teams": teams, "qr": qr_svg(url) if url else ""}
        )
    context = {
        "evening": evening,
        "series": series,
        "seating": seating,
        "sitting_out": out,
        "cards": cards,
        "names": view.names,
        "pitch": pitch,
        # A Pitch tally card's lines: a game to 52 takes some ten to twenty hands.
        "tally_lines": range(1, 19),
    }
    return _secret(render(request, "evenings/print_series.html", context))
