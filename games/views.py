"""Web pages. Thin: every rule lives in ``games.rules``; writes go through ``services``.

Every page works without JavaScript (plain forms, redirect after a successful
POST); with htmx the sheet swaps only its board, so entering a deal needs no
page reload. Invalid input answers 422 with the form and its messages, and
changes nothing.
"""

from __future__ import annotations

import datetime
import json
import re
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.formats import date_format
from django.utils.module_loading import import_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import (
    cards_ui,
    charts,
    csv_export,
    entry_forms,
    forms,
    selectors,
    services,
    snapshots,
)
from games.api_input import UnreadableInput
from games.games import GAMES, GameEntry
from games.models import Sheet
from games.qr import qr_svg
from games.rules.errors import Problem, RuleError
from games.rules.sheet import NextDeal, SheetState
from games.rules.text import in_source_language
from games.session_keys import NOTICE, RECENT_NAMES
from scorekeeper import i18n
from scorekeeper.rounding import rounded_int


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", {"games": GAMES.values()})


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """For a load balancer or monitor: the app answers (nothing else is asked)."""
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")


def referee_index(request: HttpRequest) -> HttpResponse:
    """Every referee tool and rule book, one tap away."""
    return render(request, "games/referee/index.html")


# -- Starting a sheet ------------------------------------------------------------------


@require_GET
def sheet_new(request: HttpRequest) -> HttpResponse:
    return render(request, "games/sheet_new.html", {"games": GAMES.values()})


def _game(slug: str) -> GameEntry:
    entry = GAMES.get(slug)
    if entry is None:
        raise Http404("No such game")
    return entry


RECENT_LIMIT = 40


def name_suggestions(request: HttpRequest) -> list[str]:
    """Names to offer on a new sheet: the ones typed on this phone before, and whatever
    the apps named in ``NAME_SUGGESTERS`` offer this visitor (a circle's players).
    Never names from other people's sheets."""
    names: list[str] = list(request.session.get(RECENT_NAMES, []))
    for path in getattr(settings, "NAME_SUGGESTERS", ()):
        names.extend(import_string(path)(request))
    seen: set[str] = set()
    unique = []
    for name in names:
        if isinstance(name, str) and name.casefold() not in seen:
            seen.add(name.casefold())
            unique.append(name)
    return unique


def remember_names(request: HttpRequest, names: list[str]) -> None:
    """Keep the names this phone typed (newest first) in its session."""
    recent = [n for n in request.session.get(RECENT_NAMES, []) if isinstance(n, str)]
    typed = {name.casefold() for name in names}
    recent = names + [n for n in recent if n.casefold() not in typed]
    request.session[RECENT_NAMES] = recent[:RECENT_LIMIT]


def new_sheet_form(
    request: HttpRequest,
    entry: GameEntry,
    *,
    action: str,
    create: Callable[..., Sheet],
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    """The new-sheet form and its POST; ``create`` takes the checked form's values and
    returns the sheet (a circle's page passes one that also seats the circle's players).

    Each form carries an idempotency key: a repeated POST of it (Back and Start again,
    a double tap, a browser's retry) is answered with the sheet the first one started.
    ``again`` (a finished sheet's edit token, from its Play again button) starts the
    next sheet from that one instead of from the form's fields (``games.views_app``)."""
    from games import views_app

    key = views_app.form_key(request.POST.get("idempotency_key"))
    back = views_app.recent_start(request, entry)
    context: dict[str, Any] = {
        "game": entry,
        "known_players": name_suggestions(request),
        "seats": range(max(entry.players)),
        "values": {"players": [""] * max(entry.players), "first_dealer": 0, "options": {}},
        "errors": [],
        "action": action,
        "form_key": key or views_app.new_form_key(),
        "recent_start": back,
        "played_form": forms.played_on_form(),
        **(extra or {}),
    }
    if request.method == "POST":
        if "again" in request.POST:
            again = views_app.play_again_values(request.POST["again"], entry)
            names = again["players"]
            options = again["options"]
            first_dealer = again["first_dealer"]
            played_on = None  # the next game is played today
        else:
            names = [request.POST.get(f"player_{i}", "").strip() for i in range(max(entry.players))]
            # Optional seats left empty mean fewer players at the table.
            while len(names) > min(entry.players) and not names[-1]:
                names.pop()
            options = entry.options_from_post(request.POST)
            first_dealer = _int_or_text(request.POST.get("first_dealer", "0"))
            played_on = forms.posted_day(request.POST.get("played_on"))
        owner = request.user if request.user.is_authenticated else None
        try:
            sheet, started = views_app.start_once(
                request,
                key,
                lambda: create(
                    game=entry.slug,
                    players=names,
                    first_dealer=first_dealer,
                    options=options,
                    owner=owner,
                    played_on=played_on,
                ),
            )
        except RuleError as error:
            context["errors"] = error.problems
            # What was typed stays in the field (the browser shows an unreadable one empty).
            context["played_form"] = forms.PlayedOnForm(
                initial={"played_on": played_on or request.POST.get("played_on", "")}
            )
            padded = names + [""] * (max(entry.players) - len(names))
            context["values"] = {
                "players": padded,
                "first_dealer": first_dealer,
                "options": options,
            }
            return render(request, "games/sheet_new_game.html", context, status=422)
        if started:
            seated = list(selectors.seat_names(sheet))
            remember_names(request, seated)
            views_app.remember_start(request, sheet, seated)
        else:
            messages.info(request, _("This sheet was started already: here it is."))
        return redirect(sheet.get_absolute_url(), permanent=False)
    return render(request, "games/sheet_new_game.html", context)


@require_http_methods(["GET", "POST"])
def sheet_new_game(request: HttpRequest, game: str) -> HttpResponse:
    entry = _game(game)
    return new_sheet_form(
        request,
        entry,
        action=reverse("games:sheet-new-game", args=[entry.slug]),
        create=services.sheet_create,
    )


def _int_or_text(value: str) -> int | str:
    return entry_forms.int_or_text(value)


# -- The sheet ------------------------------------------------------------------------


def _sheet(token: str, *, edit: bool, trashed: bool = False) -> Sheet:
    """The sheet a link opens; a sheet in the trash only where ``trashed`` says the
    page can show it as such."""
    found = selectors.sheet_by_token(token)
    if found is None or (edit and not found[1]):
        raise Http404("No sheet at this link")
    if found[0].deleted_at is not None and not trashed:
        raise Http404("This sheet is in the trash")
    return found[0]


def _in_trash(request: HttpRequest, sheet: Sheet, *, can_edit: bool) -> HttpResponse:
    """A sheet's link while it is in the trash: what happened, until when it can come
    back, and (for whoever may delete it) the button to bring it back. 410 Gone."""
    context = {
        "sheet": sheet,
        "game": GAMES[sheet.game],
        "players": selectors.seat_names(sheet),
        "purge_on": sheet.deleted_at + datetime.timedelta(days=services.TRASH_DAYS),
        "can_restore": can_edit and may_delete(request, sheet),
    }
    response = render(request, "games/sheet_trash.html", context, status=410)
    patch_cache_control(response, no_store=True)
    return response


def _board_context(
    request: HttpRequest,
    sheet: Sheet,
    *,
    can_edit: bool,
    written: services.HandOutcome | None = None,
    values: dict | None = None,
    errors: list[Problem] | None = None,
    every_deal: bool = False,
    parts_only: bool = False,
    notice: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the sheet's board shows. It lists the latest deals only (``TAIL``), from
    the engine the last write kept, so it costs the same at deal 200 as at deal 10;
    ``every_deal`` replays the sheet and lists them all. ``parts_only``: for the answer
    to a new deal (sheet_saved.html), which shows no list, no links to share and no
    undone deal (a new deal takes their place), so none of them is read."""
    entry = GAMES[sheet.game]
    if parts_only and written is not None and written.hand is not None:
        hands, state = [written.hand], written.state
    elif written is not None and written.hands is not None:
        # The state a write replayed, with the very deals it replayed.
        hands, state = written.hands, written.state
    elif written is not None:
        hands, state = selectors.latest_hands(sheet), written.state
    elif every_deal:
        hands = selectors.live_hands(sheet)
        state = selectors.sheet_state(sheet, hands)
    else:
        hands, state = selectors.latest_hands(sheet), selectors.current_state(sheet)
    options = entry.sheet_options(sheet)
    columns = _columns(state)
    scored = {deal.number: deal for deal in state.deals}
    shown = hands if every_deal else hands[-snapshots.TAIL :]
    links = _deal_links(sheet, can_edit)
    rows = [
        _row(hand, scored[hand.number], columns, links) for hand in shown if hand.number in scored
    ]
    if rows:
        # The newest deal comes explained; older ones load their lines when opened.
        rows[-1]["explained"] = True
    if notice and notice.get("place") == "deal":
        # "Deal 3 corrected: …" beside the deal itself, where the page jumps to.
        for row in rows:
            if row["deal"].number == notice.get("number"):
                row["notice"] = notice.get("text")
    context = {
        "tally": _tally(state),
        "columns": columns,
        "sheet": sheet,
        "game": entry,
        "state": state,
        "rows": rows[::-1],  # newest first: the deal just entered is at the top
        "older": sheet.deal_count > len(rows),
        "players": list(enumerate(state.players)),
        "names": state.players,
        "options": options,
        "options_summary": entry.options_summary(options, players=len(state.players)),
        "can_edit": can_edit,
        "values": entry.form_values(values or {}),
        # The form holds no entered values (its defaults are a new deal's): after a
        # save, entry.js can reset it in place of being sent a new one.
        "fresh_form": values is None and not errors,
        "entry_cache_key": _entry_cache_key(request, sheet, state, values, errors),
        "errors": errors or [],
        "error_fields": {p.field for p in errors or [] if p.field},
        "idempotency_key": uuid.uuid4().hex,
        "undone": services.undone_hand(sheet) if can_edit and not parts_only else None,
        "undo_notice": notice.get("text") if notice and notice.get("place") == "undo" else None,
        "last_hand": hands[-1] if hands else None,
        "can_delete": can_edit and may_delete(request, sheet),
        "stale": False,
        # The poll asks for what the page lists: the latest deals, or every one.
        "live_url": reverse("games:sheet-live", args=[sheet.view_token])
        + ("?deals=all&" if every_deal else "?"),
        # Empty card pickers load when their section is opened (each is some 100 tick
        # boxes); ?pickers=all puts them in the page, for a phone without JavaScript.
        "lazy_pickers": request.GET.get("pickers") != "all",
    }
    if can_edit and not parts_only:
        context["played_form"] = forms.played_on_form(sheet.played_on)
        view_url = request.build_absolute_uri(sheet.get_view_url())
        edit_url = request.build_absolute_uri(sheet.get_absolute_url())
        context["share"] = {
            "view_url": view_url,
            "edit_url": edit_url,
            "view_qr": qr_svg(view_url),
            "edit_qr": qr_svg(edit_url),
        }
    return context


def _entry_cache_key(
    request: HttpRequest,
    sheet: Sheet,
    state: SheetState,
    values: dict | None,
    errors: list[Problem] | None,
) -> str | None:
    """What the questions of a fresh entry form depend on, or None for a form that
    holds entered values or problems (rendered each time)."""
    if values is not None or errors or state.next_deal is None:
        return None
    return json.dumps(
        [
            sheet.game,
            sheet.options,
            list(state.players),
            state.next_deal.sitting_out,
            get_language(),
            request.GET.get("pickers") != "all",
        ],
        sort_keys=True,
        default=str,
    )


_NUMBER = 987654321


def _deal_links(sheet: Sheet, can_edit: bool) -> dict[str, str]:
    """The URLs of a listed deal's explanation, correction and deletion, with ``{n}`` for
    its number: reversed once per page, not three times per row."""
    if can_edit:
        names = {"explain": "games:deal-explain", "correct": "games:deal-correct"}
        names["delete"] = "games:deal-delete"
        token = sheet.edit_token
    else:
        names, token = {"explain": "games:deal-view-explain"}, sheet.view_token
    return {
        key: reverse(name, args=[token, _NUMBER]).replace(str(_NUMBER), "{n}")
        for key, name in names.items()
    }


def _row(
    hand: Any, deal: Any, columns: list[dict[str, Any]], links: dict[str, str]
) -> dict[str, Any]:
    cells = [_cell(deal, column) for column in columns]
    urls = {key: url.replace("{n}", str(deal.number)) for key, url in links.items()}
    return {
        "hand": hand,
        "deal": deal,
        "cells": cells,
        "urls": urls,
        # Everything a row shows (the links name the sheet and whether they edit): a
        # row not explained in the page is rendered once for all of it (sheet.html).
        "key": json.dumps(
            [hand.pk, deal.number, str(deal.summary), cells, urls, get_language()],
            sort_keys=True,
            default=str,
        ),
    }


def _columns(state: SheetState) -> list[dict[str, Any]]:
    """The sheet's columns: one per player, or one per team where teams score (Pitch)."""
    if "teams" in state.details:
        return [
            {
                # Translators: a Pitch team's column: "Team A".
                "label": _("Team %(team)s") % {"team": team},
                "names": " & ".join(state.players[s] for s in seats),
                "seat": seats[0],
                "total": state.details["teams"][team],
                "leader": bool(state.winners) and seats[0] in state.winners,
            }
            # Who partners whom is the game's rule: the engine says (Pitch: 1+3, 2+4).
            for team, seats in state.details["team_seats"].items()
        ]
    decided = _decided_by_seeger_fabian(state)
    return [
        {
            "label": name,
            "names": "",
            "seat": seat,
            # At the end of a series ranked by Seeger-Fabian, the big number is what
            # decided who won; the list points come second.
            "total": decided[seat] if decided else state.totals[seat],
            "second": state.totals[seat] if decided else None,
            "leader": seat in state.winners,
        }
        for seat, name in enumerate(state.players)
    ]


def _decided_by_seeger_fabian(state: SheetState) -> dict[int, int] | None:
    """Each seat's Seeger-Fabian points when the sheet is over and they chose the
    winner (a Skat series, ranked by them: its state's standings), else None."""
    result = state.details.get("seeger_fabian")
    if not state.finished or result is None or "standings" not in state.details:
        return None
    return {row.seat: row.total for row in result.rows}


def _tally(state: SheetState) -> list[tuple[int, Any]]:
    """Skat's Seeger-Fabian rows in standing order, with their places."""
    result = state.details.get("seeger_fabian")
    if result is None:
        return []
    rows = {row.seat: row for row in result.rows}
    return [(place, rows[seat]) for place, seat in result.standings]


def _cell(deal: Any, column: dict[str, Any]) -> dict[str, int]:
    return {"change": deal.scores[column["seat"]], "total": deal.totals[column["seat"]]}


def _page_or_board(
    request: HttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    template = "games/sheet.html"
    if request.htmx and not request.htmx.boosted:
        template += "#board"
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def sheet_page(request: HttpRequest, token: str) -> HttpResponse:
    sheet = _sheet(token, edit=True, trashed=True)
    if sheet.deleted_at is not None:
        return _in_trash(request, sheet, can_edit=True)
    if request.method == "GET":
        every = request.GET.get("deals") == "all"
        notice = _pop_notice(request, sheet)
        context = _board_context(request, sheet, can_edit=True, every_deal=every, notice=notice)
        return _page_or_board(request, context)
    entry = GAMES[sheet.game]
    data = entry.entry_from_post(request.POST, players=len(selectors.seat_names(sheet)))
    key = request.POST.get("idempotency_key") or None
    version = _posted_version(request)
    # A deal kept on a phone without a connection (offline.js) comes without the version
    # of the page it was typed on, but with the number it was entered as: it is stored
    # only as that deal, never after one another phone saved meanwhile.
    entered_as = _posted_entered_as(request) if version is None else None
    written: list[services.HandOutcome] = []

    def record() -> services.Answer:
        for _attempt in range(3):
            expected = version
            if entered_as is not None:
                sheet.refresh_from_db(fields=["version", "deal_count"])
                if sheet.deal_count + 1 != entered_as:
                    return 412, _entered_before(sheet, entered_as)
                # Stored only on the sheet just looked at (If-Match): a write in between
                # is looked at again.
                expected = sheet.version
            try:
                outcome = services.hand_record(
                    sheet=sheet, data=data, expected_version=expected, by=_actor(request)
                )
            except services.StaleSheet:
                if entered_as is not None:
                    continue
                return 412, _stale_entry()
            except (UnreadableInput, RuleError) as error:
                return 422, _problems_json(error)
            written.append(outcome)
            return 201, {"number": outcome.hand.number}
        return 412, _stale_entry()

    def reused() -> services.Answer:
        # The form's first send saved its deal (its answer never reached the phone),
        # and it was changed and sent again: the sheet as it is now, not a second deal.
        rounds = GAMES[sheet.game].counts_rounds
        if rounds:
            message = _(
                "This form had saved its round already, before it was changed; here is the "
                "sheet as it is now. Correct that round on the sheet if it is wrong."
            )
        else:
            message = _(
                "This form had saved its deal already, before it was changed; here is the "
                "sheet as it is now. Correct that deal on the sheet if it is wrong."
            )
        return 412, {"errors": [{"field": None, "message": message}]}

    # The same deal whatever language the page was read in: a deal kept on the phone and
    # sent again after the player switched the language is still the same deal.
    print_ = services.fingerprint("POST", f"sheet/{sheet.pk}/deals", data)
    scope = services.key_scope(sheet=sheet, link=sheet.edit_token)
    status, answer = services.idempotent(
        scope=scope, key=key, print_=print_, action=record, reused=reused
    )
    if written and written[0].sheet is not None:
        sheet = written[0].sheet  # as the write left it: no need to read it again
    else:
        sheet.refresh_from_db()
    if status == 412:
        # The deal was not saved because the sheet changed: it stays in the form, under
        # the sheet as it is now ("kept": the answer of a form whose deal was saved has
        # no deal to keep).
        kept = data if answer.get("kept") else None
        return _stale_board(request, sheet, answer, values=kept)
    if status >= 400:
        problems = [Problem(e["field"], e["message"]) for e in answer["errors"]]
        context = _board_context(request, sheet, can_edit=True, values=data, errors=problems)
        return _page_or_board(request, context, status=422)
    if not request.htmx:
        if written:
            messages.success(request, _saved_message(sheet, written[0].deal))
        return redirect(sheet.get_absolute_url())
    if not written:
        # A retry answered from its key: the board as it is now.
        response = _page_or_board(request, _board_context(request, sheet, can_edit=True))
    else:
        response = _saved(request, sheet, written[0])
    if isinstance(answer.get("number"), int):
        # The deal's number on the sheet: the deals kept on the phone after one it sent
        # follow it (offline.js).
        response["X-Deal-Number"] = str(answer["number"])
    return response


def _saved_message(sheet: Sheet, deal: Any) -> str:
    values = {"number": deal.number, "summary": deal.summary}
    if GAMES[sheet.game].counts_rounds:
        return _("Round %(number)s saved: %(summary)s") % values
    return _("Deal %(number)s saved: %(summary)s") % values


def _saved(request: HttpRequest, sheet: Sheet, outcome: services.HandOutcome) -> HttpResponse:
    """The answer to a deal saved with htmx: only what changed (``sheet_saved.html``),
    its size the same however long the sheet. The first deal (the list appears) swaps
    the whole board."""
    whole = outcome.hand.number == 1 or request.htmx.boosted
    # The state a new deal leaves holds that deal alone (the engine started from the
    # counts kept before it, games.snapshots): a whole board after more deals than one
    # reads the sheet as stored.
    written = outcome if not whole or outcome.hand.number == 1 else None
    context = _board_context(request, sheet, can_edit=True, written=written, parts_only=not whole)
    context["saved"] = outcome.deal
    if whole:
        return _page_or_board(request, context)
    (context["new_row"],) = context["rows"]  # the deal just saved, explained
    # A form drawn fresh is reset in the phone (entry.js): the answer carries only the
    # parts of it that change from deal to deal, not the whole form again.
    context["lean"] = request.POST.get("entry_fresh") == "1"
    response = render(request, "games/sheet_saved.html", context)
    response["HX-Reswap"] = "none"
    return response


def _actor(request: HttpRequest) -> services.Actor:
    return services.Actor(user=request.user, via="link")


def _posted_version(request: HttpRequest) -> int | None:
    """The sheet version the form was made from (its If-Match); None if not sent."""
    value = entry_forms.int_or_text(request.POST.get("version", ""))
    return value if isinstance(value, int) and value >= 0 else None


def _posted_entered_as(request: HttpRequest) -> int | None:
    """The number a deal kept on the phone was entered as (offline.js); None if not sent."""
    value = entry_forms.int_or_text(request.POST.get("entered_as", ""))
    return value if isinstance(value, int) and value > 0 else None


def _problems_json(error: RuleError) -> dict[str, Any]:
    return {"errors": [{"field": p.field, "message": p.message} for p in error.problems]}


def _stale_entry() -> dict[str, Any]:
    """The new deal was typed on an older sheet than the one stored: nothing saved, and
    what was typed stays in the form."""
    message = _(
        "This sheet changed meanwhile (on another phone): here is the sheet now, and what "
        "you entered is still in the form. Check the sheet, then save it again or change it."
    )
    return {"errors": [{"field": None, "message": message}], "kept": True}


def _entered_before(sheet: Sheet, number: int) -> dict[str, Any]:
    """A deal kept on the phone as deal ``number``, while the sheet went on without it
    (another phone saved that deal, or undid one): nothing saved until the player says."""
    values = {"number": number, "next": sheet.deal_count + 1}
    if GAMES[sheet.game].counts_rounds:
        message = _(
            "This sheet changed meanwhile (on another phone): this round was entered as "
            "round %(number)s, but the sheet's next round is round %(next)s now. Check the "
            "sheet, then save it anyway or discard it."
        )
    else:
        message = _(
            "This sheet changed meanwhile (on another phone): this deal was entered as "
            "deal %(number)s, but the sheet's next deal is deal %(next)s now. Check the "
            "sheet, then save it anyway or discard it."
        )
    return {"errors": [{"field": None, "message": message % values}], "kept": True}


def _stale_board(
    request: HttpRequest,
    sheet: Sheet,
    answer: dict[str, Any],
    values: dict[str, Any] | None = None,
) -> HttpResponse:
    """412: the phone had an older sheet than the one stored. Nothing was changed; the
    page shows the sheet as it is now, with the message at the top, and ``values`` (a
    new deal that was not saved) in its form."""
    if not request.htmx and values is None:
        for error in answer["errors"]:
            messages.error(request, str(error["message"]))
        return redirect(sheet.get_absolute_url())
    context = _board_context(request, sheet, can_edit=True, values=values)
    context["board_errors"] = [Problem(e["field"], e["message"]) for e in answer["errors"]]
    context["stale"] = True
    return _page_or_board(request, context, status=412)


@require_POST
def sheet_preview(request: HttpRequest, token: str) -> HttpResponse:
    """The score and explanation of the deal being entered, before it is saved."""
    sheet = _sheet(token, edit=True)
    entry = GAMES[sheet.game]
    data = entry.entry_from_post(request.POST, players=len(selectors.seat_names(sheet)))
    number = _int_or_text(request.POST.get("number", "")) or None
    context: dict[str, Any] = {"sheet": sheet, "game": entry}
    try:
        state, deal = services.hand_preview(
            sheet=sheet,
            data=data,
            number=number if isinstance(number, int) else None,
            drop_later=request.POST.get("drop_later") == "1",
        )
    except (UnreadableInput, RuleError) as error:
        context["errors"] = error.problems
        return render(request, "games/sheet.html#preview", context)
    context.update({"deal": deal, "state": state, "players": list(enumerate(state.players))})
    return render(request, "games/sheet.html#preview", context)


PICKER_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


@require_GET
def card_picker(request: HttpRequest) -> HttpResponse:
    """One empty card picker, for a placeholder that loads it when shown
    (``games.cards_ui.lazy_picker_html``). Nothing of any sheet is read."""
    name = request.GET.get("name", "")
    deck = request.GET.get("deck", "")
    copies = request.GET.get("copies", "1")
    total = request.GET.get("total", "")
    label = request.GET.get("label", "")[:200]
    if (
        not PICKER_NAME.fullmatch(name)
        or deck not in cards_ui.DECKS
        or copies not in ("1", "2")
        or total not in ("", "points", "penalty")
    ):
        return HttpResponse(_("No such card picker."), status=400, content_type="text/plain")
    html = cards_ui.picker_html(
        name=name,
        deck=deck,
        selected=None,
        copies=int(copies),
        label=label,
        total=total,
        single=request.GET.get("single") == "1",
    )
    response = HttpResponse(html)
    patch_cache_control(response, public=True, max_age=3600)
    return response


@require_GET
def deal_explain(request: HttpRequest, token: str, number: int, edit: bool = False) -> HttpResponse:
    """How a deal on the sheet was scored, line by line: the sheet page loads it when a
    deal is opened (only the newest deal comes with the page). A deal among the latest
    comes from the kept engine; an older one replays the sheet up to it."""
    sheet = _sheet(token, edit=edit)
    if not 1 <= number <= sheet.deal_count:
        raise Http404("No such deal")
    state = selectors.current_state(sheet)
    deal = next((d for d in state.deals if d.number == number), None)
    if deal is None:
        hands = selectors.live_hands(sheet)[:number]
        deal = selectors.sheet_state(sheet, hands).deals[number - 1]
    context = {"sheet": sheet, "game": GAMES[sheet.game], "deal": deal, "can_edit": edit}
    template = "games/deal_explain.html"
    if request.htmx:
        template += "#steps"
    response = render(request, template, context)
    response["ETag"] = _etag(sheet, f"explain-{number}")
    patch_cache_control(response, no_cache=True, private=True)
    return response


@require_http_methods(["GET", "POST"])
def deal_correct(request: HttpRequest, token: str, number: int) -> HttpResponse:
    sheet = _sheet(token, edit=True)
    entry = GAMES[sheet.game]
    hands = selectors.live_hands(sheet)
    if not 1 <= number <= len(hands):
        raise Http404("No such deal")
    state = selectors.sheet_state(sheet, hands)
    deal = state.deals[number - 1]
    values = hands[number - 1].entry
    errors: list[Problem] = []
    status = 200
    ends_early: services.GameEndsEarlier | None = None
    if request.method == "POST":
        values = entry.entry_from_post(request.POST, players=len(state.players))
        try:
            outcome = services.hand_correct(
                sheet=sheet,
                hand_id=_posted_hand(request) or hands[number - 1].pk,
                data=values,
                expected_version=_posted_version(request),
                drop_later=request.POST.get("drop_later") == "1",
                by=_actor(request),
            )
        except services.StaleSheet as error:
            return _stale_board(request, sheet, _problems_json(error))
        except services.GameEndsEarlier as error:
            # What was typed stays in the form, with a button that saves it and deletes
            # the deals after the new end (the history keeps them).
            errors = list(error.problems)
            ends_early = error
            status = 422
        except (UnreadableInput, RuleError) as error:
            errors = list(error.problems)
            status = 422
        else:
            kept = outcome.hands or []
            dropped = len(hands) - len(kept)
            text = _corrected_message(entry, outcome, before=state, dropped=dropped)
            _keep_notice(request, sheet, "deal", outcome.hand.number, text)
            # A deal older than the ones the sheet lists at first: the page lists them all.
            shown = "?deals=all" if outcome.hand.number <= len(kept) - snapshots.TAIL else ""
            return redirect(sheet.get_absolute_url() + f"{shown}#deal-{outcome.hand.number}")
    # The entry form hides the seats that sat this deal out (the dealer at a Skat table of
    # four; at five also the third player to the dealer's left).
    out = deal.details.get("sitting_out")
    seats = NextDeal(
        number=number,
        dealer=deal.dealer,
        forehand=deal.dealer,
        sitting_out=out,
        sitting_out_seats=tuple(
            deal.details.get("sitting_out_seats", () if out is None else (out,))
        ),
    )
    context = {
        "sheet": sheet,
        "game": entry,
        "state": state,
        "players": list(enumerate(state.players)),
        "options": entry.sheet_options(sheet),
        "can_edit": True,
        "values": entry.form_values(values),
        "errors": errors,
        # Empty card pickers load when shown, as on the sheet (?pickers=all without a script).
        "lazy_pickers": request.GET.get("pickers") != "all",
        "number": number,
        "deal": deal,
        "deal_seats": seats,
        "hand": hands[number - 1],
        "ends_early": ends_early,
    }
    return render(request, "games/deal_correct.html", context, status=status)


def _keep_notice(request: HttpRequest, sheet: Sheet, place: str, number: int, text: str) -> None:
    """A message for the sheet page the browser is sent to next: beside the deal it is
    about (``place`` "deal") or in the undo bar ("undo"). Kept in the session, not as
    one of the page's messages: those show at the top, out of sight when the page
    jumps to the deal."""
    request.session[NOTICE] = {"sheet": sheet.pk, "place": place, "number": number, "text": text}


def _pop_notice(request: HttpRequest, sheet: Sheet) -> dict[str, Any] | None:
    notice = request.session.get(NOTICE)
    if not isinstance(notice, dict) or notice.get("sheet") != sheet.pk:
        return None
    del request.session[NOTICE]
    return notice


def _corrected_message(
    entry: GameEntry, outcome: services.HandOutcome, *, before: SheetState, dropped: int
) -> str:
    """The message "Deal 3 corrected: …", and what else the correction changed: the
    deals after a new end of the game that went with it, and who won when that moved."""
    from games.templatetags.sheets import winner_names

    after = outcome.state
    values = {"number": outcome.hand.number, "summary": outcome.deal.summary}
    if entry.counts_rounds:
        parts = [_("Round %(number)s corrected: %(summary)s.") % values]
    else:
        parts = [_("Deal %(number)s corrected: %(summary)s.") % values]
    if dropped:
        first = len(outcome.hands or []) + 1  # the first deal after the new end
        later = {"first": first, "last": first + dropped - 1}
        if entry.counts_rounds:
            text = ngettext(
                "Round %(first)s came after the end of the game and was deleted; "
                "the history keeps it.",
                "Rounds %(first)s to %(last)s came after the end of the game and were "
                "deleted; the history keeps them.",
                dropped,
            )
        else:
            text = ngettext(
                "Deal %(first)s came after the end of the game and was deleted; "
                "the history keeps it.",
                "Deals %(first)s to %(last)s came after the end of the game and were "
                "deleted; the history keeps them.",
                dropped,
            )
        parts.append(text % later)
    now = {"names": winner_names(after), "before": winner_names(before)}
    if after.finished and not before.finished:
        parts.append(_("The game is over now: %(names)s won.") % now)
    elif before.finished and not after.finished:
        parts.append(_("The game is not over any more: %(before)s no longer won.") % now)
    elif after.finished and tuple(after.winners) != tuple(before.winners):
        parts.append(_("The win moved: %(names)s won, not %(before)s.") % now)
    return " ".join(parts)


def _board_after(
    request: HttpRequest,
    sheet: Sheet,
    problems: list[Problem] | None = None,
    notice: dict[str, Any] | None = None,
) -> HttpResponse:
    sheet.refresh_from_db()
    if not request.htmx:
        # Without htmx the page is loaded afresh: the refusal travels as a message, in
        # the reader's language (a stored message would keep a referee Text's English).
        for problem in problems or []:
            messages.error(request, str(problem.message))
        if notice:
            _keep_notice(request, sheet, notice["place"], notice["number"], notice["text"])
        return redirect(sheet.get_absolute_url())
    context = _board_context(request, sheet, can_edit=True, notice=notice)
    context["board_errors"] = problems or []
    return _page_or_board(request, context, status=422 if problems else 200)


def _posted_hand(request: HttpRequest) -> int | None:
    value = entry_forms.int_or_text(request.POST.get("hand", ""))
    return value if isinstance(value, int) and value > 0 else None


def _sheet_write(
    request: HttpRequest,
    sheet: Sheet,
    action: Callable[[], Any],
    notice: Callable[[Any], dict[str, Any]] | None = None,
) -> HttpResponse:
    """A change from the sheet's buttons: refused changes come back as messages on the
    board, a stale phone gets the sheet as it is now (412); ``notice`` makes the message
    that says what was done, from the write's outcome."""
    try:
        outcome = action()
    except services.StaleSheet as error:
        return _stale_board(request, sheet, _problems_json(error))
    except RuleError as error:
        return _board_after(request, sheet, list(error.problems))
    return _board_after(request, sheet, notice=notice(outcome) if notice else None)


def _undone_notice(outcome: services.HandOutcome, rounds: bool) -> dict[str, Any]:
    number = outcome.hand.number
    if rounds:
        text = _("Round %(number)s undone.") % {"number": number}
    else:
        text = _("Deal %(number)s undone.") % {"number": number}
    return {"place": "undo", "number": number, "text": text}


def _back_notice(outcome: services.HandOutcome, rounds: bool) -> dict[str, Any]:
    values = {"number": outcome.hand.number, "summary": outcome.deal.summary}
    if rounds:
        text = _("Round %(number)s is back: %(summary)s.") % values
    else:
        text = _("Deal %(number)s is back: %(summary)s.") % values
    return {"place": "deal", "number": outcome.hand.number, "text": text}


@require_POST
def deal_delete(request: HttpRequest, token: str, number: int) -> HttpResponse:
    sheet = _sheet(token, edit=True)
    return _sheet_write(
        request,
        sheet,
        lambda: services.hand_remove(
            sheet=sheet,
            number=number,
            hand_id=_posted_hand(request),
            expected_version=_posted_version(request),
            by=_actor(request),
        ),
    )


@require_POST
def sheet_undo(request: HttpRequest, token: str) -> HttpResponse:
    """Undo the last deal. The button names that deal: a second tap (or a retry) that
    arrives after it was undone finds it gone and changes nothing more."""
    sheet = _sheet(token, edit=True)
    hands = selectors.live_hands(sheet)
    named = _posted_hand(request)
    rounds = GAMES[sheet.game].counts_rounds
    if not hands:
        if rounds:
            message = _("There is no round to undo yet.")
        else:
            message = _("There is no deal to undo yet.")
        return _board_after(request, sheet, [Problem(None, message)])
    if named is not None and named != hands[-1].pk:
        if rounds:
            message = _(
                "That round was undone already (or is no longer the last one): "
                "nothing more was undone."
            )
        else:
            message = _(
                "That deal was undone already (or is no longer the last one): "
                "nothing more was undone."
            )
        return _board_after(request, sheet, [Problem(None, message)])
    return _sheet_write(
        request,
        sheet,
        lambda: services.hand_remove(
            sheet=sheet,
            hand_id=hands[-1].pk,
            expected_version=_posted_version(request),
            by=_actor(request),
        ),
        notice=lambda outcome: _undone_notice(outcome, rounds),
    )


@require_POST
def sheet_redo(request: HttpRequest, token: str) -> HttpResponse:
    sheet = _sheet(token, edit=True)
    return _sheet_write(
        request,
        sheet,
        lambda: services.hand_restore(
            sheet=sheet, hand_id=_posted_hand(request), by=_actor(request)
        ),
        notice=lambda outcome: _back_notice(outcome, GAMES[sheet.game].counts_rounds),
    )


@require_POST
def event_recover(request: HttpRequest, token: str, event_id: int) -> HttpResponse:
    """Bring back a deleted, overwritten or undone deal from the sheet's history."""
    sheet = _sheet(token, edit=True)
    try:
        services.event_recover(sheet=sheet, event_id=event_id, by=_actor(request))
    except RuleError as error:
        for problem in error.problems:
            messages.error(request, str(problem.message))
        return redirect("games:sheet-history", token)
    if GAMES[sheet.game].counts_rounds:
        messages.success(request, _("The round is back on the sheet."))
    else:
        messages.success(request, _("The deal is back on the sheet."))
    return redirect(sheet.get_absolute_url())


@require_GET
def sheet_history(request: HttpRequest, token: str) -> HttpResponse:
    """Every change to the sheet, newest first, with a way back for lost deals."""
    sheet = _sheet(token, edit=True)
    events = list(sheet.events.select_related("user")[:500])
    response = render(
        request,
        "games/sheet_history.html",
        {
            "sheet": sheet,
            "game": GAMES[sheet.game],
            "players": selectors.seat_names(sheet),
            "lines": selectors.history(sheet, events),
            "recoverable": services.RECOVERABLE,
        },
    )
    patch_cache_control(response, no_store=True)
    return response


def may_delete(request: HttpRequest, sheet: Sheet) -> bool:
    """A sheet started by an account is that account's to delete; one kept by its
    edit link alone, whoever holds the link's."""
    return sheet.owner_id is None or sheet.owner_id == request.user.pk


@require_http_methods(["GET", "POST"])
def sheet_delete(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks first (the sheet page links here, so one tap never deletes); the POST
    of that page's button moves the sheet to the trash."""
    sheet = _sheet(token, edit=True)
    if not may_delete(request, sheet):
        messages.error(request, _("Only the account that started this sheet can delete it."))
        return redirect(sheet.get_absolute_url())
    if request.method == "GET":
        context = {
            "sheet": sheet,
            "game": GAMES[sheet.game],
            "players": selectors.seat_names(sheet),
            "trash_days": services.TRASH_DAYS,
        }
        response = render(request, "games/sheet_delete.html", context)
        patch_cache_control(response, no_store=True)
        return response
    try:
        services.sheet_delete(sheet=sheet, by=_actor(request))
    except RuleError as error:  # kept by an app built on sheets (a club evening's table)
        for problem in error.problems:
            messages.error(request, problem.message)
    return redirect(sheet.get_absolute_url())


@require_POST
def sheet_undelete(request: HttpRequest, token: str) -> HttpResponse:
    found = selectors.sheet_by_token(token)
    if found is None or not found[1]:
        raise Http404("No sheet at this link")
    sheet = found[0]
    if not may_delete(request, sheet):
        raise Http404("No sheet at this link")
    services.sheet_undelete(sheet=sheet, by=_actor(request))
    messages.success(request, _("The sheet is back."))
    return redirect(sheet.get_absolute_url())


@require_POST
def links_rotate(request: HttpRequest, token: str) -> HttpResponse:
    """New edit and view links; the old ones stop working at once."""
    sheet = _sheet(token, edit=True)
    sheet = services.links_rotate(sheet=sheet, by=_actor(request))
    messages.success(
        request,
        _("New links are ready; the old ones no longer work. Share the new ones below."),
    )
    return redirect(sheet.get_absolute_url())


@require_POST
def sheet_played_on(request: HttpRequest, token: str) -> HttpResponse:
    """Say which day the sheet was played: it counts for that evening."""
    sheet = _sheet(token, edit=True)
    day = forms.posted_day(request.POST.get("played_on"))
    try:
        sheet = services.sheet_set_played_on(
            sheet=sheet,
            played_on=day if day is not None else "",
            by=_actor(request),
        )
    except RuleError as error:
        for problem in error.problems:
            messages.error(request, str(problem.message))
        return redirect(sheet.get_absolute_url())
    messages.success(
        request,
        _("The sheet counts as played on %(day)s.")
        % {"day": date_format(sheet.played_on, "DATE_FORMAT")},
    )
    return redirect(sheet.get_absolute_url())


def _etag(sheet: Sheet, kind: str) -> str:
    return f'"{kind}-{sheet.pk}-{sheet.version}"'


@require_GET
def sheet_view(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only sheet for the other players' phones."""
    sheet = _sheet(token, edit=False, trashed=True)
    if sheet.deleted_at is not None:
        return _in_trash(request, sheet, can_edit=False)
    # ?deals=all lists every deal, as the edit link's page does.
    every = request.GET.get("deals") == "all"
    etag = _etag(sheet, "view-all" if every else "view")
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    elif request.htmx and not request.htmx.boosted:
        response = HttpResponse(_view_board(request, sheet, every_deal=every))
    else:
        entry = GAMES[sheet.game]
        names = selectors.seat_names(sheet)
        context = {
            "sheet": sheet,
            "game": entry,
            "names": names,
            "can_edit": False,
            "options_summary": entry.options_summary(
                entry.sheet_options(sheet), players=len(names)
            ),
            "board_html": _view_board(request, sheet, every_deal=every),
        }
        response = render(request, "games/sheet.html", context)
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _view_board(request: HttpRequest, sheet: Sheet, *, every_deal: bool = False) -> str:
    """The read-only board of this sheet version, rendered once and shared by every
    phone that follows the sheet (it holds no form and nothing of the visitor's); with
    ``every_deal``, every deal listed."""
    renders = caches["renders"]
    # By the view token, not the id: an id can come back after a sheet is purged.
    key = f"board:{sheet.view_token}:{sheet.version}:{get_language()}{':all' if every_deal else ''}"
    html = renders.get(key)
    if html is None:
        context = _board_context(request, sheet, can_edit=False, every_deal=every_deal)
        html = render_to_string("games/sheet.html#board", context)
        renders.set(key, html)
    return mark_safe(html)  # our own template's output, escaped when rendered


@require_GET
def sheet_live(request: HttpRequest, token: str) -> HttpResponse:
    """The poll of the read-only view: 204 (one small query) while nothing changed."""
    found = selectors.sheet_by_token(token)
    if found is None:
        raise Http404("No sheet at this link")
    sheet = found[0]
    if sheet.deleted_at is not None:
        # Gone: the page stops updating (htmx swaps nothing on a 410).
        return HttpResponse(status=410)
    since = request.GET.get("since", "")
    etag = _etag(sheet, "live")
    if since == str(sheet.version) or request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=204)
    else:
        every = request.GET.get("deals") == "all"
        response = HttpResponse(_view_board(request, sheet, every_deal=every))
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    return response


def running_totals_chart(sheet: Sheet, state: SheetState) -> str | None:
    """The running totals deal by deal, as an SVG line chart (None before two deals)."""
    if len(state.deals) < 2:
        return None
    entry = GAMES[sheet.game]
    columns = _columns(state)
    if entry.counts_rounds:
        description = _("Round by round, from 0 at the start.")
    else:
        description = _("Deal by deal, from 0 at the start.")
    series = [
        charts.Series(
            column["label"]
            if not column["names"]
            # Translators: a chart line's name: a Pitch team and its players ("Team A: Ana & Ben").
            else _("%(team)s: %(names)s") % {"team": column["label"], "names": column["names"]},
            (0.0, *(float(deal.totals[column["seat"]]) for deal in state.deals)),
        )
        for column in columns
    ]
    return charts.line_chart(
        title=_("Running totals"),
        description=description,
        x_labels=["0", *(str(deal.number) for deal in state.deals)],
        series=series,
        y_label=_("Total"),
        number_format=_chart_number,
        chart_id=f"sheet-{sheet.pk}",
    )


def _chart_number(value: float) -> str:
    """The chart's numbers: as they always were in English (``1,234``), as the reader's
    language writes them otherwise (``1.234`` in German)."""
    if in_source_language():
        return charts.format_number(value)
    return i18n.number(rounded_int(value))


@require_GET
def sheet_chart(request: HttpRequest, token: str, edit: bool = False) -> HttpResponse:
    """The running totals chart, by either link: the part htmx loads when the chart is
    opened, or a page of its own without JavaScript."""
    sheet = _sheet(token, edit=edit)
    can_edit = sheet.edit_token == token
    state = selectors.sheet_state(sheet)
    context = {
        "sheet": sheet,
        "game": GAMES[sheet.game],
        "state": state,
        "chart": running_totals_chart(sheet, state),
        "back": sheet.get_absolute_url() if can_edit else sheet.get_view_url(),
    }
    template = "games/sheet_chart.html"
    if request.htmx:
        template += "#chart"
    response = render(request, template, context)
    patch_cache_control(response, no_cache=True, private=True)
    return response


@require_GET
def sheet_csv(request: HttpRequest, token: str, edit: bool = False) -> HttpResponse:
    """The sheet as a CSV file, by either link."""
    sheet = _sheet(token, edit=edit)
    response = csv_export.sheet_csv(sheet, selectors.sheet_state(sheet))
    patch_cache_control(response, no_cache=True, private=True)
    return response


# -- Errors ----------------------------------------------------------------------------


def _error(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    """Errors in the API's JSON format under /api/, as a page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": [{"field": None, "message": message}]}, status=status)
    return render(
        request, "error.html", {"status": status, "title": title, "message": message}, status=status
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(
        request, 400, _("That request could not be read"), _("Please go back and try again.")
    )


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 403, _("Not allowed"), _("This link does not allow that."))


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(
        request,
        404,
        _("Page not found"),
        _("There is nothing at this address. Check the link, or start again from the home page."),
    )


def server_error(request: HttpRequest) -> HttpResponse:
    return _error(
        request,
        500,
        _("Something went wrong on our side"),
        _("Nothing you entered was lost. Please try again in a moment."),
    )
