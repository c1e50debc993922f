"""Print a new VAPID private key for VAPID_PRIVATE_KEY (production keeps it in its
environment, like SECRET_KEY). Made once: a new key silences every phone that opted in."""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Print a new Web Push (VAPID) private key, PEM on one line, for VAPID_PRIVATE_KEY."

    def handle(self, *args, **options) -> None:
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        # One line, "\n" written out: an environment file keeps it whole; settings undo it.
        self.stdout.write(pem.decode().strip().replace("\n", "\\n"))
