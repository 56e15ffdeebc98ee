from django.urls import path

from games import api_docs, views, views_app, views_entry, views_print
from games.referee_pages import manipulation as manipulation_pages
from games.referee_pages import pitch as pitch_pages
from games.referee_pages import rulebook
from games.referee_pages import skat as skat_pages

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("cards/picker", views.card_picker, name="card-picker"),
    # The page the installable app shows offline (its manifest and worker are in
    # scorekeeper/urls.py, outside the language prefixes).
    path("offline/", views_app.offline, name="offline"),
    # Score sheets: the edit link (s/) and the read-only link (v/) carry their token.
    path("new/", views.sheet_new, name="sheet-new"),
    path("new/<slug:game>/", views.sheet_new_game, name="sheet-new-game"),
    path("s/<str:token>/", views.sheet_page, name="sheet"),
    path("s/<str:token>/preview", views.sheet_preview, name="sheet-preview"),
    path("s/<str:token>/undo", views.sheet_undo, name="sheet-undo"),
    path("s/<str:token>/redo", views.sheet_redo, name="sheet-redo"),
    path("s/<str:token>/deals/<int:number>/", views.deal_correct, name="deal-correct"),
    path("s/<str:token>/deals/<int:number>/delete", views.deal_delete, name="deal-delete"),
    path(
        "s/<str:token>/deals/<int:number>/explain",
        views.deal_explain,
        {"edit": True},
        name="deal-explain",
    ),
    path("v/<str:token>/deals/<int:number>/explain", views.deal_explain, name="deal-view-explain"),
    path("s/<str:token>/history/", views.sheet_history, name="sheet-history"),
    path(
        "s/<str:token>/history/<int:event_id>/restore",
        views.event_recover,
        name="sheet-event-recover",
    ),
    path("s/<str:token>/delete", views.sheet_delete, name="sheet-delete"),
    path("s/<str:token>/undelete", views.sheet_undelete, name="sheet-undelete"),
    path("s/<str:token>/links", views.links_rotate, name="sheet-links"),
    path("s/<str:token>/played-on", views.sheet_played_on, name="sheet-played-on"),
    path("v/<str:token>/", views.sheet_view, name="sheet-view"),
    path("v/<str:token>/live", views.sheet_live, name="sheet-live"),
    # Under s/ only the edit link opens them; under v/ either link (reading is theirs).
    path("s/<str:token>/sheet.csv", views.sheet_csv, {"edit": True}, name="sheet-csv"),
    path("s/<str:token>/chart", views.sheet_chart, {"edit": True}, name="sheet-chart"),
    path("v/<str:token>/chart", views.sheet_chart, name="sheet-view-chart"),
    path("v/<str:token>/sheet.csv", views.sheet_csv, name="sheet-view-csv"),
    # The printed Skat list (Spielliste), by either link; a blank one for any table.
    path("s/<str:token>/list", views_print.sheet_list, {"edit": True}, name="sheet-list"),
    path("v/<str:token>/list", views_print.sheet_list, name="sheet-view-list"),
    path("rules/skat/list", views_print.skat_blank_list, name="rules-skat-list"),
    # The rule book and the referee pages
    path("referee/", views.referee_index, name="referee"),
    *rulebook.urlpatterns,
    path(
        "rules/<slug:game>/sections/<slug:section>",
        views_entry.rule_section,
        name="rules-section",
    ),
    *skat_pages.urlpatterns,
    *pitch_pages.urlpatterns,
    *manipulation_pages.urlpatterns,
    # The JSON API's documentation (the API itself is in scorekeeper/urls.py)
    path("api/", api_docs.documentation, name="api-docs"),
]
