"""Backup pages: a TD downloads the tournament as JSON; a user who may create tournaments
uploads such a file to create it here (tournaments/services/backup_*.py do the work)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import permissions
from tournaments.errors import DomainError
from tournaments.services import backup_checks, backup_export, backup_import


@login_required
@require_GET
def tournament_export(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.TD)
    data = backup_export.dumps(backup_export.export_tournament(tournament, now=timezone.now()))
    response = HttpResponse(data, content_type="application/json; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = (
        f'attachment; filename="{tournament.slug}-{stamp}.torneo.json"'
    )
    return response


@login_required
@require_http_methods(["GET", "POST"])
def tournament_import(request: HttpRequest) -> HttpResponse:
    if not permissions.can_create_tournaments(request.user):
        raise PermissionDenied
    max_mb = backup_checks.MAX_DOCUMENT_BYTES // (1024 * 1024)
    if request.method == "GET":
        return render(request, "setup/import.html", {"max_mb": max_mb})
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, _("Choose a file written by “Export (JSON)”."))
        return redirect("tournament_import")
    if upload.size > backup_checks.MAX_DOCUMENT_BYTES:
        messages.error(
            request,
            _("This file cannot be imported: the file is larger than %(mb)s MB.") % {"mb": max_mb},
        )
        return redirect("tournament_import")
    try:
        result = backup_import.import_document(
            backup_checks.loads(upload.read()), actor=request.user, now=timezone.now()
        )
    except DomainError as exc:
        messages.error(request, str(exc))
        return redirect("tournament_import")
    tournament = result.tournament
    messages.success(
        request,
        _("%(name)s imported: %(flights)s flights, %(new)s new players, %(known)s known ones.")
        % {
            "name": tournament.name,
            "flights": len(result.flights),
            "new": result.players_created,
            "known": result.players_matched,
        },
    )
    for old, new in result.renamed.items():
        messages.warning(
            request,
            _("The address %(old)s is taken here: imported as %(new)s.") % {"old": old, "new": new},
        )
    if result.users_created:
        messages.warning(
            request,
            _(
                "Staff accounts not found here were created disabled: %(names)s. "
                "An administrator can enable them."
            )
            % {"names": ", ".join(result.users_created)},
        )
    if tournament.screens.exists():
        messages.info(
            request, _("Screens have new secret links: hand them out again from Screens.")
        )
    return redirect("tournament_home", tournament.slug)
