"""Accounts: sign-up and confirming its e-mail, plus Django's auth views answering 422
when a form is not accepted.

Sign-up never says whether an e-mail has an account (issue 19): the account is made
and logged in at once, without the e-mail, and the address is mailed
(``accounts.mail.offer_email``): a link that keeps it on the new account
(``EmailConfirmView``), or, when another account has it, a word to that account's owner.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, resolve_url
from django.urls import Resolver404, resolve, reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.generic import FormView, TemplateView

from accounts import forms, mail

# 422 Unprocessable Content: the request was understood, the form was not accepted.
UNPROCESSABLE = 422


class UnprocessableOnInvalidMixin:
    """Answer 422 instead of 200 when the posted form has errors."""

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = UNPROCESSABLE
        return response


def safe_next_url(request) -> str:
    """The ``next`` parameter (POST, then GET) if it points at this site; else ""."""
    url = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME) or ""
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return ""


def invited_to(url: str) -> str:
    """The name of the circle whose invite link ``url`` is (a visitor on the way to join
    it signs up or logs in first); "" for any other address or an invite no longer valid."""
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return ""
    if match.view_name != "circles:join":
        return ""
    from circles.models import Circle

    circle = Circle.objects.filter(invite_token=match.kwargs.get("token", "")).first()
    return circle.name if circle is not None else ""


@method_decorator(
    [login_not_required, sensitive_post_parameters(), csrf_protect, never_cache], name="dispatch"
)
class SignUpView(UnprocessableOnInvalidMixin, FormView):
    form_class = forms.SignUpForm
    template_name = "registration/signup.html"

    def form_valid(self, form):
        user = form.save()
        login(self.request, user)
        email = form.cleaned_data["email"]
        mail.offer_email(self.request, user, email)
        # The same words whether the e-mail was free or taken.
        messages.info(
            self.request,
            _(
                "Your account is made. To use %(email)s if you forget your password, "
                "open the link in the mail we sent there."
            )
            % {"email": email},
        )
        return HttpResponseRedirect(self.get_success_url())

    def get_success_url(self) -> str:
        return safe_next_url(self.request) or resolve_url(settings.LOGIN_REDIRECT_URL)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context[REDIRECT_FIELD_NAME] = safe_next_url(self.request)
        context["invited_to"] = invited_to(context[REDIRECT_FIELD_NAME])
        return context


@method_decorator([login_not_required, csrf_protect, never_cache], name="dispatch")
class EmailConfirmView(TemplateView):
    """The link mailed at sign-up: a page that asks (a mail program that opens links
    confirms nothing), and a POST that keeps the e-mail on the account. Anyone with
    the link may confirm: it went to that very address."""

    template_name = "registration/email_confirm.html"

    def dispatch(self, request, *args, **kwargs):
        self.found = mail.read_confirm_token(kwargs["token"])
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.found is not None:
            context["account"], context["email"] = self.found
            context["found"] = True
        return context

    def post(self, request, *args, **kwargs):
        if self.found is None:
            return self.get(request, *args, **kwargs)
        account, email = self.found
        if account.email != email and mail.email_owner(email, besides=account) is not None:
            # Another sign-up with this e-mail was confirmed first; only the owner of
            # the address, who got this link, learns it.
            return self.render_to_response(self.get_context_data(taken=True))
        account.email = email
        account.save(update_fields=["email"])
        messages.success(
            request, _("Your e-mail is confirmed: a forgotten password can now be reset by mail.")
        )
        return redirect(settings.LOGIN_REDIRECT_URL)


class LoginView(UnprocessableOnInvalidMixin, auth_views.LoginView):
    authentication_form = forms.LoginForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["invited_to"] = invited_to(safe_next_url(self.request))
        return context


class PasswordChangeView(UnprocessableOnInvalidMixin, auth_views.PasswordChangeView):
    form_class = forms.PasswordChangeForm
    success_url = reverse_lazy("accounts:password-change-done")


class PasswordResetView(UnprocessableOnInvalidMixin, auth_views.PasswordResetView):
    form_class = forms.PasswordResetForm
    success_url = reverse_lazy("accounts:password-reset-done")

    @property
    def extra_email_context(self):
        # The mail says how long its link works.
        return {"valid_days": mail.valid_days()}


class PasswordResetConfirmView(UnprocessableOnInvalidMixin, auth_views.PasswordResetConfirmView):
    form_class = forms.SetPasswordForm
    success_url = reverse_lazy("accounts:password-reset-complete")
