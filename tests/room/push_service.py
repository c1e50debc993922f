"""A push service on 127.0.0.1, started by a test: what the phone's browser vendor runs, here
checking what a real one checks and opening what only the phone could.

Each subscription it hands out is a browser's: its endpoint points here, and its keys (the
P-256 key pair and the auth secret of RFC 8291) are made and kept here, as the phone keeps
them. A push POSTed to an endpoint must carry a VAPID JWT (RFC 8292) signed by the key it
names, for this origin, unexpired; its aes128gcm body is decrypted with the subscription's
private key. What arrived, or what was wrong, is kept for the test to read.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Push:
    path: str
    payload: dict
    ttl: int
    urgency: str


@dataclass
class Browser:
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    gone: bool = False


@dataclass
class PushService:
    server: ThreadingHTTPServer | None = None
    browsers: dict[str, Browser] = field(default_factory=dict)
    received: list[Push] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def subscription(self, name: str, *, gone: bool = False) -> dict:
        """A new browser's subscription (PushSubscription.toJSON()), endpoint here."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self.browsers[f"/push/{name}"] = Browser(key, auth, gone)
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{name}",
            "keys": {"p256dh": b64(public), "auth": b64(auth)},
        }

    def for_browser(self, name: str) -> list[dict]:
        with self.lock:
            return [p.payload for p in self.received if p.path == f"/push/{name}"]

    def check(self, path: str, headers, body: bytes, vapid_key: str) -> dict:
        """The push's payload, after the checks a push service and the browser make."""
        scheme, _sep, params = (headers.get("Authorization") or "").partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"no VAPID authorization: {scheme!r}")
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        if parts.get("k") != vapid_key:
            raise ValueError("signed with another key than the room's")
        head, claims, signature = parts["t"].split(".")
        if json.loads(unb64(head)) != {"typ": "JWT", "alg": "ES256"}:
            raise ValueError("not an ES256 JWT")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
        try:
            public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ValueError("the VAPID signature does not verify") from None
        claimed = json.loads(unb64(claims))
        if claimed.get("aud") != self.origin:
            raise ValueError(f"audience {claimed.get('aud')!r} is not {self.origin}")
        if not time.time() < claimed["exp"] <= time.time() + 24 * 3600:
            raise ValueError("expired, or valid for more than a day")
        if not str(claimed.get("sub", "")).startswith(("mailto:", "https:")):
            raise ValueError("no contact in the claims")
        if headers.get("Content-Encoding") != "aes128gcm":
            raise ValueError("not aes128gcm")
        browser = self.browsers[path]
        clear = http_ece.decrypt(
            body, private_key=browser.private_key, auth_secret=browser.auth, version="aes128gcm"
        )
        return json.loads(clear)

    def start(self, vapid_key: str) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                browser = service.browsers.get(self.path)
                if browser is None or browser.gone:
                    self.send_response(410)  # this subscription no longer exists
                    self.end_headers()
                    return
                try:
                    payload = service.check(self.path, self.headers, body, vapid_key)
                except Exception as exc:  # every failure is the test's to read
                    with service.lock:
                        service.errors.append(f"{self.path}: {exc}")
                    self.send_response(400)
                    self.end_headers()
                    return
                with service.lock:
                    service.received.append(
                        Push(
                            self.path,
                            payload,
                            int(self.headers.get("TTL") or 0),
                            self.headers.get("Urgency", ""),
                        )
                    )
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
