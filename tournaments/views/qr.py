"""QR codes on the pages: an address as an inline SVG (seat cards, screens, confirmations)."""

from __future__ import annotations

import functools

import segno
from django.http import HttpRequest
from django.urls import reverse


@functools.lru_cache(maxsize=256)
def qr_svg(url: str, scale: int) -> str:
    """An address as an inline SVG QR code, made once per address (a desk prints two on
    every seat card: encoding one costs milliseconds)."""
    return segno.make(url, error="m").svg_inline(
        scale=scale, dark="#000", light="#fff", omitsize=True
    )


def front_qr(request: HttpRequest) -> str:
    """The front page's address as an inline SVG QR code (seat cards and the TV)."""
    return qr_svg(request.build_absolute_uri(reverse("front_page")), 4)
