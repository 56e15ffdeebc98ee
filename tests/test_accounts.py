"""Accounts: sign-up, log in and out, password change and reset, with Django's own auth."""

from __future__ import annotations

import html
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse

from tests.processes import clean_environment

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "green-table-42"
NEW_PASSWORD = "seven-clubs-in-hand"


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ana():
    return User.objects.create_user("ana", "ana@example.org", PASSWORD)


def _signup(client, **overrides):
    data = {
        "username": "bert",
        "email": "bert@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **overrides,
    }
    return client.post(reverse("accounts:signup"), data)


def _logged_in_user_id(client):
    return client.session.get(SESSION_KEY)


# ---- Sign up -------------------------------------------------------------------


def test_signup_page_has_the_fields_with_autocomplete_and_links(client):
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'autocomplete="username"' in html
    assert 'autocomplete="email"' in html
    assert html.count('autocomplete="new-password"') == 2
    assert reverse("accounts:login") in html
    assert "css/accounts.css" in html


def test_signup_creates_the_user_logs_in_and_goes_home(client, mailoutbox):
    response = _signup(client, email="Bert@Example.ORG")
    assert response.status_code == 302
    assert response.url == reverse("games:home")
    user = User.objects.get(username="bert")
    assert user.check_password(PASSWORD)
    assert _logged_in_user_id(client) == str(user.pk)
    # The e-mail is kept once its owner confirms it, from the mail sent there.
    assert user.email == ""
    assert [mail.to for mail in mailoutbox] == [["Bert@example.org"]]  # domain lower-cased
    page = client.get(response.url).content.decode()
    assert "open the link in the mail we sent there" in page


def _confirm_link(mail) -> str:
    return re.search(r"http://testserver(/en/accounts/email/\S+/)", mail.body).group(1)


def test_the_link_in_the_sign_up_mail_confirms_the_email(mailoutbox):
    """issue 19: the e-mail typed at sign-up is kept once its owner confirms it."""
    _signup(Client(), email="Bert@Example.ORG")
    mail = mailoutbox[0]
    assert mail.subject == "Confirm your e-mail for Scorekeeper"
    assert "bert" in mail.body
    assert "&" not in mail.body
    link = _confirm_link(mail)
    # Opened anywhere (a phone's mail app): a page that asks, nothing changed yet (a
    # mail scanner that follows links confirms nothing).
    elsewhere = Client()
    page = elsewhere.get(link)
    assert page.status_code == 200
    assert "Bert@example.org" in page.content.decode()
    assert User.objects.get(username="bert").email == ""
    done = elsewhere.post(link)
    assert done.status_code == 302
    assert User.objects.get(username="bert").email == "Bert@example.org"
    assert "Your e-mail is confirmed" in elsewhere.get(done.url).content.decode()
    # Now a forgotten password can be reset by mail.
    elsewhere.post(reverse("accounts:password-reset"), {"email": "bert@example.org"})
    assert mailoutbox[-1].subject == "Choose a new Scorekeeper password"


@pytest.mark.parametrize("spoil", ["tamper", "expire"])
def test_a_changed_or_old_confirm_link_does_not_work(client, mailoutbox, settings, spoil):
    _signup(client)
    link = _confirm_link(mailoutbox[0])
    if spoil == "tamper":
        link = link.replace("/email/", "/email/x")
    else:
        settings.PASSWORD_RESET_TIMEOUT = -1
    for answer in (client.get(link), client.post(link)):
        assert answer.status_code == 200
        assert "This link does not work" in answer.content.decode()
    assert User.objects.get(username="bert").email == ""


def test_a_confirm_link_for_an_email_another_account_took_meanwhile(mailoutbox):
    """Two sign-ups with one new e-mail: the first confirmed keeps it."""
    _signup(Client(), username="bert", email="same@example.org")
    _signup(Client(), username="cleo", email="same@example.org")
    first, second = (_confirm_link(mail) for mail in mailoutbox)
    Client().post(second)
    refused = Client().post(first)
    assert refused.status_code == 200
    assert "already belongs to another account" in refused.content.decode()
    assert User.objects.get(username="bert").email == ""
    assert User.objects.get(username="cleo").email == "same@example.org"


def _normalised(html: str, *names: str) -> str:
    for name in names:
        html = html.replace(name, "NAME")
    return re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', r"\1TOKEN", html)


def _what_a_sign_up_shows(username: str, email: str) -> tuple:
    """Everything the one signing up sees: the answer, the page it leads to, the page
    with the account's e-mail."""
    client = Client()
    response = _signup(client, username=username, email=email, next=reverse("circles:mine"))
    assert response.status_code == 302, response.content.decode()
    mine = client.get(response["Location"])
    assert mine.status_code == 200
    return (
        response.status_code,
        response["Location"],
        _normalised(mine.content.decode(), email, username),
        _normalised(client.get(reverse("games:home")).content.decode(), email, username),
    )


def test_signup_answers_alike_whether_or_not_the_email_has_an_account(ana, mailoutbox):
    """issue 19: sign-up told whether an e-mail has an account ("An account with this
    e-mail already exists"). A taken e-mail and a new one now get the same answer."""
    fresh = _what_a_sign_up_shows("bert", "bert@example.org")
    taken = _what_a_sign_up_shows("cleo", "ANA@example.org")
    assert fresh == taken


def test_a_sign_up_with_a_taken_email_tells_its_owner_and_takes_nothing(client, ana, mailoutbox):
    """issue 19: the owner of the address hears of it; the new account gets no e-mail."""
    response = _signup(client, username="cleo", email="ANA@example.org")
    assert response.status_code == 302
    cleo = User.objects.get(username="cleo")
    assert cleo.email == ""
    assert _logged_in_user_id(client) == str(cleo.pk)
    assert list(User.objects.filter(email__iexact="ana@example.org")) == [ana]
    (mail,) = mailoutbox
    assert mail.to == ["ana@example.org"]
    assert mail.subject == "Someone signed up at Scorekeeper with your e-mail"
    assert "ana" in mail.body
    assert "cleo" not in mail.body  # a name the stranger chose is not sent to ana
    assert "http://testserver/en/accounts/login/" in mail.body
    assert "http://testserver/en/accounts/password/reset/" in mail.body
    assert "/email/" not in mail.body  # nothing to confirm


def test_signup_follows_a_safe_next(client):
    response = client.post(
        reverse("accounts:signup") + "?next=/en/new/",
        {
            "username": "bert",
            "email": "b@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response.url == "/en/new/"


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)", "http:///x"]
)
def test_signup_ignores_an_unsafe_next(client, target):
    response = _signup(client, next=target)
    assert response.status_code == 302
    assert response.url == reverse("games:home")


def test_signup_form_carries_a_safe_next_only(client):
    safe = client.get(reverse("accounts:signup") + "?next=/en/new/").content.decode()
    assert 'name="next" value="/en/new/"' in safe
    unsafe = client.get(reverse("accounts:signup") + "?next=https://evil.example/").content
    # The only "next" left is the language switch's, which names this very page.
    assert re.findall(rb'name="next" value="([^"]*)"', unsafe) == [
        b"/en/accounts/signup/?next=https://evil.example/"
    ]


def test_signup_refuses_a_taken_user_name_whatever_its_case(client, ana):
    response = _signup(client, username="Ana")
    assert response.status_code == 422
    assert "That user name is taken" in response.content.decode()
    assert User.objects.count() == 1


def test_signup_requires_an_email(client):
    response = _signup(client, email="")
    assert response.status_code == 422
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("password1", "password2", "message"),
    [
        ("password", "password", "This password is too common."),
        ("12345678901", "12345678901", "This password is entirely numeric."),
        ("short1!", "short1!", "This password is too short: it needs at least 8 characters."),
        (PASSWORD, PASSWORD + "x", "The two passwords are not the same."),
    ],
)
def test_signup_refuses_weak_or_mismatched_passwords(client, password1, password2, message):
    response = _signup(client, password1=password1, password2=password2)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not User.objects.exists()
    assert _logged_in_user_id(client) is None


@pytest.mark.parametrize(
    ("language", "short", "like"),
    [
        (
            "de",
            "Dieses Passwort ist zu kurz: Es braucht mindestens 8 Zeichen.",
            "Dieses Passwort ähnelt zu sehr dem Feld „Benutzername“.",
        ),
        (
            "eo",
            "Ĉi tiu pasvorto estas tro mallonga: ĝi bezonas almenaŭ 8 signojn.",
            "Ĉi tiu pasvorto tro similas al via salutnomo.",
        ),
    ],
)
def test_password_problems_are_said_in_the_readers_language(client, language, short, like):
    """An audit of the Esperanto pages: Django 5.2's reworded "too short" message has no
    Esperanto in Django's own catalogue, so it came in English; and Django's German for
    "too similar" lacked its article ("zu ähnlich zu Benutzername")."""
    url = f"/{language}/accounts/signup/"
    form = {"username": "bertrandolino", "email": "b@example.org"}
    too_short = client.post(url, {**form, "password1": "kurz1!", "password2": "kurz1!"})
    assert html.escape(short, quote=False) in too_short.content.decode()
    alike = "bertrandolino7"
    too_like = client.post(url, {**form, "password1": alike, "password2": alike})
    assert html.escape(like, quote=False) in too_like.content.decode()
    assert "This password" not in too_short.content.decode() + too_like.content.decode()
    assert not User.objects.exists()


def test_signup_errors_sit_next_to_their_field(client, ana):
    html = _signup(client, email="ana@example").content.decode()
    email_input = re.search(r"<input[^>]*name=\"email\"[^>]*>", html).group(0)
    assert 'aria-invalid="true"' in email_input
    assert 'aria-describedby="id_email_helptext id_email_error"' in email_input
    assert 'id="id_email_error" role="alert"' in html
    assert 'value="ana@example"' in html  # what was typed comes back
    assert PASSWORD not in html  # passwords do not


# ---- Log in and out ------------------------------------------------------------


def test_login_page_has_autocomplete_and_links(client):
    html = client.get(reverse("accounts:login")).content.decode()
    assert 'autocomplete="username"' in html
    assert 'autocomplete="current-password"' in html
    assert reverse("accounts:signup") in html
    assert reverse("accounts:password-reset") in html


def test_login_succeeds_and_follows_a_safe_next(client, ana):
    response = client.post(
        reverse("accounts:login"), {"username": "ana", "password": PASSWORD, "next": "/en/new/"}
    )
    assert response.status_code == 302
    assert response.url == "/en/new/"
    assert _logged_in_user_id(client) == str(ana.pk)


def test_login_ignores_an_unsafe_next(client, ana):
    response = client.post(
        reverse("accounts:login"),
        {"username": "ana", "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert response.url == reverse("games:home")


def test_a_failed_login_answers_422_and_changes_nothing(client, ana):
    before = ana.last_login
    response = client.post(reverse("accounts:login"), {"username": "ana", "password": "nope"})
    assert response.status_code == 422
    assert "do not match an account" in response.content.decode()
    assert _logged_in_user_id(client) is None
    ana.refresh_from_db()
    assert ana.last_login == before


def test_login_links_to_signup_keep_next(client):
    html = client.get(reverse("accounts:login") + "?next=/en/new/").content.decode()
    assert reverse("accounts:signup") + "?next=/en/new/" in html


def test_logout_needs_a_post(client, ana):
    client.force_login(ana)
    response = client.get(reverse("accounts:logout"))
    assert response.status_code == 405
    assert _logged_in_user_id(client) == str(ana.pk)

    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert response.url == reverse("games:home")
    assert _logged_in_user_id(client) is None


# ---- Password change -------------------------------------------------------------


def test_password_change_needs_a_login(client):
    url = reverse("accounts:password-change")
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={url}"


def test_password_change_needs_the_old_password(client, ana):
    client.force_login(ana)
    html = client.get(reverse("accounts:password-change")).content.decode()
    assert 'autocomplete="current-password"' in html
    assert html.count('autocomplete="new-password"') == 2

    response = client.post(
        reverse("accounts:password-change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 422
    assert "That is not your current password" in response.content.decode()
    ana.refresh_from_db()
    assert ana.check_password(PASSWORD)


def test_password_change_sets_the_new_password_and_keeps_the_session(client, ana):
    client.force_login(ana)
    response = client.post(
        reverse("accounts:password-change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-change-done")
    ana.refresh_from_db()
    assert ana.check_password(NEW_PASSWORD)
    assert client.get(response.url).status_code == 200  # still logged in


# ---- Password reset --------------------------------------------------------------


def test_the_reset_link_in_the_mail_sets_a_new_password(client, ana, mailoutbox):
    response = client.post(reverse("accounts:password-reset"), {"email": "ANA@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-reset-done")

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["ana@example.org"]
    assert mail.subject == "Choose a new Scorekeeper password"
    assert "ana" in mail.body
    assert "&" not in mail.body  # plain text, nothing HTML-escaped
    link = re.search(r"http://testserver(/en/accounts/password/reset/\S+/\S+/)", mail.body).group(1)

    # The token moves into the session; the form is at a URL without it.
    response = client.get(link)
    assert response.status_code == 302
    form_url = response.url
    assert form_url.endswith("/set-password/")
    html = client.get(form_url).content.decode()
    assert html.count('autocomplete="new-password"') == 2

    mismatched = client.post(
        form_url, {"new_password1": NEW_PASSWORD, "new_password2": "something-else-9"}
    )
    assert mismatched.status_code == 422
    assert "The two passwords are not the same." in mismatched.content.decode()

    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-reset-complete")
    ana.refresh_from_db()
    assert ana.check_password(NEW_PASSWORD)
    assert reverse("accounts:login") in client.get(response.url).content.decode()

    # The link works once.
    again = client.get(link)
    assert again.status_code == 200
    assert "This link does not work" in again.content.decode()


def test_an_invalid_reset_link_says_so(client, ana):
    url = reverse(
        "accounts:password-reset-confirm", kwargs={"uidb64": "MQ", "token": "abc-def0123456789"}
    )
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "This link does not work" in html
    assert reverse("accounts:password-reset") in html
    assert 'name="new_password1"' not in html


def test_an_unknown_email_still_says_sent(client, ana, mailoutbox):
    response = client.post(reverse("accounts:password-reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-reset-done")
    assert mailoutbox == []
    assert "If an account uses that e-mail" in client.get(response.url).content.decode()


def test_a_malformed_email_on_reset_answers_422(client):
    response = client.post(reverse("accounts:password-reset"), {"email": "not-an-address"})
    assert response.status_code == 422


# ---- Templates and settings --------------------------------------------------------


def test_account_templates_have_no_inline_script_style_or_handlers():
    for template in (ROOT / "templates" / "registration").glob("*.html"):
        text = template.read_text()
        assert "<script" not in text, template
        assert "style=" not in text, template
        assert not re.search(r"\son[a-z]+\s*=", text), template


def _email_backend(tmp_path, **env):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from django.conf import settings; "
            "print(settings.EMAIL_BACKEND, getattr(settings, 'EMAIL_HOST', ''), "
            "getattr(settings, 'EMAIL_PORT', ''), getattr(settings, 'EMAIL_USE_TLS', ''))",
        ],
        cwd=ROOT,
        env=clean_environment(
            DJANGO_SETTINGS_MODULE="scorekeeper.settings",
            DATA_DIR=str(tmp_path),
            SECRET_KEY="test-only-key",
            **env,
        ),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_with_debug_on_mail_goes_to_the_console_without_an_smtp_server(tmp_path):
    """A local run prints the mails (and their links) where the developer sees them."""
    backend = _email_backend(tmp_path, DEBUG="1")[0]
    assert backend == "django.core.mail.backends.console.EmailBackend"


def test_with_debug_off_and_no_smtp_server_no_link_reaches_the_log(
    tmp_path, client, ana, settings, caplog, capsys
):
    """issue 19: without EMAIL_HOST the reset link was written to the server log
    unmasked (the console e-mail backend). With DEBUG off nothing is printed: one log
    line per mail says it was not sent, without its text, and the pages answer as
    always (manage.py check says why: scorekeeper.W001)."""
    settings.EMAIL_BACKEND = _email_backend(tmp_path, DEBUG="0")[0]
    caplog.set_level(logging.DEBUG)
    response = client.post(reverse("accounts:password-reset"), {"email": "ana@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-reset-done")
    assert _signup(Client(), email="bert@example.org").status_code == 302
    written = capsys.readouterr()
    logged = caplog.text + written.out + written.err
    assert default_token_generator.make_token(ana) not in logged
    assert "/password/reset/MQ" not in logged
    assert "/accounts/email/" not in logged
    not_sent = [r.getMessage() for r in caplog.records if "not sent" in r.getMessage()]
    assert not_sent == [
        "Mail 'Choose a new Scorekeeper password' not sent: EMAIL_HOST is not set.",
        "Mail 'Confirm your e-mail for Scorekeeper' not sent: EMAIL_HOST is not set.",
    ]


def test_mail_goes_by_smtp_when_email_host_is_set(tmp_path):
    backend, host, port, tls = _email_backend(tmp_path, EMAIL_HOST="smtp.example.org")
    assert backend == "django.core.mail.backends.smtp.EmailBackend"
    assert (host, port, tls) == ("smtp.example.org", "587", "True")


def test_after_a_failed_login_the_cursor_goes_to_the_password(client, ana):
    html = client.post(
        reverse("accounts:login"), {"username": "ana", "password": "nope"}
    ).content.decode()
    username = re.search(r"<input[^>]*name=\"username\"[^>]*>", html).group(0)
    password = re.search(r"<input[^>]*name=\"password\"[^>]*>", html).group(0)
    assert "autofocus" not in username
    assert "autofocus" in password
    assert 'value="ana"' in username


def test_after_a_refused_signup_the_cursor_goes_to_the_first_field_to_fix(client, ana):
    html = _signup(client, email="ana@example").content.decode()
    inputs = dict(re.findall(r"<input[^>]*name=\"(\w+)\"([^>]*)>", html))
    assert [name for name, attrs in inputs.items() if "autofocus" in attrs] == ["email"]
