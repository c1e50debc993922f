// The players' service worker (room/views/phone.py serves it with the whole site as its
// scope). It keeps the last copy of each player page it saw, so a flaky connection shows
// the last known state, marked as such; shows the room's pushes as notifications; and
// posts a cash call's answer from the notification's buttons.
"use strict";

const CACHE = "torneo-phone-{{ version }}";
// The players' pages, and only them: staff pages are never kept on a phone.
const PAGES = [
  /^\/p\/[^/]+\/find\/$/,
  /^\/t\/[^/]+\/results\/$/,
  /^\/room\/cash\/me\/[^/]+\/$/,
  /^\/room\/me\/[^/]+\/$/,
  /^\/room\/phone\/$/,
];
const STATIC = /^\/static\//;

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

function kept(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  if (request.headers.get("HX-Request")) return false; // a fragment, not the page
  if (STATIC.test(url.pathname)) return true;
  return request.mode === "navigate" && PAGES.some((p) => p.test(url.pathname));
}

// A page served from the cache says so: its pwa.js then shows "last updated".
async function fromCache(request) {
  const cached = await caches.match(request, {
    ignoreSearch: request.mode !== "navigate",
    ignoreVary: true, // the page varies on its cookie and language: any copy beats none
  });
  if (!cached) return Response.error();
  if (request.mode !== "navigate") return cached;
  const text = (await cached.text()).replace(
    'data-pwa-served="network"',
    'data-pwa-served="cache"'
  );
  return new Response(text, { status: 200, headers: cached.headers });
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    return fromCache(request);
  }
}

// A page opened before the worker controlled it (the first visit) asks to be kept.
self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type !== "keep") return;
  const url = new URL(message.url, self.location.origin);
  if (url.origin !== self.location.origin || !PAGES.some((p) => p.test(url.pathname))) return;
  event.waitUntil(
    fetch(url.href, { credentials: "same-origin" }).then((response) =>
      response.ok ? caches.open(CACHE).then((cache) => cache.put(url.href, response)) : null
    )
  );
});

self.addEventListener("fetch", (event) => {
  if (kept(event.request)) event.respondWith(networkFirst(event.request));
});

async function tellPages(message) {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  pages.forEach((page) => page.postMessage(message));
}

async function showPush(data) {
  await self.registration.showNotification(data.title || "Torneo", {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: Boolean(data.tag),
    requireInteraction: Boolean(data.answer),
    icon: "{% load static %}{% static 'room/icon-192.png' %}",
    actions: (data.actions || []).slice(0, self.Notification ? Notification.maxActions || 2 : 2),
    data: { url: data.url || "/room/phone/", answer: data.answer || "", actions: data.actions || [] },
  });
  await tellPages({ type: "torneo-push", title: data.title || "", body: data.body || "" });
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(showPush(data));
});

// What a tap on a notification does: a button of a cash call posts its answer to the
// call's signed address and shows the list's reply; elsewhere it opens the player's page.
async function torneoClick(notification, action) {
  const data = notification.data || {};
  notification.close();
  if (action && data.answer) {
    let reply = { ok: false, message: "" };
    try {
      const response = await fetch(data.answer, {
        method: "POST",
        body: new URLSearchParams({ answer: action }),
        credentials: "omit",
      });
      reply = await response.json();
    } catch (error) {
      reply = { ok: false, message: "" };
    }
    await self.registration.showNotification(notification.title, {
      body: reply.message || "",
      tag: notification.tag || undefined,
      data: { url: data.url },
    });
    await tellPages({ type: "torneo-answer", title: notification.title, body: reply.message || "" });
    return reply;
  }
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const target = new URL(data.url || "/room/phone/", self.location.origin).href;
  for (const page of pages) {
    if (page.url === target && "focus" in page) return page.focus();
  }
  return self.clients.openWindow(target);
}
self.torneoClick = torneoClick;

self.addEventListener("notificationclick", (event) => {
  event.waitUntil(torneoClick(event.notification, event.action));
});
