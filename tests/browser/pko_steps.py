"""Steps a PKO night's browser tests share: opening a page as a member of the staff in his
language, walking the seating board's pages, and measuring the clock TV's layout."""

from __future__ import annotations

import base64
import re
import zlib

from django.conf import settings

from tests.browser.test_night_screens import _session_cookie

LOCALES = {"en": "en-GB", "it": "it-IT"}


def open_page(browser, language, *, user=None, url=None, width=1280, height=800):
    """A page in a fresh browser context speaking `language`; logged in as `user` (with his
    language chosen) when given."""
    context = browser.new_context(
        locale=LOCALES[language], viewport={"width": width, "height": height}
    )
    if user is not None:
        cookies = _session_cookie(user, url)
        cookies.append({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": url})
        context.add_cookies(cookies)
    page = context.new_page()
    page.set_default_timeout(10000)
    # A server error on any page of the night is a defect, even one the page survives (an
    # htmx refresh that fails leaves the old content on the screen).
    page.server_errors = []
    page.on("response", lambda r: r.status >= 500 and page.server_errors.append(r.url))
    return page


# Each row of the seating board: its name, whether it is wholly on the screen, and whether
# it keeps to one line (a wrapped row is twice the height of the shortest).
VISIBLE = """() => {
  const rows = [...document.querySelectorAll('#board .board-rows li[data-name]')];
  const single = Math.min(...rows.map((r) => r.getBoundingClientRect().height));
  return rows.map((r) => {
    const box = r.getBoundingClientRect();
    return {
      name: r.dataset.name,
      shown: box.top >= 0 && box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5
        && box.left >= 0 && box.width > 0,
      oneLine: box.height < single * 1.5,
    };
  });
}"""


def board_names(page, url: str, *, page_word: str, of_word: str) -> set[str]:
    """Walk every page of the seating board at `url` at the page's size and return the names
    seen, checking on each page that no row wraps or is cut off and that the page says which
    page it is ("Page 2 of 3" in the board's words)."""
    page.goto(url)
    page.wait_for_selector("#board .board-rows li[data-name]")
    # The screen measures what fits and asks for pages of that size; a board that fits
    # whole on one page is kept as it is.
    page.wait_for_timeout(500)
    board = page.locator("#board")
    size = page.viewport_size
    if board.get_attribute("data-per") == "":
        return _board_page_names(page, 1, 1, page_word, of_word, size)
    pages, per = int(board.get_attribute("data-pages")), int(board.get_attribute("data-per"))
    # A page whose own rows measure differently (a wider name, a badge) may ask for a
    # smaller size once: the walk then starts again at the size the board settled on.
    for _attempt in range(3):
        seen: set[str] = set()
        settled = True
        for number in range(1, pages + 1):
            page.goto(f"{url}?page={number}&per={per}")
            page.wait_for_selector("#board .board-rows li[data-name]")
            page.wait_for_timeout(300)  # a measurement that would ask again has had its turn
            measured = int(page.locator("#board").get_attribute("data-per"))
            if measured != per:
                per, settled = measured, False
                pages = int(page.locator("#board").get_attribute("data-pages"))
                break
            seen |= _board_page_names(page, number, pages, page_word, of_word, size)
        if settled:
            return seen
    raise AssertionError("the board never settled on a page size")


def _board_page_names(page, number, pages, page_word, of_word, size) -> set[str]:
    said = f"{page_word} {number} {of_word} {pages}"
    assert said in page.inner_text(".board-page")
    rows = page.evaluate(VISIBLE)
    assert all(r["oneLine"] for r in rows), "a row wraps to two lines"
    cut = [r["name"] for r in rows if not r["shown"]]
    assert not cut, f"rows cut off at {size}: {cut[:3]}"
    return {r["name"] for r in rows}


# The clock TV's layout: its QR codes whole on the screen and not covered by the sound
# button, nothing of the figures cut off, the bounty list's size, the prizes' lines and
# the bounty leader's line.
LAYOUT = """() => {
  const inside = (box) => box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight + 0.5
    && box.right <= innerWidth + 0.5 && box.width > 0 && box.height > 0;
  const qrs = [...document.querySelectorAll('.qr svg')].map((el) => el.getBoundingClientRect());
  const button = document.querySelector('[data-sound-enable]');
  const b = button && !button.hidden ? button.getBoundingClientRect() : null;
  const overlaps = (q) => b && !(b.right <= q.left || b.left >= q.right || b.bottom <= q.top
    || b.top >= q.bottom);
  const shown = document.querySelector('#figures').getBoundingClientRect();
  const bottom = Math.min(innerHeight, shown.bottom) + 0.5;
  const cut = [...document.querySelectorAll('#figures *')].filter((el) => {
    if (!el.getClientRects().length) return false;
    const box = el.getBoundingClientRect();
    return box.height > 0 && box.bottom > bottom;
  }).map((el) => el.textContent.trim().slice(0, 40));
  const bounty = document.querySelector('.bounties li');
  return {
    qrs: qrs.length,
    qrsInside: qrs.every(inside),
    covered: qrs.some(overlaps),
    cut,
    bountyShown: Boolean(bounty && bounty.getClientRects().length),
    bountyFont: bounty ? parseFloat(getComputedStyle(bounty).fontSize) : 0,
    payouts: [...document.querySelectorAll('.payouts li')].map((li) => li.textContent.trim()),
    leader: (document.querySelector('[data-testid="bounty-leader"]') || {}).textContent || '',
  };
}"""


def tv_layout(page) -> dict:
    """The clock TV's layout as LAYOUT measures it, once its bounty list is in."""
    page.wait_for_selector(".bounties li", state="attached")
    page.wait_for_timeout(300)
    return page.evaluate(LAYOUT)


def assert_tv_fits(seen: dict, width: int, height: int, currency: str) -> None:
    """Both QR codes whole and uncovered, no figure cut off, the bounty list readable from
    across the room and every prize with its currency."""
    assert seen["qrs"] == 2
    assert seen["qrsInside"], f"a QR code is off the screen at {width}x{height}"
    assert not seen["covered"], f"the sound button covers a QR code at {width}x{height}"
    assert not seen["cut"], f"figures cut off at {width}x{height}: {seen['cut'][:3]}"
    # Readable from across the room: at least the size of the prizes' lines.
    assert seen["bountyShown"], f"the bounty list left the screen at {width}x{height}"
    assert seen["bountyFont"] >= 0.024 * height
    assert seen["payouts"] and all(currency in line for line in seen["payouts"])


def pdf_text(body: bytes) -> str:
    """The lines of text a printed PDF shows (ReportLab's compressed content streams)."""
    lines = []
    for raw in re.findall(rb"stream\r?\n(.*?)~>endstream", body, re.S):
        content = zlib.decompress(base64.a85decode(b"<~" + raw + b"~>", adobe=True))
        lines += [m.decode("latin-1") for m in re.findall(rb"\((.*?)\) Tj", content)]
    return "\n".join(lines)
