"""The floor ruling tool: the page rules as the engine does, refuses junk without a change,
saves and logs a ruling, and exports it as a PHH hand that replays to the same stacks."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from tables.engine import Action, EngineError, EngineSettings, Hand, TableSetup, phh
from tests.conftest import NOW, SHARED, make_player
from tournaments import events
from tournaments.models import Event, Ruling
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

CASES = json.loads((SHARED / "conformance/engine.json").read_text())
# Cases the setup form can express (no pre-dealt cards, blind overrides or cash posts).
FORM_CASES = [
    c
    for c in CASES
    if not ({"hole", "board", "sb_seat", "bb_seat", "extra_posts"} & set(c["setup"]))
    and max(p["seat"] for p in c["setup"]["players"]) <= 10
]
HX = {"HTTP_HX_REQUEST": "true"}


def url(tournament) -> str:
    return reverse("ruling_tool", args=[tournament.slug])


def setup_form(setup: dict, settings: dict | None = None) -> dict[str, str]:
    data = {"op": "start"}
    for key in ("game", "variant", "sb", "bb", "ante", "ante_mode", "button", "street", "pot"):
        if setup.get(key) is not None:
            data[key] = str(setup[key])
    for key in ("small_bet", "big_bet"):
        if setup.get(key) is not None:
            data[key] = str(setup[key])
    for p in setup["players"]:
        data[f"stack_{p['seat']}"] = str(p["stack"])
    for name, value in (settings or {}).items():
        data[f"setting_{name}"] = str(value)
    return data


def event_form(event: dict) -> dict[str, str]:
    data = {"op": "act", "seat": str(event["seat"]), "kind": event["act"]}
    if event.get("to") is not None:
        data["to"] = str(event["to"])
    if event.get("chips"):
        data["chips"] = " ".join(str(c) for c in event["chips"])
    if event.get("declared"):
        data["declared"] = event["declared"]
    if event.get("declared_to") is not None:
        data["declared_to"] = str(event["declared_to"])
    if event.get("words"):
        data["words"] = event["words"]
    if event.get("forfeit"):
        data["forfeit"] = str(event["forfeit"])
    return data


def carried(response) -> dict[str, str]:
    """The hidden fields the page carries from step to step (as a browser would send them)."""
    text = response.content.decode()
    out = {}
    for name in ("hand", "names", "table"):
        found = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', text)
        if found:
            out[name] = html.unescape(found.group(1))
    return out


def post(client, tournament, data, previous=None, **headers):
    return client.post(
        url(tournament), {**(carried(previous) if previous else {}), **data}, **headers
    )


def page_hand(response) -> dict:
    return json.loads(carried(response)["hand"])


@pytest.fixture(autouse=True)
def _english(settings):
    # The page is asserted in its English source strings.
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def floor_client(client, floor):
    client.force_login(floor)
    return client


SIMPLE = {
    "game": "NL",
    "sb": 100,
    "bb": 200,
    "ante": 0,
    "ante_mode": "none",
    "button": 3,
    "players": [
        {"seat": 1, "stack": 20000},
        {"seat": 2, "stack": 20000},
        {"seat": 3, "stack": 20000},
    ],
    "street": "preflop",
    "pot": 0,
}


# --- Both ways (STYLE.md 20) ------------------------------------------------------------


def test_full_page_and_fragment(floor_client, tournament):
    full = floor_client.get(url(tournament))
    assert full.status_code == 200
    assert b"<html" in full.content and b'id="ruling-tool"' in full.content
    started = post(floor_client, tournament, setup_form(SIMPLE), **HX)
    assert started.status_code == 200
    assert b"<html" not in started.content
    assert b'id="ruling-tool"' in started.content
    assert b"Next to act" in started.content
    plain = post(floor_client, tournament, setup_form(SIMPLE))
    assert b"<html" in plain.content and b"Next to act" in plain.content


def test_setup_prefills_blinds_and_players_from_a_table(floor_client, tournament, td):
    player = make_player("Gianna", "Nannini")
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    seat = reg.entry.seat
    response = floor_client.get(url(tournament), {"table": seat.table.number})
    text = response.content.decode()
    assert f'name="name_{seat.number}" aria-label' in text
    assert 'value="Nannini Gianna"' in text
    assert 'name="bb" inputmode="numeric" value="200"' in text  # level 1 of the structure


# --- The page rules as the engine does --------------------------------------------------


def engine_steps(case):
    """Drive the engine directly: per event, the ruling or the error class."""
    hand = Hand(TableSetup.from_dict(case["setup"]), EngineSettings.from_dict(case.get("settings")))
    out = []
    for event in case["events"]:
        try:
            out.append(hand.act(Action.from_dict(event)))
        except EngineError as exc:
            out.append(exc)
    return hand, out


@pytest.mark.parametrize("case", FORM_CASES, ids=[c["id"] for c in FORM_CASES])
def test_page_gives_the_engines_ruling_and_rule_ids(floor_client, tournament, case):
    expected_hand, expected = engine_steps(case)
    response = post(floor_client, tournament, setup_form(case["setup"], case.get("settings")), **HX)
    assert response.status_code == 200
    for event, want in zip(case["events"], expected, strict=True):
        before = carried(response)["hand"]
        response = post(floor_client, tournament, event_form(event), response, **HX)
        assert response.status_code == 200
        text = html.unescape(response.content.decode())
        if isinstance(want, EngineError):
            assert carried(response)["hand"] == before  # refused: the hand is unchanged
            assert 'class="message error"' in text
        else:
            last = Hand.from_dict(page_hand(response)).rulings[-1]
            assert (last.act, last.to, last.rules) == (want.act, want.to, want.rules)
            for rule in want.rules:
                assert rule in text
    assert page_hand(response)["log"] == expected_hand.to_dict()["log"]


def test_undercall_of_the_opening_bet_is_ruled_a_call_with_its_rule(floor_client, tournament):
    flop = {**SIMPLE, "street": "flop", "pot": 1000, "button": 3}
    response = post(floor_client, tournament, setup_form(flop))
    response = post(
        floor_client, tournament, {"op": "act", "seat": "1", "kind": "bet", "to": "8000"}, response
    )
    response = post(
        floor_client,
        tournament,
        {"op": "act", "seat": "2", "kind": "chips", "chips": "2000"},
        response,
    )
    ruling = Hand.from_dict(page_hand(response)).rulings[-1]
    assert (ruling.act, ruling.to) == ("call", 8000)
    text = response.content.decode()
    assert "R-CALL-3" in text and "Undercalls" in text  # rule id with its short title
    assert "call 8000" in text


@pytest.mark.parametrize(
    ("language", "title", "text"),
    [
        (
            "en",
            "Undercalls",
            "Putting in less than the call (not all-in) becomes a full call heads-up or facing "
            "the opening bet",
        ),
        (
            "it",
            "Undercall",
            "Chi mette meno della chiamata (senza essere all-in) deve chiamare per intero nel "
            "testa a testa o davanti alla puntata d'apertura",
        ),
    ],
    ids=["en", "it"],
)
def test_a_cited_rule_shows_its_text_on_hover(
    floor_client, tournament, settings, language, title, text
):
    settings.LANGUAGE_CODE = language
    flop = {**SIMPLE, "street": "flop", "pot": 1000, "button": 3}
    response = post(floor_client, tournament, setup_form(flop))
    response = post(
        floor_client, tournament, {"op": "act", "seat": "1", "kind": "bet", "to": "8000"}, response
    )
    response = post(
        floor_client,
        tournament,
        {"op": "act", "seat": "2", "kind": "chips", "chips": "2000"},
        response,
    )
    page = html.unescape(response.content.decode())
    cite = re.search(
        r'data-rule="R-CALL-3"><span class="cite-title">([^<]*)</span>'
        r'<span class="cite-text" role="tooltip">([^<]*)</span>',
        page,
    )
    assert cite, "the undercall is cited to its rule"
    assert cite.group(1) == title
    assert cite.group(2).startswith(text)  # the rule itself, then the codes it was cited by
    assert cite.group(2).endswith("(R-CALL-3 · TDA-51b)")


def test_out_of_turn_raise_is_shown_pending_then_binding(floor_client, tournament):
    response = post(
        floor_client,
        tournament,
        setup_form(
            {**SIMPLE, "button": 1, "players": [{"seat": s, "stack": 20000} for s in range(1, 6)]}
        ),
    )
    # Seat 4 is first to act preflop; seat 5 raises out of turn, seat 4 calls.
    response = post(
        floor_client, tournament, {"op": "act", "seat": "5", "kind": "raise", "to": "800"}, response
    )
    text = response.content.decode()
    assert "R-OOT-1" in text and "out of turn, pending" in text
    assert Hand.from_dict(page_hand(response)).next_to_act == 4
    response = post(floor_client, tournament, {"op": "act", "seat": "4", "kind": "call"}, response)
    hand = Hand.from_dict(page_hand(response))
    assert hand.committed(5) == 800  # the raise stood once the action to him was unchanged
    assert "now binds" in response.content.decode()


# --- Bad input: a message, no 500, no change ---------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"op": "act", "seat": "1", "kind": "raise", "to": "12abc"},
        {"op": "act", "seat": "1", "kind": "raise", "to": "²"},
        {"op": "act", "seat": "1", "kind": "raise", "to": "-5"},
        {"op": "act", "seat": "7", "kind": "call"},
        {"op": "act", "seat": "x", "kind": "call"},
        {"op": "act", "seat": "1", "kind": "teleport"},
        {"op": "act", "seat": "1", "kind": "chips", "chips": "1000 lots"},
        {"op": "board", "cards": "Zz 7c 2d"},
        {"op": "board", "cards": "Ah Ah 2d"},
        {"op": "board", "cards": "Ah7c2d9s4h3c"},
        {"op": "hole", "seat": "1", "cards": "As"},
        {"op": "muck", "seat": "1"},  # not at showdown
        {"op": "back"},  # nothing to take back
        {"op": "explode"},
    ],
)
def test_bad_step_gives_a_message_and_leaves_the_hand(floor_client, tournament, data):
    start = post(floor_client, tournament, setup_form(SIMPLE), **HX)
    response = post(floor_client, tournament, data, start, **HX)
    assert response.status_code == 200
    assert 'class="message error"' in response.content.decode()
    assert carried(response)["hand"] == carried(start)["hand"]
    assert not Ruling.objects.exists()


@pytest.mark.parametrize(
    "changes",
    [
        {"stack_1": "abc"},
        {"bb": ""},
        {"bb": "0"},
        {"button": "99"},
        {"stack_2": "", "stack_3": ""},  # one player only
        {"name_5": "Nobody"},  # a name without a stack
        {"game": "stud"},
        {"setting_oot_mode": "whatever"},
        {"setting_chip_unit": "0"},
    ],
)
def test_bad_setup_gives_a_message(floor_client, tournament, changes):
    response = post(floor_client, tournament, {**setup_form(SIMPLE), **changes}, **HX)
    assert response.status_code == 200
    text = response.content.decode()
    assert 'class="message error"' in text
    assert 'name="hand"' not in text  # still on the setup form


@pytest.mark.parametrize("junk", ["", "{", "[]", '{"setup": {}}', '{"setup": 5, "settings": {}}'])
def test_tampered_hand_is_refused(floor_client, tournament, junk):
    for op in ("act", "save"):
        response = floor_client.post(
            url(tournament), {"op": op, "hand": junk, "seat": "1", "kind": "fold"}, **HX
        )
        assert response.status_code == 200
        assert 'class="message error"' in response.content.decode()
    assert not Ruling.objects.exists()


def test_acting_after_folding_is_refused_with_the_rule(floor_client, tournament):
    start = post(floor_client, tournament, setup_form(SIMPLE))
    folded = post(floor_client, tournament, {"op": "act", "seat": "1", "kind": "fold"}, start)
    again = post(floor_client, tournament, {"op": "act", "seat": "1", "kind": "call"}, folded)
    text = again.content.decode()
    assert (
        "The rules do not allow this action here." in text
        and "All-in and folded players are skipped" in text
    )
    assert carried(again)["hand"] == carried(folded)["hand"]


def test_take_back_the_last_step(floor_client, tournament):
    start = post(floor_client, tournament, setup_form(SIMPLE))
    after = post(floor_client, tournament, {"op": "act", "seat": "3", "kind": "fold"}, start)
    assert Hand.from_dict(page_hand(after)).next_to_act == 1
    back = post(floor_client, tournament, {"op": "back"}, after)
    assert page_hand(back)["log"] == []
    assert Hand.from_dict(page_hand(back)).next_to_act == 3


# --- Save, log, undo, PHH ----------------------------------------------------------------


def play_to_showdown(client, tournament):
    # Button 3, three-handed: seat 3 acts first preflop, seat 1 (SB) first after the flop.
    response = post(client, tournament, {**setup_form(SIMPLE), "name_3": "Anna", "table": "2"})
    for data in [
        {"op": "act", "seat": "3", "kind": "raise", "to": "600"},
        {"op": "act", "seat": "1", "kind": "fold"},
        {"op": "act", "seat": "2", "kind": "call"},
        {"op": "board", "cards": "Ah 7c 2d"},
        {"op": "act", "seat": "2", "kind": "check"},
        {"op": "act", "seat": "3", "kind": "declare", "words": "1000"},
        {"op": "act", "seat": "2", "kind": "call"},
        {"op": "board", "cards": "9s"},
        {"op": "act", "seat": "2", "kind": "check"},
        {"op": "act", "seat": "3", "kind": "check"},
        {"op": "board", "cards": "Kd"},
        {"op": "act", "seat": "2", "kind": "check"},
        {"op": "act", "seat": "3", "kind": "check"},
        {"op": "hole", "seat": "3", "cards": "AsKs"},
        {"op": "hole", "seat": "2", "cards": "Qh Qd"},
    ]:
        response = post(client, tournament, data, response)
        assert 'class="message error"' not in response.content.decode(), data
        assert "out of turn" not in response.content.decode(), data
    return response


def test_a_hand_to_showdown_shows_winners_and_final_stacks(floor_client, tournament):
    response = play_to_showdown(floor_client, tournament)
    text = response.content.decode()
    assert "Main pot: seat 3" in text
    hand = Hand.from_dict(page_hand(response))
    assert hand.final_stacks() == {1: 19900, 2: 18400, 3: 21700}
    assert ">21,700<" in text and ">18,400<" in text


def test_save_logs_and_undo_removes(floor_client, tournament, floor):
    response = play_to_showdown(floor_client, tournament)
    saved = post(
        floor_client,
        tournament,
        {"op": "save", "note": "Seat 3's bet stands.", "table": "2"},
        response,
    )
    ruling = Ruling.objects.get()
    assert saved.status_code == 302 and saved["Location"] == reverse(
        "ruling_detail", args=[tournament.slug, ruling.pk]
    )
    assert (ruling.table_number, ruling.note, ruling.created_by) == (
        2,
        "Seat 3's bet stands.",
        floor,
    )
    assert ruling.names == {"3": "Anna"}
    assert Hand.from_dict(ruling.hand).to_dict() == page_hand(response)
    event = Event.objects.get(action="ruling.save")
    assert event.data["ruling"] == ruling.pk and event.actor == floor
    detail = floor_client.get(saved["Location"])
    assert "Seat 3&#x27;s bet stands." in detail.content.decode()
    assert "Download as PHH" in detail.content.decode()
    events.event_undo(event_id=event.pk, tournament=tournament, actor=floor, now=NOW)
    assert not Ruling.objects.exists()


def test_save_with_htmx_redirects_the_browser(floor_client, tournament):
    response = post(floor_client, tournament, setup_form(SIMPLE))
    saved = post(floor_client, tournament, {"op": "save", "table": ""}, response, **HX)
    assert saved.status_code == 204
    assert saved["HX-Redirect"].startswith(reverse("ruling_tool", args=[tournament.slug]))
    assert Ruling.objects.get().table_number is None


@pytest.mark.parametrize("table", ["99", "abc"])
def test_save_to_a_table_that_does_not_exist_is_refused(floor_client, tournament, table):
    response = post(floor_client, tournament, setup_form(SIMPLE))
    saved = post(floor_client, tournament, {"op": "save", "table": table}, response, **HX)
    assert saved.status_code == 200
    assert 'class="message error"' in saved.content.decode()
    assert not Ruling.objects.exists() and not Event.objects.filter(action="ruling.save").exists()


def test_phh_download_replays_to_the_same_stacks(floor_client, tournament):
    response = play_to_showdown(floor_client, tournament)
    post(floor_client, tournament, {"op": "save", "table": "2"}, response)
    ruling = Ruling.objects.get()
    download = floor_client.get(reverse("ruling_phh", args=[tournament.slug, ruling.pk]))
    assert download.status_code == 200
    assert "attachment" in download["Content-Disposition"]
    text = download.content.decode()
    outcome = phh.check_text(text)
    assert outcome.passed, outcome
    replayed = phh.replay(phh.parse_phh(text))
    original = Hand.from_dict(ruling.hand)
    order = sorted(original.seats, key=lambda s: (s <= original.setup.button, s))
    assert list(replayed.final_stacks().values()) == [original.final_stacks()[s] for s in order]
    assert "Anna" in text


def test_phh_download_of_a_hand_phh_cannot_write_gives_a_message(floor_client, tournament):
    later = {**SIMPLE, "street": "flop", "pot": 600}
    response = post(floor_client, tournament, setup_form(later))
    post(floor_client, tournament, {"op": "save"}, response)
    ruling = Ruling.objects.get()
    download = floor_client.get(reverse("ruling_phh", args=[tournament.slug, ruling.pk]))
    assert download.status_code == 302
    detail = floor_client.get(download["Location"])
    assert "No PHH export for this hand" in detail.content.decode()


@pytest.mark.parametrize(
    ("role", "status"), [("anonymous", 302), ("outsider", 403), ("desk", 403), ("floor", 200)]
)
def test_posting_a_step_needs_the_floor_role(client, tournament, role, status, request):
    if role != "anonymous":
        client.force_login(request.getfixturevalue(role))
    response = client.post(url(tournament), setup_form(SIMPLE))
    assert response.status_code == status
    if role == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if status == 200:
        empty = client.post(url(tournament), {})
        assert empty.status_code == 200 and 'class="message error"' in empty.content.decode()


def test_another_tournaments_ruling_is_not_found(floor_client, tournament, td):
    from tests.conftest import make_tournament

    other = make_tournament(td, tables=0)
    ruling = Ruling.objects.create(
        tournament=other, hand=Hand(TableSetup.from_dict(SIMPLE)).to_dict(), created_at=NOW
    )
    for name in ("ruling_detail", "ruling_phh"):
        response = floor_client.get(reverse(name, args=[tournament.slug, ruling.pk]))
        assert response.status_code == 404


def test_a_stored_hand_the_engine_cannot_read_is_shown_without_a_500(floor_client, tournament):
    ruling = Ruling.objects.create(
        tournament=tournament, hand={"setup": {"players": []}, "settings": {}}, created_at=NOW
    )
    detail = floor_client.get(reverse("ruling_detail", args=[tournament.slug, ruling.pk]))
    assert detail.status_code == 200 and "The table setup is not usable." in detail.content.decode()
    download = floor_client.get(reverse("ruling_phh", args=[tournament.slug, ruling.pk]))
    assert download.status_code == 302


def test_chosen_house_settings_survive_a_refused_setup(floor_client, tournament):
    data = {**setup_form(SIMPLE), "bb": "", "setting_oot_mode": "figp"}
    text = post(floor_client, tournament, data).content.decode()
    assert '<option value="figp" selected>' in text


# --- Dealer tablet -----------------------------------------------------------------------


def seated_table(tournament, td, count=3):
    from tournaments.models import Seat

    for i in range(count):
        entry_services.entry_register(
            tournament=tournament, player=make_player(f"P{i}"), actor=td, now=NOW
        )
    seats = list(Seat.objects.select_related("table").order_by("table__number", "number"))
    table = seats[0].table
    return table, [s for s in seats if s.table_id == table.pk]


def test_dealer_tablet_runs_a_hand_with_buttons(floor_client, tournament, td):
    table, seats = seated_table(tournament, td)
    dealer_url = reverse("dealer_tablet", args=[tournament.slug, table.number])
    page = floor_client.get(dealer_url)
    assert page.status_code == 200
    for seat in seats:
        assert str(seat.entry.player) in page.content.decode()
    data = {"op": "start", "button": str(seats[0].number)}
    for key in ("game", "variant", "sb", "bb", "ante", "ante_mode"):
        data[key] = page.context["values"].get(key, "")
    for seat in seats:
        data[f"name_{seat.number}"] = str(seat.entry.player)
        data[f"stack_{seat.number}"] = "10000"
    response = floor_client.post(dealer_url, data, **HX)
    assert b"<html" not in response.content
    hand = Hand.from_dict(page_hand(response))
    first = hand.next_to_act
    assert f"Seat {first} to act" in response.content.decode()
    # A raise to a garbage amount is refused and nothing changes.
    bad = floor_client.post(
        dealer_url, {**carried(response), "op": "act", "kind": "raise", "to": "lots"}, **HX
    )
    assert 'class="message error"' in bad.content.decode()
    assert carried(bad)["hand"] == carried(response)["hand"]
    raised = floor_client.post(
        dealer_url, {**carried(response), "op": "act", "kind": "raise", "to": "600"}, **HX
    )
    hand = Hand.from_dict(page_hand(raised))
    assert hand.committed(first) == 600 and hand.next_to_act != first
    folded = raised
    while Hand.from_dict(page_hand(folded)).next_to_act is not None:
        folded = floor_client.post(
            dealer_url, {**carried(folded), "op": "act", "kind": "fold"}, **HX
        )
    final = Hand.from_dict(page_hand(folded)).final_stacks()
    assert final[first] == 10000 + 100 + 200  # both blinds won uncontested
    assert "Main pot: seat" in folded.content.decode()


def test_dealer_tablet_of_an_unknown_table_is_not_found(floor_client, tournament):
    response = floor_client.get(reverse("dealer_tablet", args=[tournament.slug, 99]))
    assert response.status_code == 404
