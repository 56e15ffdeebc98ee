"""The evening's money pages, for its organiser: every bill, payments marked in one
tap and undone, the rules, the prize list and the cash box, and the printed prize
list with a payout sheet.

Thin like ``evenings.views``: the organiser's link opens them (``_organised``);
``evenings.accounts`` reads and writes. Every write carries the evening's version
(If-Match as a hidden field): a second tap on "Paid" or a page left open on another
phone is refused, so a payment is never counted twice.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from circles.models import Season
from circles.permissions import can_view_circle
from evenings import accounts
from evenings.forms import MoneyForm, money_field_of
from evenings.locking import StaleEvening
from evenings.models import Evening, EveningPlayer, Payment
from evenings.rules.money import smallest
from evenings.views import _organised, _secret, _whole
from games.csv_export import csv_response
from games.rules.errors import RuleError
from scorekeeper.i18n import money as shown


def _version(request: HttpRequest) -> int | None:
    return _whole(request.POST.get("version", ""))


def _page(
    request: HttpRequest, evening: Evening, *, status: int = 200, **extra: Any
) -> HttpResponse:
    view = accounts.money_view(evening)
    context = {
        "evening": evening,
        "view": view,
        "rules": view.rules,
        "currency": view.rules.currency,
        "board_url": reverse("evenings:board", args=[evening.organiser_token]),
        "kept": accounts.has_money(evening),
        **extra,
    }
    return _secret(render(request, "evenings/money.html", context, status=status))


@require_GET
def money(request: HttpRequest, token: str) -> HttpResponse:
    """Every player's bill: owes, paid, balance, with "paid" marked in one tap."""
    return _page(request, _organised(token))


def _refused(request: HttpRequest, evening: Evening, error: RuleError) -> HttpResponse:
    for problem in error.problems:
        messages.error(request, problem.message)
    evening.refresh_from_db()
    return _page(request, evening, status=409 if isinstance(error, StaleEvening) else 400)


@require_POST
def money_pay(request: HttpRequest, token: str) -> HttpResponse:
    """A payment in cash: what the player still owed on the page the organiser saw (its
    version is checked), or an amount typed."""
    evening = _organised(token)
    player_id = _whole(request.POST.get("player", ""))
    player = EveningPlayer.objects.filter(evening=evening, pk=player_id).first()
    if player is None:
        return _refused(
            request, evening, RuleError(_("That player is not on this evening's roll."))
        )
    amount: object = request.POST.get("amount", "").strip()
    if not amount:
        line = accounts.money_view(evening).line_of(player.pk)
        amount = str(line.due) if line is not None else ""
        if line is not None and not line.due:
            return _refused(
                request, evening, RuleError(_("%(name)s owes nothing.") % {"name": player.name})
            )
    try:
        payment = accounts.payment_add(
            evening=evening,
            player=player,
            amount=amount,
            by=accounts.who(request.user),
            expected_version=_version(request),
        )
    except RuleError as error:
        return _refused(request, evening, error)
    rules = accounts.rules_of(evening)
    messages.success(
        request,
        _("%(name)s paid %(amount)s.")
        % {"name": player.name, "amount": shown(payment.amount, rules.currency)},
    )
    return redirect(reverse("evenings:money", args=[token]) + f"#player-{player.pk}")


@require_POST
def money_undo(request: HttpRequest, token: str, payment_id: int) -> HttpResponse:
    evening = _organised(token)
    payment = (
        Payment.objects.filter(evening=evening, pk=payment_id).select_related("player").first()
    )
    if payment is None:
        raise Http404(_("No such payment on this evening."))
    try:
        accounts.payment_undo(
            evening=evening,
            payment=payment,
            by=accounts.who(request.user),
            expected_version=_version(request),
        )
    except RuleError as error:
        return _refused(request, evening, error)
    rules = accounts.rules_of(evening)
    messages.success(
        request,
        _("The payment of %(amount)s by %(name)s is undone.")
        % {"name": payment.player.name, "amount": shown(payment.amount, rules.currency)},
    )
    return redirect(reverse("evenings:money", args=[token]) + "#payments")


@require_http_methods(["GET", "POST"])
def money_rules(request: HttpRequest, token: str) -> HttpResponse:
    """The evening's money rules, set again (a bill follows them at once)."""
    evening = _organised(token)
    initial = MoneyForm.initial_from(accounts.read_kept(evening.money))
    form = MoneyForm(request.POST or None, prefix="money", initial=initial)
    del form.fields["keep_for_circle"]
    form.for_game(evening.game)
    if request.method == "POST" and form.is_valid():
        try:
            accounts.rules_set(
                evening=evening,
                data=form.rules_data(),
                expected_version=_whole(request.POST.get("version", "")),
            )
        except RuleError as error:
            for problem in error.problems:
                name = money_field_of(problem.field)
                form.add_error(name if name in form.fields else None, problem.message)
        else:
            messages.success(request, _("The money rules are saved."))
            return redirect("evenings:money", token)
    context = {"evening": evening, "money_form": form}
    status = 400 if form.errors else 200
    return _secret(render(request, "evenings/money_rules.html", context, status=status))


@require_GET
def money_print(request: HttpRequest, token: str) -> HttpResponse:
    """The prize list and a payout sheet with a signature line per prize, for A4."""
    evening = _organised(token)
    view = accounts.money_view(evening)
    context = {"evening": evening, "view": view, "currency": view.rules.currency}
    return _secret(render(request, "evenings/money_print.html", context))


def _season(request: HttpRequest, circle_id: int, season_id: int) -> Any:
    """The season of a circle the signed-in member belongs to (anyone else: 404)."""
    # By its own id (an id too large for the database finds nothing, where a filter on
    # the circle's column would overflow), then its circle compared.
    season = Season.objects.select_related("circle").filter(pk=season_id).first()
    if season is None or season.circle_id != circle_id:
        raise Http404(_("No season of yours at this address"))
    if not can_view_circle(request.user, season.circle):
        raise Http404(_("No season of yours at this address"))
    return season


@login_required
@require_GET
def season_box(request: HttpRequest, circle_id: int, season_id: int) -> HttpResponse:
    """The circle's cash box over a season: what each evening took in, paid out and
    kept, and the sums (no player's bill: those stay with each evening's organiser)."""
    season = _season(request, circle_id, season_id)
    box = accounts.season_box(season.circle, season.starts_on, season.ends_on)
    context = {"season": season, "circle": season.circle, "box": box}
    return render(request, "evenings/season_box.html", context)


@login_required
@require_GET
def season_box_csv(request: HttpRequest, circle_id: int, season_id: int) -> HttpResponse:
    """The same for the club's treasurer: one row per evening, then one per currency
    with the sums; amounts as plain numbers a spreadsheet adds up."""
    season = _season(request, circle_id, season_id)
    box = accounts.season_box(season.circle, season.starts_on, season.ends_on)
    header = [
        _("Date"),
        _("Evening"),
        _("Currency"),
        _("Entry fees"),
        _("Table fees"),
        _("Lost-game fees"),
        _("Came in"),
        _("Prizes paid out"),
        _("Stays in the cash box"),
        _("Received so far"),
        _("Not paid yet"),
    ]

    def amounts(cash: Any, currency: str) -> list[object]:
        coin = smallest(currency)
        return [
            amount.quantize(coin)
            for amount in (
                cash.entry_fees,
                cash.table_fees,
                cash.lost_fees,
                cash.came_in,
                cash.prizes,
                cash.stays,
                cash.received,
                cash.outstanding,
            )
        ]

    rows: list[list[object]] = [
        [evening.played_on.isoformat(), evening.name, currency, *amounts(cash, currency)]
        for evening, cash, currency in box.rows
    ]
    rows.extend(
        ["", pgettext("the sums of a column", "Total"), currency, *amounts(cash, currency)]
        for currency, cash in box.totals()
    )
    name = slugify(f"{season.circle.name} {season.name}") or "season"
    return csv_response(f"{name}-cash-box.csv", header, rows)
