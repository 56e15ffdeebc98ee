from django.urls import path

from evenings import views, views_money

app_name = "evenings"

urlpatterns = [
    path("evenings/new/", views.evening_new, name="new"),
    path("evenings/rules/", views.rules, name="rules"),
    path(
        "evenings/circles/<int:circle_id>/seasons/<int:season_id>/cash-box",
        views_money.season_box,
        name="season-box",
    ),
    path(
        "evenings/circles/<int:circle_id>/seasons/<int:season_id>/cash-box.csv",
        views_money.season_box_csv,
        name="season-box-csv",
    ),
    path("e/<str:token>/", views.board, name="board"),
    path("e/<str:token>/tables", views.board_tables, name="board-tables"),
    path("e/<str:token>/players", views.players_add, name="players-add"),
    path("e/<str:token>/players/<int:player_id>/", views.player_edit, name="player-edit"),
    path("e/<str:token>/players/<int:player_id>/leave", views.player_leave, name="player-leave"),
    path("e/<str:token>/draw", views.draw, name="draw"),
    path("e/<str:token>/series/<int:number>/swap", views.swap, name="swap"),
    path("e/<str:token>/series/<int:number>/print", views.series_print, name="series-print"),
    path("e/<str:token>/tables/<int:table_id>/", views.table_link, name="table-link"),
    path("e/<str:token>/tables/<int:table_id>/paper", views.table_paper, name="table-paper"),
    path("e/<str:token>/tables/<int:table_id>/signed", views.table_signed, name="table-signed"),
    path("e/<str:token>/time", views.round_time, name="round-time"),
    path("e/<str:token>/tables/<int:table_id>/end", views.table_end, name="table-end"),
    path("e/<str:token>/tables/<int:table_id>/winner", views.table_winner, name="table-winner"),
    path("e/<str:token>/money/", views_money.money, name="money"),
    path("e/<str:token>/money/pay", views_money.money_pay, name="money-pay"),
    path(
        "e/<str:token>/money/payments/<int:payment_id>/undo",
        views_money.money_undo,
        name="money-undo",
    ),
    path("e/<str:token>/money/rules", views_money.money_rules, name="money-rules"),
    path("e/<str:token>/money/print", views_money.money_print, name="money-print"),
    path("t/<str:token>/sign", views.table_sign, name="table-sign"),
    path("p/<str:token>/", views.own, name="own"),
    path("r/<str:token>/", views.ranking, name="ranking"),
    path("r/<str:token>/list", views.evening_list, name="evening-list"),
    path("r/<str:token>/players/<int:player_id>", views.player_ranking, name="player-ranking"),
    path("r/<str:token>/screen", views.screen, name="screen"),
    path("r/<str:token>/screen/live", views.screen_live, name="screen-live"),
]
