"""The room app's addresses, under /room/ beside the cash room's and the pit's."""

from __future__ import annotations

from django.urls import path

from room.views import phone

urlpatterns: list = [
    # The players' phones: the installable app, its service worker and its QR codes.
    path("phone/", phone.app_home, name="room_phone_app"),
    path("phone/manifest.webmanifest", phone.manifest, name="room_manifest"),
    path("phone/sw.js", phone.service_worker, name="room_service_worker"),
    path("phone/qr/", phone.app_qr, name="room_phone_qr"),
    path("phone/qr/<slug:slug>/<int:number>/", phone.entry_qr, name="room_entry_qr"),
    # A player's notifications, by his signed link; one-tap unsubscribe; a call's answer.
    path("me/<str:token>/", phone.notify_page, name="room_notify_page"),
    path("me/<str:token>/push/", phone.notify_subscribe, name="room_notify_subscribe"),
    path("me/<str:token>/push/off/", phone.notify_unsubscribe, name="room_notify_unsubscribe"),
    path("me/<str:token>/email/", phone.notify_email, name="room_notify_email"),
    path("me/<str:token>/cash/", phone.notify_cash, name="room_notify_cash"),
    path("cash/me/<str:token>/notify/", phone.notify_from_cash, name="room_notify_from_cash"),
    path("off/<str:token>/", phone.notify_off, name="room_notify_off"),
    path("answer/<str:token>/", phone.notify_answer, name="room_notify_answer"),
]
