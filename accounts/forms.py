"""Forms for accounts: Django's own auth forms with labels and help in plain words."""

from __future__ import annotations

from typing import ClassVar

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from accounts import mail

USERNAME_HELP = _("Letters, digits and the signs @ . + - _ only; up to 150 characters.")
PASSWORD_HELP = _(
    "At least 8 characters. Not a common password, not only digits, and not too close "
    "to your user name or e-mail."
)
PASSWORD_AGAIN_HELP = _("Type the same password again, to be sure.")
PASSWORD_MISMATCH = _("The two passwords are not the same.")


class FocusFirstErrorMixin:
    """After a failed submit, put the cursor in the first field that needs fixing."""

    # The field to focus when only the whole form was refused (such as a failed login).
    focus_on_form_error: str | None = None

    def full_clean(self):
        super().full_clean()
        if not self.is_bound or not self.errors:
            return
        first = next((name for name in self.fields if name in self.errors), None)
        first = first or self.focus_on_form_error
        if first is None:
            return
        for name, field in self.fields.items():
            field.widget.attrs.pop("autofocus", None)
            if name == first:
                field.widget.attrs["autofocus"] = True


def _no_autocorrect(field: forms.Field) -> None:
    field.widget.attrs.update({"autocapitalize": "none", "spellcheck": "false"})


class SignUpForm(FocusFirstErrorMixin, auth_forms.UserCreationForm):
    """User name, e-mail and a password typed twice. A taken user name is said (it is
    public anyway: circles show it); a taken e-mail is not."""

    email = forms.EmailField(
        label=_("E-mail"),
        max_length=254,
        help_text=_("Only used to send you a link if you forget your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    error_messages: ClassVar[dict] = {
        **auth_forms.UserCreationForm.error_messages,
        "password_mismatch": PASSWORD_MISMATCH,
    }

    class Meta(auth_forms.UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        labels: ClassVar[dict] = {"username": _("User name")}
        help_texts: ClassVar[dict] = {"username": USERNAME_HELP}
        error_messages: ClassVar[dict] = {
            "username": {
                "unique": _("That user name is taken. Please choose another one."),
                "invalid": _("Use only letters, digits and the signs @ . + - _ in a user name."),
            }
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _no_autocorrect(self.fields["username"])
        _no_autocorrect(self.fields["email"])
        self.fields["password1"].label = _("Password")
        self.fields["password1"].help_text = PASSWORD_HELP
        self.fields["password2"].label = _("Password again")
        self.fields["password2"].help_text = PASSWORD_AGAIN_HELP

    def clean_email(self) -> str:
        # Whether another account has this e-mail is never said here (issue 19): the
        # sign-up goes ahead alike, and accounts.mail.offer_email mails the address.
        return User.objects.normalize_email(self.cleaned_data["email"])

    def save(self, commit=True):
        """The account, without its e-mail yet: the e-mail is kept once its owner
        confirms it through the link mailed there (``accounts.mail.offer_email``)."""
        self.instance.email = ""
        return super().save(commit)


class LoginForm(FocusFirstErrorMixin, auth_forms.AuthenticationForm):
    # After a failed login the user name is kept; the password is typed again.
    focus_on_form_error = "password"
    error_messages: ClassVar[dict] = {
        **auth_forms.AuthenticationForm.error_messages,
        "invalid_login": _(
            "That user name and password do not match an account. "
            "Check both: capital letters count."
        ),
        "inactive": _("This account is switched off."),
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = _("User name")
        _no_autocorrect(self.fields["username"])
        self.fields["password"].label = _("Password")


class PasswordChangeForm(FocusFirstErrorMixin, auth_forms.PasswordChangeForm):
    error_messages: ClassVar[dict] = {
        **auth_forms.PasswordChangeForm.error_messages,
        "password_mismatch": PASSWORD_MISMATCH,
        "password_incorrect": _("That is not your current password. Please type it again."),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["old_password"].label = _("Current password")
        self.fields["new_password1"].label = _("New password")
        self.fields["new_password1"].help_text = PASSWORD_HELP
        self.fields["new_password2"].label = _("New password again")
        self.fields["new_password2"].help_text = PASSWORD_AGAIN_HELP


class SetPasswordForm(FocusFirstErrorMixin, auth_forms.SetPasswordForm):
    error_messages: ClassVar[dict] = {
        **auth_forms.SetPasswordForm.error_messages,
        "password_mismatch": PASSWORD_MISMATCH,
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].label = _("New password")
        self.fields["new_password1"].help_text = PASSWORD_HELP
        self.fields["new_password1"].widget.attrs["autofocus"] = True
        self.fields["new_password2"].label = _("New password again")
        self.fields["new_password2"].help_text = PASSWORD_AGAIN_HELP


class PasswordResetForm(FocusFirstErrorMixin, auth_forms.PasswordResetForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("E-mail")
        self.fields["email"].help_text = _("The e-mail you signed up with.")
        self.fields["email"].widget.attrs["autofocus"] = True
        _no_autocorrect(self.fields["email"])

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        """Through ``accounts.mail.send``: a few mails per address and hour at most, and
        the page answers alike whether a mail went out or not."""
        mail.send(
            to_email,
            subject_template=subject_template_name,
            body_template=email_template_name,
            context=context,
            from_email=from_email,
        )
