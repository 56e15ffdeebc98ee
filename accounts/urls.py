from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from scorekeeper.security import rate_limit_posts

# Guessing passwords, making accounts in bulk and sending reset mail in bulk are limited
# per client address and per user name tried (settings.RATE_LIMITS): 429 past them.
# Mail to any one address is limited too, silently (accounts/mail.py).
# Only failed logins count (a successful one answers with its redirect, an invalid form
# with 422): members logging in one after another over a club's Wi-Fi are no guesser.
login = rate_limit_posts(
    per_ip="login-ip",
    per_field=("username", "login-user"),
    refund_if=lambda response: response.status_code == 302,
)
signup = rate_limit_posts(per_ip="signup-ip", per_field=("username", "signup-user"))
password_reset = rate_limit_posts(per_ip="password-reset-ip")

app_name = "accounts"

urlpatterns = [
    path("signup/", signup(views.SignUpView.as_view()), name="signup"),
    # The link mailed at sign-up to confirm the e-mail typed.
    path("email/<str:token>/", views.EmailConfirmView.as_view(), name="email-confirm"),
    path("login/", login(views.LoginView.as_view()), name="login"),
    # POST only (Django's LogoutView answers 405 to GET).
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password-change-done",
    ),
    path(
        "password/reset/", password_reset(views.PasswordResetView.as_view()), name="password-reset"
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password-reset-done",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password-reset-complete",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
]
