"""The site's addresses.

Pages live under their language's prefix (``/en/``, ``/de/``, ``/eo/``), so a shared
link opens in the language it was sent in; an address without one is redirected to
the reader's language (LocaleMiddleware). The JSON API, the health check and the
installable app's manifest and worker have no prefix: the API's messages follow the
request's Accept-Language, and its field names and values never change.
"""

from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path
from django.views.i18n import set_language

from circles import api as circles_api
from evenings import api as evenings_api
from games import api, api_docs, api_sheets, views, views_app

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    # The installable app: its manifest and its service worker (at the root: its scope
    # is the whole site).
    path("manifest.webmanifest", views_app.manifest, name="manifest"),
    path("sw.js", views_app.service_worker, name="service-worker"),
    # Choosing a language (the form in every page's footer); remembered in a cookie.
    path("language", set_language, name="set-language"),
    path("api/v1/openapi.json", api_docs.openapi_schema, name="openapi"),
    path("api/v1/skat/score", api.skat_score, name="api-skat-score"),
    path("api/v1/skat/trick", api.skat_trick, name="api-skat-trick"),
    path("api/v1/skat/follow", api.skat_follow, name="api-skat-follow"),
    path("api/v1/pitch/hand", api.pitch_hand, name="api-pitch-hand"),
    path("api/v1/pitch/trick", api.pitch_trick, name="api-pitch-trick"),
    path("api/v1/manipulation/melds", api.manipulation_melds, name="api-manipulation-melds"),
    path("api/v1/manipulation/turn", api.manipulation_turn, name="api-manipulation-turn"),
    path("api/v1/manipulation/arrange", api.manipulation_arrange, name="api-manipulation-arrange"),
    path("api/v1/manipulation/round", api.manipulation_round, name="api-manipulation-round"),
    path("api/v1/sheets", api_sheets.sheets, name="api-sheets"),
    path("api/v1/sheets/<int:sheet_id>", api_sheets.sheet_detail, name="api-sheet"),
    path("api/v1/sheets/<int:sheet_id>/hands", api_sheets.sheet_hands, name="api-sheet-hands"),
    path(
        "api/v1/sheets/<int:sheet_id>/hands/<int:number>",
        api_sheets.sheet_hand,
        name="api-sheet-hand",
    ),
    path("api/v1/evenings", evenings_api.evenings, name="api-evenings"),
    path("api/v1/evenings/<int:evening_id>", evenings_api.evening_detail, name="api-evening"),
    path(
        "api/v1/evenings/<int:evening_id>/players",
        evenings_api.evening_players,
        name="api-evening-players",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/players/<int:player_id>",
        evenings_api.evening_player,
        name="api-evening-player",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/money",
        evenings_api.evening_money,
        name="api-evening-money",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/payments",
        evenings_api.evening_payments,
        name="api-evening-payments",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/payments/<int:payment_id>",
        evenings_api.evening_payment,
        name="api-evening-payment",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/series",
        evenings_api.evening_series,
        name="api-evening-series",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/series/<int:number>/tables/<int:table>/result",
        evenings_api.table_result,
        name="api-evening-table-result",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/time",
        evenings_api.round_time,
        name="api-evening-round-time",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/series/<int:number>/tables/<int:table>/end",
        evenings_api.table_end,
        name="api-evening-table-end",
    ),
    path(
        "api/v1/evenings/<int:evening_id>/series/<int:number>/tables/<int:table>/winner",
        evenings_api.table_winner,
        name="api-evening-table-winner",
    ),
    path(
        "api/v1/seasons/<int:season_id>/standings",
        circles_api.season_standings,
        name="api-standings",
    ),
]

urlpatterns += i18n_patterns(
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("circles.urls")),
    path("", include("evenings.urls")),
)

handler400 = "games.views.bad_request"
handler403 = "games.views.permission_denied"
handler404 = "games.views.page_not_found"
handler500 = "games.views.server_error"
