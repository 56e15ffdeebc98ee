from django.urls import path

from circles import exports, views

app_name = "circles"

urlpatterns = [
    path("mine/", views.mine, name="mine"),
    path("circles/new/", views.circle_new, name="circle-new"),
    path("circles/<int:circle_id>/", views.circle_page, name="circle"),
    path("circles/<int:circle_id>/settings/", views.circle_settings, name="settings"),
    path("circles/<int:circle_id>/invite/rotate", views.invite_rotate, name="invite-rotate"),
    path(
        "circles/<int:circle_id>/members/<int:membership_id>",
        views.member_change,
        name="member",
    ),
    path(
        "circles/<int:circle_id>/members/<int:membership_id>/remove",
        views.member_remove_page,
        name="member-remove",
    ),
    path("circles/<int:circle_id>/log/", views.audit_log, name="log"),
    path("join/<str:token>/", views.circle_join, name="join"),
    path("circles/<int:circle_id>/players/", views.players_page, name="players"),
    path("circles/<int:circle_id>/players/<int:player_id>/", views.player_page, name="player"),
    path(
        "circles/<int:circle_id>/players/<int:player_id>/merge",
        views.player_merge,
        name="player-merge",
    ),
    path(
        "circles/<int:circle_id>/players/<int:player_id>/erase",
        views.player_erase,
        name="player-erase",
    ),
    path("circles/<int:circle_id>/new/<slug:game>/", views.sheet_new, name="sheet-new"),
    path(
        "circles/<int:circle_id>/sheets/<int:sheet_id>",
        views.sheet_settings,
        name="sheet-settings",
    ),
    path("s/<str:token>/circle/", views.sheet_move, name="sheet-move"),
    path("circles/<int:circle_id>/seasons/new/", views.season_edit, name="season-new"),
    path(
        "circles/<int:circle_id>/seasons/<int:season_id>/",
        views.season_page,
        name="season",
    ),
    path(
        "circles/<int:circle_id>/seasons/<int:season_id>/edit/",
        views.season_edit,
        name="season-edit",
    ),
    path(
        "circles/<int:circle_id>/seasons/<int:season_id>/rotate",
        views.season_rotate,
        name="season-rotate",
    ),
    path(
        "circles/<int:circle_id>/seasons/<int:season_id>/standings.csv",
        exports.season_csv,
        name="season-csv",
    ),
    path("standings/<str:token>/", views.season_public, name="season-public"),
    path(
        "standings/<str:token>/standings.csv", exports.season_public_csv, name="season-public-csv"
    ),
    path("circles/<int:circle_id>/export.json", exports.circle_json, name="circle-export"),
]
