from django.urls import path

from games import api, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("api/", api.documentation, name="api-docs"),
    path("api/v1/openapi.json", api.openapi_schema, name="openapi"),
    path("api/v1/skat/score", api.skat_score, name="api-skat-score"),
    path("api/v1/skat/trick", api.skat_trick, name="api-skat-trick"),
    path("api/v1/skat/follow", api.skat_follow, name="api-skat-follow"),
    path("api/v1/pitch/hand", api.pitch_hand, name="api-pitch-hand"),
    path("api/v1/pitch/trick", api.pitch_trick, name="api-pitch-trick"),
    path("api/v1/manipulation/melds", api.manipulation_melds, name="api-manipulation-melds"),
    path("api/v1/manipulation/turn", api.manipulation_turn, name="api-manipulation-turn"),
    path("api/v1/manipulation/arrange", api.manipulation_arrange, name="api-manipulation-arrange"),
    path("api/v1/manipulation/round", api.manipulation_round, name="api-manipulation-round"),
]
