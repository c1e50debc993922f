"""The players' phone pages as an app: its manifest and service worker, the CSP that lets
them run, the pages that register it, the QR codes that lead to them, and links that open
nothing once tampered with."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse

from config import csp
from room import tokens
from room.services import cash_lists, notify
from room.views.cash_phone import phone_token
from tests.conftest import NOW, make_cash_game, make_player, make_room_user
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def test_the_manifest_and_the_service_worker_make_the_player_pages_an_app(client):
    manifest = client.get(reverse("room_manifest"))
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["display"] == "standalone" and data["scope"] == "/"
    assert data["start_url"] == reverse("room_phone_app")
    assert {i["sizes"] for i in data["icons"]} == {"192x192", "512x512"}
    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix(settings.STATIC_URL))
    worker = client.get(reverse("room_service_worker"))
    assert worker["Content-Type"].startswith("text/javascript")
    # Served under /room/phone/, it may control the players' pages under /p/ and /t/ too.
    assert worker["Service-Worker-Allowed"] == "/"
    assert worker["Cache-Control"] == "no-cache"
    policy = csp.build_policy(settings.SECURE_CSP)
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
    assert "worker-src 'self'" in worker["Content-Security-Policy"]


def test_every_player_page_registers_the_app(client, tournament, td):
    player = make_player("Pia", "Pagina")
    floor = make_room_user("cashman", "cash")
    game = make_cash_game(floor)
    cash_lists.list_add(actor=floor, player=player, games=[game], present=True, now=NOW)
    pages = [
        reverse("seat_finder", args=[tournament.slug]),
        reverse("public_results", args=[tournament.slug]),
        reverse("cash_phone", args=[phone_token(player)]),
        reverse("room_notify_page", args=[tokens.player_token(player.pk)]),
        reverse("room_phone_app"),
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert f'rel="manifest" href="{reverse("room_manifest")}"' in html, url
        assert "js/pwa.js" in html and 'data-pwa-served="network"' in html, url


def test_the_qr_codes_lead_the_player_to_his_pages(client, tournament, td, desk):
    player = make_player("Quirino", "Codice")
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    client.force_login(desk)
    card = client.get(reverse("seat_card", args=[tournament.slug, reg.entry.number]))
    fragment = reverse("room_entry_qr", args=[tournament.slug, reg.entry.number])
    assert f'hx-get="{fragment}"' in card.content.decode()
    qr = client.get(fragment).content.decode()
    assert "<svg" in qr and 'data-testid="notify-qr-player"' in qr
    brush = client.get(reverse("cash_brush")).content.decode()
    assert f'hx-get="{reverse("room_phone_qr")}"' in brush
    assert "<svg" in client.get(reverse("room_phone_qr")).content.decode()
    # His cash phone page leads to his notifications page.
    response = client.get(reverse("room_notify_from_cash", args=[phone_token(player)]))
    assert response.status_code == 302
    assert client.get(response["Location"]).status_code == 200


def test_a_tampered_or_foreign_link_opens_nothing(client):
    player = make_player("Tito", "Firma")
    good = tokens.player_token(player.pk)
    assert client.get(reverse("room_notify_page", args=[good])).status_code == 200
    forged = tokens.player_token(player.pk + 1)[:-2] + good[-2:]
    assert client.get(reverse("room_notify_page", args=[forged])).status_code == 404
    # A link of another kind (an unsubscribe link) is not a player's page, nor the reverse.
    off = tokens.off_token("push", 1)
    assert client.get(reverse("room_notify_page", args=[off])).status_code == 404
    assert client.get(reverse("room_notify_off", args=[good])).status_code == 404


def test_the_vapid_key_is_kept_and_its_public_half_is_what_phones_subscribe_with(capsys):
    key = notify.vapid_public_key()
    assert len(key) == 87  # a 65-byte uncompressed P-256 point, base64url
    call_command("vapid_key")
    assert capsys.readouterr().out.startswith("-----BEGIN PRIVATE KEY-----\\n")


@pytest.mark.parametrize("name", ["room_notify_subscribe", "room_notify_unsubscribe"])
def test_a_subscription_posted_as_a_form_is_refused_not_a_server_error(client, name):
    """The page's script posts JSON. A multipart form's body is read as a form before the
    view (every request is checked for NUL bytes), and reading it as JSON was a 500."""
    from room.models import PushSubscription

    player = make_player("Modulo", "Multiparte")
    url = reverse(name, args=[tokens.player_token(player.pk)])
    response = client.post(url, {"endpoint": "https://push.example/x", "p256dh": "a"})
    assert response.status_code == 400 and response.json()["ok"] is False
    assert "required" in response.json()["message"]
    assert not PushSubscription.objects.exists()
