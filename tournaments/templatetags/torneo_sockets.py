"""`{% socket_codes %}`: the WebSocket close codes, for `static/js/screen.js` to read."""

from __future__ import annotations

from django import template
from django.utils.html import json_script

from tournaments.sockets import codes

register = template.Library()


@register.simple_tag
def socket_codes() -> str:
    return json_script(codes.for_screens(), "socket-codes")
