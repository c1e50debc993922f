"""The room's players (profile, duplicates, merge, export, erasure) and its leagues."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from room import permissions as room_permissions
from room.forms import people as people_forms
from room.models import League, RoomEvent
from room.selectors import people as room_people
from room.services import leagues as league_services
from room.services import people as people_services
from tournaments import permissions
from tournaments.documents.reports import as_csv
from tournaments.forms.fields import whole_number
from tournaments.models import Player, PlayerPhoto, Tournament
from tournaments.rules import leagues
from tournaments.selectors import people as people_selectors
from tournaments.views import results

# --- The player list of one event ---------------------------------------------


# --- The room's players -------------------------------------------------------


def _people_user(request: HttpRequest) -> None:
    if not permissions.may_see_people(request.user):
        raise PermissionDenied


def _person(request: HttpRequest, player_id: int) -> Player:
    _people_user(request)
    return permissions.player_for(request.user, player_id)


def _events_shown(user) -> QuerySet[Tournament] | None:
    """The events whose entries a player's profile and export show this user: every one
    for the room's manager (None), only the events he runs for a TD."""
    if permissions.is_manager(user):
        return None
    return permissions.events_for(user, permissions.TD)


@login_required
def people(request: HttpRequest) -> HttpResponse:
    _people_user(request)
    form = people_forms.PeopleSearchForm(request.GET)
    query = form.cleaned_data.get("q", "") if form.is_valid() else ""
    players = permissions.players_for(request.user)
    for word in query.split()[:5]:
        players = players.filter(
            Q(last_name__icontains=word)
            | Q(first_name__icontains=word)
            | Q(nickname__icontains=word)
            | Q(document_number__iexact=word)
        )
    page = Paginator(players.order_by("last_name", "first_name", "pk"), 50).get_page(
        whole_number(request.GET.get("page"), high=999_999) or 1
    )
    template = "people/people.html#rows" if request.htmx else "people/people.html"
    return render(request, template, {"form": form, "page": page, "query": query})


@login_required
def people_duplicates(request: HttpRequest) -> HttpResponse:
    _people_user(request)
    groups = room_people.duplicates(permissions.players_for(request.user))
    return render(
        request,
        "people/duplicates.html",
        {
            "groups": [
                [{"player": p, "document": people_selectors.mask(p.document_number)} for p in g]
                for g in groups
            ]
        },
    )


@login_required
def person(request: HttpRequest, player_id: int) -> HttpResponse:
    player = _person(request, player_id)
    if request.method == "POST":
        form = people_forms.ProfileForm(
            request.POST, request.FILES, instance=Player.objects.get(pk=player.pk)
        )
        if form.is_valid():
            ok, _saved = run(
                request,
                people_services.player_update,
                player=player,
                actor=request.user,
                fields=form.profile(),
            )
            if ok:
                messages.success(request, _("Profile saved."))
                return redirect("person", player_id=player.pk)
        else:
            messages.error(request, _("Check the fields marked below."))
    else:
        form = people_forms.ProfileForm(instance=player)
    merges = player.merged.all()
    merge_events = {
        e.data.get("source"): e
        for e in RoomEvent.objects.filter(
            action="room.player_merge", undone_at__isnull=True, data__target=player.pk
        )
    }
    return render(
        request,
        "people/person.html",
        {
            "player": player,
            "form": form,
            "document": people_selectors.mask(player.document_number),
            "history": room_people.player_history(player, events=_events_shown(request.user)),
            "merged": [{"player": p, "event": merge_events.get(p.pk)} for p in merges],
            "candidates": _candidates(request, player),
            "has_photo": PlayerPhoto.objects.filter(player=player).exists(),
            "may_reveal": permissions.is_manager(request.user),
        },
    )


def _candidates(request: HttpRequest, player: Player) -> list[Player]:
    """Players this one may be a duplicate of (shown beside the merge form)."""
    for group in room_people.duplicates(permissions.players_for(request.user)):
        if any(p.pk == player.pk for p in group):
            return [p for p in group if p.pk != player.pk]
    return []


@login_required
def person_photo(request: HttpRequest, player_id: int) -> HttpResponse:
    player = _person(request, player_id)
    photo = PlayerPhoto.objects.filter(player=player).first()
    if photo is None or photo.content_type not in people_services.PHOTO_TYPES:
        raise Http404
    response = HttpResponse(bytes(photo.data), content_type=photo.content_type)
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
def person_export(request: HttpRequest, player_id: int) -> HttpResponse:
    player = _person(request, player_id)
    data = room_people.player_export(player, events=_events_shown(request.user))
    body = json.dumps(data, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="player-{player.pk}.json"'
    return response


@login_required
@require_POST
def person_contact(request: HttpRequest, player_id: int) -> HttpResponse:
    """The room's manager reveals a player's contact (staff see it masked); logged."""
    player = _person(request, player_id)
    if not permissions.is_manager(request.user):
        raise PermissionDenied
    run(request, people_services.contact_reveal, player=player, actor=request.user)
    response = render(request, "people/contact.html", {"player": player})
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def person_erase(request: HttpRequest, player_id: int) -> HttpResponse:
    player = _person(request, player_id)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm: an erasure cannot be undone."))
        return redirect("person", player_id=player.pk)
    ok, _erased = run(request, people_services.player_erase, player=player, actor=request.user)
    if ok:
        messages.success(request, _("The player's personal data was erased."))
    return redirect("person", player_id=player.pk)


@login_required
@require_POST
def person_merge(request: HttpRequest, player_id: int) -> HttpResponse:
    """Merge this player (a duplicate) into the one chosen in `into`."""
    player = _person(request, player_id)
    form = people_forms.MergeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the player to keep."))
        return redirect("person", player_id=player.pk)
    target = permissions.player_for(request.user, form.cleaned_data["into"])
    ok, _event = run(
        request, people_services.players_merge, source=player, target=target, actor=request.user
    )
    if ok:
        messages.success(
            request,
            _("%(source)s merged into %(target)s: every entry kept. The merge can be undone.")
            % {"source": player, "target": target},
        )
        return redirect("person", player_id=target.pk)
    return redirect("person", player_id=player.pk)


@login_required
@require_POST
def merge_undo(request: HttpRequest, event_id: int) -> HttpResponse:
    _people_user(request)
    event = RoomEvent.objects.filter(pk=event_id, action="room.player_merge").first()
    target = (
        event.data.get("target") if event is not None and isinstance(event.data, dict) else None
    )
    # A merge is reached through the player it kept: another event's merge is not found.
    if type(target) is not int:
        raise Http404
    permissions.player_for(request.user, target)
    ok, _undo = run(request, people_services.undo_merge, event_id=event.pk, actor=request.user)
    if ok:
        messages.success(request, _("Merge undone: the two players are apart again."))
    return redirect("people")


# --- Leagues ------------------------------------------------------------------


def _league_user(request: HttpRequest) -> None:
    if not permissions.may_run_leagues(request.user):
        raise PermissionDenied


def _league_events(user) -> QuerySet[Tournament]:
    """The events the user may put in a league: those he runs (every one for the room's
    manager), main events only (a flight counts through its main event)."""
    return permissions.events_for(user, permissions.TD).filter(parent__isnull=True)


@login_required
def league_list(request: HttpRequest) -> HttpResponse:
    _league_user(request)
    events = _league_events(request.user)
    if request.method == "POST":
        form = people_forms.LeagueForm(request.POST, events=events)
        if form.is_valid():
            ok, league = run(
                request,
                league_services.league_save,
                actor=request.user,
                values={**form.cleaned_data, "points_table": form.cleaned_data["points"]},
                events=list(form.cleaned_data["events"]),
            )
            if ok:
                messages.success(request, _("League created."))
                return redirect("league_edit", league_id=league.pk)
        else:
            messages.error(request, _("Check the fields marked below."))
    else:
        form = people_forms.LeagueForm(
            events=events, initial={"points": "25 18 15 12 10 8 6 4 2 1"}
        )
    return render(
        request,
        "leagues/list.html",
        {"form": form, "leagues": room_permissions.leagues_for(request.user)[:200]},
    )


@login_required
def league_edit(request: HttpRequest, league_id: int) -> HttpResponse:
    _league_user(request)
    league = room_permissions.league_for(request.user, league_id)
    events = _league_events(request.user)
    # Events of the league not offered on the form (a flight) stay in it, untouched.
    others = list(league.events.exclude(pk__in=events.values("pk")))
    if request.method == "POST":
        form = people_forms.LeagueForm(request.POST, instance=league, events=events)
        if form.is_valid():
            ok, _saved = run(
                request,
                league_services.league_save,
                actor=request.user,
                values={**form.cleaned_data, "points_table": form.cleaned_data["points"]},
                events=[*form.cleaned_data["events"], *others],
                league=League.objects.get(pk=league.pk),
            )
            if ok:
                messages.success(request, _("League saved."))
                return redirect("league_edit", league_id=league.pk)
        else:
            messages.error(request, _("Check the fields marked below."))
    else:
        form = people_forms.LeagueForm(instance=league, events=events)
    size = whole_number(request.GET.get("entries"), high=999_999) or 50
    formula = room_people.league_formula(league)
    return render(
        request,
        "leagues/edit.html",
        {
            "league": league,
            "form": form,
            "preview_entries": size,
            "preview": leagues.preview(formula, size, places=15),
            "rows": room_people.standings_rows(league),
        },
    )


def _public_league(slug: str) -> League:
    league = League.objects.filter(slug=slug, public=True).first()
    if league is None:
        raise Http404
    return league


def league_public(request: HttpRequest, league: str) -> HttpResponse:
    """The standings, no login."""
    found = _public_league(league)
    return render(
        request,
        "leagues/public.html",
        {
            "league": found,
            "rows": room_people.standings_rows(found),
            "events": found.events.order_by("date", "name"),
        },
    )


def league_csv(request: HttpRequest, league: str) -> HttpResponse:
    found = _public_league(league)
    response = HttpResponse(
        as_csv(room_people.standings_table(found)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{found.slug}-standings.csv"'
    return response


@login_required
def league_ranking(request: HttpRequest, league_id: int, fmt: str) -> HttpResponse:
    if not permissions.may_run_leagues(request.user):
        raise PermissionDenied
    league = room_permissions.league_for(request.user, league_id)
    if fmt not in results.FORMATS:
        raise Http404
    return results.download(
        room_people.league_ranking_table(league), _("Ranking"), f"{league.slug}-ranking", fmt
    )


def league_downloads(user, event) -> list[dict]:
    """The ranking of each league holding `event` that the user runs, for the event's
    results page (tournaments.views.results.RESULTS_DOWNLOADS)."""
    return [
        {
            "title": _("Ranking of %(league)s") % {"league": league.name},
            "key": f"league-{league.pk}",
            "links": [
                (fmt.upper(), reverse("league_ranking", args=[league.pk, fmt]))
                for fmt in results.FORMATS
            ],
        }
        for league in room_permissions.leagues_for(user).filter(events=event).order_by("name")
    ]
