"""Content-Security-Policy on every response, from settings.SECURE_CSP.

One mechanism on both Django versions CI runs: Django 6.0+ ships
`django.middleware.csp.ContentSecurityPolicyMiddleware` (SECURE_CSP, a dict of directive ->
sources) and we use it as is; Django 5.2 (Python 3.11) has no CSP support, so the same
setting is rendered here by a few lines with the built-in's semantics (a header a view set
itself is kept; an empty policy sends none). django-csp was not taken: its 4.0 settings
format differs from the built-in's, so we would carry a second dialect that Django 6 made
unnecessary. No nonces: the policy allows scripts from our own static files only.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"


def build_policy(config: dict) -> str:
    """SECURE_CSP as a header value, as django.utils.csp.build_policy renders it."""
    parts = []
    for directive, values in config.items():
        if values in (None, False):
            continue
        if values is True:
            parts.append(directive)
            continue
        if isinstance(values, set):
            values = sorted(values)
        elif not isinstance(values, list | tuple):
            values = [values]
        if values:
            parts.append(f"{directive} {' '.join(values)}")
    return "; ".join(parts)


class FallbackContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Django 5.2's stand-in for Django 6's middleware (enforced policy only, no nonce)."""

    def process_response(self, request, response):
        config = getattr(response, "_csp_config", settings.SECURE_CSP)
        if config and HEADER not in response:
            response.headers[HEADER] = build_policy(config)
        return response


try:  # Django >= 6.0
    from django.middleware.csp import ContentSecurityPolicyMiddleware
except ImportError:  # Django 5.2
    ContentSecurityPolicyMiddleware = FallbackContentSecurityPolicyMiddleware  # type: ignore[misc]

__all__ = ["ContentSecurityPolicyMiddleware"]
