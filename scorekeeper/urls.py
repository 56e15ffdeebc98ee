from django.urls import include, path

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("circles.urls")),
]

handler400 = "games.views.bad_request"
handler403 = "games.views.permission_denied"
handler404 = "games.views.page_not_found"
handler500 = "games.views.server_error"
