"""The circle's administration log in words (``AuditEntry``), for its owners' page,
and what a member's removal changed, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from circles.models import AuditEntry, Circle, Membership, Player
from circles.services import Removal

PAGE = 100


def new_links_made(removal: Removal) -> str:
    """One sentence: which links were made anew when a member left."""
    parts = []
    if removal.sheets:
        parts.append(
            ngettext("%(count)d sheet", "%(count)d sheets", removal.sheets)
            % {"count": removal.sheets}
        )
    if removal.seasons:
        parts.append(
            ngettext(
                "the share link of %(count)d season",
                "the share links of %(count)d seasons",
                removal.seasons,
            )
            % {"count": removal.seasons}
        )
    if removal.evenings:
        parts.append(
            ngettext(
                "the organiser's link of %(count)d club evening",
                "the organiser's links of %(count)d club evenings",
                removal.evenings,
            )
            % {"count": removal.evenings}
        )
    if removal.invite:
        parts.append(_("the invite link"))
    return _("New links made for %(what)s; the old ones no longer open anything.") % {
        "what": _joined(parts)
    }


def _joined(parts: list[str]) -> str:
    if len(parts) < 2:
        return "".join(parts)
    return _("%(first)s and %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}


def _text(detail: Mapping[str, Any], field: str) -> str:
    value = detail.get(field)
    return value if isinstance(value, str) else "?"


def _count(detail: Mapping[str, Any], field: str) -> int:
    value = detail.get(field)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def line(entry: AuditEntry) -> str:
    """What happened, as a sentence (who did it is shown beside it). The detail is
    read like input: a value of the wrong kind shows as "?" and never fails."""
    detail = entry.detail if isinstance(entry.detail, Mapping) else {}
    member = _text(detail, "member")
    name = _text(detail, "name")
    if entry.action in (AuditEntry.REMOVED, AuditEntry.LEFT):
        text = (
            _("%(member)s left the circle.")
            if entry.action == AuditEntry.LEFT
            else _("%(member)s was removed from the circle.")
        ) % {"member": member}
        removal = Removal(
            sheets=_count(detail, "sheets"),
            seasons=_count(detail, "seasons"),
            invite=detail.get("invite") is True,
        )
        if removal.new_links:
            text = f"{text} {new_links_made(removal)}"
        return text
    if entry.action == AuditEntry.ROLE:
        role = dict(Membership.ROLES).get(detail.get("role"), "?")
        return _("%(member)s is now: %(role)s.") % {"member": member, "role": role}
    if entry.action == AuditEntry.MERGED:
        return _("%(absorbed)s was merged into %(name)s.") % {
            "absorbed": _text(detail, "absorbed"),
            "name": name,
        }
    if entry.action == AuditEntry.ERASED:
        return _("A player was erased at their request; the name now reads %(name)s.") % {
            "name": name
        }
    if entry.action == AuditEntry.LINKED:
        return _("%(name)s was linked to the account %(member)s.") % {
            "name": name,
            "member": member,
        }
    if entry.action == AuditEntry.UNLINKED:
        return _("%(name)s was unlinked from the account %(member)s.") % {
            "name": name,
            "member": member,
        }
    if entry.action == AuditEntry.SHOWN_AS:
        shown = dict(Player.SHOWN_AS).get(detail.get("shown_as"), "?")
        return _("Outside the circle, %(name)s is now shown as: %(shown)s.") % {
            "name": name,
            "shown": shown,
        }
    if entry.action == AuditEntry.INVITE:
        return _("A new invite link was made; the old one stopped working.")
    if entry.action == AuditEntry.SEASON_LINK:
        return _("A new share link was made for the season %(name)s.") % {"name": name}
    return "?"


def entries(
    circle: Circle, *, before: int | None = None
) -> tuple[list[dict[str, Any]], int | None]:
    """The newest ``PAGE`` lines of the log (older than entry ``before``), as the page
    shows them, and the id to ask for the next page with (None: no more)."""
    found = AuditEntry.objects.filter(circle=circle)
    if before is not None:
        found = found.filter(pk__lt=before)
    rows = list(found.order_by("-pk")[: PAGE + 1])
    more = rows[PAGE - 1].pk if len(rows) > PAGE else None
    return [
        {"at": entry.at, "who": entry.actor_name, "what": line(entry), "action": entry.action}
        for entry in rows[:PAGE]
    ], more
