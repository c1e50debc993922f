"""Form cases: drawn for one route from its target (what a user might type in each field,
junk, raw bodies, URL arguments of the world's and of nobody's rows), and run as one request
each, in a transaction rolled back afterwards.
"""

from __future__ import annotations

import json
import sys
import traceback
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.urls import reverse

from bench.fuzzing import room_values
from bench.fuzzing.language import LANGUAGE, Catalog, shown_messages
from bench.fuzzing.outcomes import Outcome
from bench.fuzzing.routes import targets_cached
from bench.fuzzing.snapshot import changed, event_count, snapshot
from bench.fuzzing.strategies import _mutated_json, _numerals, _st, junk, often

if TYPE_CHECKING:
    from bench.fuzzing.spec import Target
    from bench.fuzzing.worlds import World


def _near(kind: str, world: World):
    """Values a user might really type for a field of this kind."""
    st = _st()
    small = st.integers(min_value=0, max_value=60).map(str)
    if kind.startswith("choice:"):
        return st.sampled_from(kind.split(":", 1)[1].split("|"))
    simple = {
        "int": st.one_of(small, st.sampled_from(["100", "200", "1000", "20000", "1000000"])),
        "chips_int": st.sampled_from(["0", "25", "5000", "20000", "40000", "100000"]),
        "decimal": st.sampled_from(["0", "5", "12.5", "100", "100.01", "3,5"]),
        "bool": st.sampled_from(["on", "1", "0", "true", "false", "off"]),
        "date": st.one_of(
            st.dates().map(lambda d: d.isoformat()),
            st.sampled_from(["2026-02-30", "31/12/2030", "2030-13-01", "0000-00-00"]),
        ),
        "time": st.sampled_from(["21:30", "9:05", "25:00", "21:61", "2030-01-01T10:00", "now"]),
        # NUL bytes come with the junk (the middleware refuses the whole request).
        "text": st.one_of(st.sampled_from(["Anna", "Bar", "Dealer Gigi", "Nöel"]), st.text()),
        "name": st.sampled_from(["Gino", "Fuzz", "gino1", "ma", "x", "Rossi", "%", "_"]),
        "seat": st.integers(min_value=0, max_value=23).map(str),
        "table": st.sampled_from([*map(str, world.tables), "5", "0", "10000"]),
        "entry": st.sampled_from([*map(str, world.entries), "0", "99"]),
        "value": st.sampled_from([*map(str, world.values), "5000", "1", "0"]),
        "spot": st.sampled_from(["1/1", "1/2", "2.3", "3-4", "4/9", "1/1 1/2", "9/9,1/3"]),
        "amounts": st.sampled_from(["500 300 200", "1000", "100,50,25", "10 20", "0 0"]),
        "cards": st.sampled_from(["Ah 7c 2d", "Ks", "Ah Kh", "As As", "Xx 7c", "Td 9d 8d 7d"]),
        "chips": st.sampled_from(["100", "100 25", "500 500 100"]),
        "seat_list": st.sampled_from(["1", "1, 9", "1;2 3", "0", "11", "1,,9", "1000"]),
        "username": st.sampled_from([*world.usernames.values(), "nobody", "admin"]),
        "path": st.sampled_from(["/", "/t/", "https://evil.example/", "//evil", "javascript:1"]),
        "structure_op": st.sampled_from(
            ["save", "add_level", "add_break", "delete:0", "up:1", "down:0", "preset", "up:x"]
        ),
        "names": st.sampled_from([world.names_json, "{}", '{"1": ["x"]}', '{"a": 1}', "[]"]),
        "hand": st.one_of(st.just(world.hand_json), _mutated_json(world.hand_json)),
        "datetime": st.sampled_from(
            ["2030-01-01 10:00", "2030-01-01T10:00:00+01:00", "31/12/2030 10:00", "now"]
        ),
        **room_values.field_kinds(world),
    }
    for numeric in ("int", "chips_int", "decimal", "seat", "table", "entry", "value", "amounts"):
        simple[numeric] = _numerals(simple[numeric])
    if kind in simple:
        return simple[kind]
    raise KeyError(f"no strategy for field kind {kind!r}")


def _expand(fields: dict[str, str], world: World) -> dict[str, str]:
    out = {}
    room = room_values.placeholders(world)
    for name, kind in fields.items():
        placeholder = next((p for p in room if p in name), None)
        if placeholder is not None:
            out.update({name.replace(placeholder, str(n)): kind for n in room[placeholder]})
        elif "{entry}" in name:
            out.update({name.replace("{entry}", str(n)): kind for n in world.entries})
        elif "{seat}" in name:
            out.update({name.replace("{seat}", str(n)): kind for n in range(1, 11)})
        elif "{i}" in name:
            out.update({name.replace("{i}", str(n)): kind for n in range(16)})
        elif "{value}" in name:
            out.update({name.replace("{value}", str(n)): kind for n in world.values})
        else:
            out[name] = kind
    return out


@dataclass
class FormCase:
    target: str
    role: str
    kwargs: dict[str, Any]
    data: dict[str, Any]
    htmx: bool = False
    raw: bytes | None = None
    content_type: str = ""


def _value(kind: str, world: World):
    st = _st()

    def one():
        return often(lambda: _near(kind, world), 2, junk())

    return often(one, 3, st.lists(one(), min_size=2, max_size=4))


def _kwarg(kind: str, world: World):
    """URL arguments: the world's own, others that do not exist, and junk in the pattern."""
    st = _st()
    big = st.integers(min_value=0, max_value=10**25)

    def mostly(values):
        return often(lambda: st.sampled_from(values), 4, big)

    words = st.text(st.characters(blacklist_characters="/", codec="utf-8"), min_size=1)
    near = {
        "slug": st.sampled_from([world.slug] * 18 + ["nope", "a" * 100]),
        "player": mostly(world.player_ids),
        "entry": mostly(world.entries),
        "event": mostly(world.event_ids),
        "ruling": mostly(world.ruling_ids),
        "table": mostly(world.tables),
        "seat": mostly(list(range(0, 12))),
        "screen": mostly(world.screen_ids),
        "league": mostly(world.league_ids),
        "league_slug": st.sampled_from([*world.league_slugs, "nope"]),
        "token": often(
            lambda: st.sampled_from(sorted(world.tokens.values())), 4, st.uuids().map(str)
        ),
        **room_values.kwarg_kinds(world),
    }
    if kind.startswith("choice:"):
        return often(lambda: st.sampled_from(kind.split(":", 1)[1].split("|")), 3, words)
    return near[kind]


def form_cases(name: str, target: Target, world: World):
    """Hypothesis strategy of cases for one route."""
    st = _st()
    fields = _expand(target.fields, world)
    values = {f: _value(kind, world) for f, kind in fields.items()}
    extra = st.dictionaries(
        st.one_of(
            st.sampled_from(["op", "action", "next", "entry", "table", "csrfmiddlewaretoken"]),
            st.text(min_size=1, max_size=12),
        ),
        junk(),
        max_size=3,
    )
    random_form = st.fixed_dictionaries({}, optional=values) if values else st.just({})
    # Every field filled with what a user might type: reaches the services more often.
    typed = st.fixed_dictionaries({f: _near(kind, world) for f, kind in fields.items()})
    forms = [random_form, typed]
    if target.base is not None:
        base = target.base(world)
        names = sorted(set(base) | set(fields))

        def mutate(args):
            changes = args
            data = dict(base)
            for key, new in changes:
                if new is None:
                    data.pop(key, None)
                else:
                    data[key] = new
            return data

        change = st.tuples(
            st.sampled_from(names),
            st.one_of(st.none(), junk(), *(_value(fields.get(n, "text"), world) for n in names))
            if len(names) < 40
            else st.one_of(st.none(), junk(), st.text(max_size=10)),
        )
        forms += [st.lists(change, max_size=3).map(mutate) for _ in range(2)]
    data = st.tuples(st.one_of(*forms), extra).map(lambda p: {**p[1], **p[0]})
    raw = st.one_of(
        st.none(),
        st.none(),
        st.none(),
        st.none(),
        st.one_of(
            st.binary(max_size=200),
            st.sampled_from(
                [b"a=%zz&b=%ff%fe", b"\xff\xfe\x00", b"=&=&&", b"--zz\r\n\r\n", b"a" * 100000]
            ),
        ),
    )
    content_type = st.sampled_from(
        [
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=zz",
            "multipart/form-data",
            "application/json",
            "text/plain; charset=utf-16",
        ]
    )
    roles = st.one_of(st.sampled_from(target.roles), st.sampled_from(sorted(world.users)))
    kwargs = st.fixed_dictionaries({k: _kwarg(kind, world) for k, kind in target.kwargs.items()})
    return st.builds(
        FormCase,
        target=st.just(name),
        role=st.one_of(st.sampled_from(target.roles), roles),
        kwargs=kwargs,
        data=data,
        htmx=st.booleans(),
        raw=raw if target.method == "post" else st.none(),
        content_type=content_type,
    )


# --- Running a form case --------------------------------------------------------------


class _Errors:
    """Exceptions raised inside views (the test client turns them into 500 responses)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, sender, request=None, **kwargs) -> None:
        exc = sys.exc_info()[1]
        if exc is None:
            return
        frames = traceback.extract_tb(exc.__traceback__)
        ours = [f for f in frames if "site-packages" not in f.filename] or frames
        where = f"{ours[-1].filename}:{ours[-1].lineno} in {ours[-1].name}" if ours else "?"
        self.seen.append(f"{type(exc).__name__}: {str(exc)[:300]} ({where})")


def _client(role: str, world: World):
    from django.test import Client

    client = Client(
        raise_request_exception=False,
        HTTP_ACCEPT_LANGUAGE=LANGUAGE,
        REMOTE_ADDR=f"10.9.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}",
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = LANGUAGE
    user = world.users.get(role)
    if user is not None:
        client.force_login(user)
    return client


def _url(name: str, kwargs: dict[str, Any]) -> str:
    from django.urls import NoReverseMatch

    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:
        return ""


def _refusal(response, errors: list[str]) -> bool:
    from django.conf import settings as conf

    if errors or response.status_code >= 400:
        return True
    location = response.headers.get("Location", "")
    return response.status_code == 302 and location.startswith(conf.LOGIN_URL)


def _submitted_texts(case: FormCase) -> list[str]:
    """The texts the case submitted, longest first (a message may quote them)."""
    values: list[str] = []
    for value in (case.data or {}).values():
        values += [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
    return sorted((v for v in values if v.strip()), key=len, reverse=True)


def run_form_case(world: World, case: FormCase, catalog: Catalog) -> Outcome:
    """One request; the database is rolled back afterwards whatever happened."""
    from django.test import override_settings

    target = targets_cached()[case.target]
    with override_settings(**target.settings):
        return _run_form_case(world, case, catalog, target)


def _run_form_case(world: World, case: FormCase, catalog: Catalog, target: Target) -> Outcome:
    from django.core.signals import got_request_exception

    outcome = Outcome(case.target)
    url = _url(case.target, case.kwargs)
    if not url:  # junk that the URL pattern does not take never reaches a view
        outcome.refused = True
        return outcome
    recorder = _Errors()
    got_request_exception.connect(recorder)
    try:
        with transaction.atomic():
            client = _client(case.role, world)
            headers = {"HX-Request": "true"} if case.htmx else {}
            before, events_before = snapshot(world), event_count()
            try:
                if target.method == "get":
                    response = client.get(url, case.data, headers=headers)
                elif target.json and case.raw is None:
                    body = json.dumps(case.data)
                    response = client.post(
                        url, body, content_type="application/json", headers=headers
                    )
                elif case.raw is not None:
                    response = client.generic(
                        "POST", url, case.raw, content_type=case.content_type, headers=headers
                    )
                else:
                    response = client.post(url, case.data, headers=headers)
            except Exception:  # noqa: BLE001 - any exception is the finding
                outcome.server_error = traceback.format_exc(limit=-6)
                transaction.set_rollback(True)
                return outcome
            if response.status_code >= 500:
                outcome.server_error = f"{response.status_code}: " + (
                    recorder.seen[-1] if recorder.seen else "no exception recorded"
                )
                transaction.set_rollback(True)
                return outcome
            errors, others = shown_messages(response)
            outcome.refused = _refusal(response, errors)
            outcome.message = errors[0] if errors else f"HTTP {response.status_code}"
            try:
                after, events_after = snapshot(world), event_count()
            except DatabaseError as exc:  # the request left the transaction broken
                outcome.server_error = f"broken transaction after the request: {exc}"
                transaction.set_rollback(True)
                return outcome
            diff = changed(before, after)
            logged = events_after > events_before
            if diff and outcome.refused:
                outcome.partial_write = f"refused ({errors[:2]}) but changed {diff}"
            elif diff and target.logged and not logged:
                outcome.partial_write = f"changed {diff} without an event"
            outcome.accepted = bool(diff) and not outcome.partial_write
            echoed = _submitted_texts(case)
            for text in errors + others:
                # A message may quote what was typed ("X is not one of the choices"): the
                # fuzzer types the site's own English texts, which are no untranslated
                # message of the site's.
                for value in echoed:
                    text = text.replace(value, "")
                english = catalog.english_in(text)
                if english:
                    outcome.untranslated = f"{text!r} is English ({english!r})"
                    break
            transaction.set_rollback(True)
    finally:
        got_request_exception.disconnect(recorder)
    if outcome.problems:
        outcome.server_error = outcome.server_error and f"{_describe(case)}\n{outcome.server_error}"
        outcome.partial_write = (
            outcome.partial_write and f"{_describe(case)} {outcome.partial_write}"
        )
        outcome.untranslated = outcome.untranslated and f"{_describe(case)} {outcome.untranslated}"
    return outcome


def _describe(case: FormCase) -> str:
    data = {k: (v[:80] if isinstance(v, str) else v) for k, v in case.data.items()}
    body = f" raw={case.raw[:80]!r} ({case.content_type})" if case.raw is not None else ""
    return f"[{case.role} {case.kwargs} {data}{body} htmx={case.htmx}]"
