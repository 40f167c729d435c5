"""Fog of war and safety on the pages, through the installed ``mekref serve --web``.

Both sides and the referee play day 1 of the Ginestra sample from their pages (orders, the
referee's resolution, each side's scenario download and battle file, control of the field);
then each side's every page, fragment, download and live event is scanned for the other side's
secrets: its formations its sensors never revealed, and the units and people of its formations
that fought no battle with it. Wrong-side requests, forms without their CSRF token, a revoked
token and an oversized upload are refused as on the API.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_helpers import (
    ENGAGEMENT,
    SIDES,
    Campaign,
    Page,
    Served,
    ginestra,
    give_orders,
    serve,
    stop,
)

from mekref.daemon.samples.ginestra.demo import battle_records


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Campaign, Served, Path]]:
    folder = tmp_path_factory.mktemp("web")
    campaign = ginestra(folder)
    served = serve(campaign)
    try:
        yield campaign, served, folder
    finally:
        assert stop(served) == 0


def _pages(served: Served, campaign: Campaign) -> dict[str, Page]:
    pages = {}
    for who in (*SIDES, "referee"):
        page = Page(served.url)
        page.log_in(campaign.tokens[who])
        assert page.last.status_code == 200, page.last.text
        pages[who] = page
    return pages


def _events(page: Page, cid: str) -> str:
    """Every event the side's live feed sends from the start, until it goes quiet."""
    seen = []
    try:
        with page.http.stream("GET", f"/c/{cid}/events?after=0", timeout=3) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            for line in stream.iter_lines():
                seen.append(line)
    except httpx.ReadTimeout:
        pass
    assert any(line.startswith("id: ") for line in seen), "the feed sent no event"
    return "\n".join(seen)


def _secrets(db: str, side: str) -> set[str]:
    """What ``side`` must never read: the other side's unsighted formations, and the units and
    people of the other side's formations outside the battle both fought."""
    from mekref.daemon.campaigns import CampaignRunner
    from mekref.daemon.store import open_store

    with open_store(db) as store:
        state = CampaignRunner(store).load(store.list_campaigns()[0].id).state
    s = state.strategic
    sighted = {x.formation_id for x in s.sightings.get(side, ())}
    fought = {f for e in s.engagements if side in e.sides for f in e.formations}
    out: set[str] = set()
    for f in s.formations.values():
        if f.side_id == side or f.formation_id in fought:
            continue
        if f.formation_id not in sighted:
            out.add(f.formation_id)
        for unit_id in f.unit_ids:
            out.add(unit_id)
            out.update(state.people[p].name for p in state.units[unit_id].crew)
    return out


def _scan(page: Page, campaign: Campaign, side: str) -> None:
    cid = campaign.cid
    texts = {}
    for path in ("/", f"/c/{cid}", f"/c/{cid}/map.svg", f"/c/{cid}/export/{ENGAGEMENT}/mul",
                 f"/c/{cid}/export/{ENGAGEMENT}/sheet"):  # fmt: skip
        response = page.get(path)
        assert response.status_code == 200, (path, response.text[:300])
        texts[path] = response.text
    texts["events"] = _events(page, cid)
    secrets = _secrets(campaign.db, side)
    assert secrets, "nothing to keep secret: the scenario changed"
    for where, text in texts.items():
        for secret in secrets:
            assert not re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text), (
                f"{side} reads the enemy's {secret!r} in {where}"
            )


def test_a_played_day_leaks_nothing_to_either_side(played: tuple[Campaign, Served, Path]) -> None:
    campaign, served, folder = played
    cid = campaign.cid
    pages = _pages(served, campaign)
    forms = {side: pages[side].get(f"/c/{cid}").text for side in SIDES}
    in_orbit = forms["rebel"].split('id="form-bravo"')[1].split("</form>")[0]
    on_ground = forms["loyalist"].split('id="form-alpha"')[1].split("</form>")[0]
    assert 'value="orbital_insertion"' in in_orbit and 'value="achieve_orbit"' not in in_orbit
    assert 'value="achieve_orbit"' in on_ground and 'value="orbital_insertion"' not in on_ground
    for side in SIDES:
        said = give_orders(pages[side], cid, side)
        assert [kind for kind, _ in said] == ["ok"] * len(said), said
    desk = pages["referee"]
    desk.get(f"/c/{cid}")
    assert "l-militia" in desk.last.text and "bravo" in desk.last.text  # orders as they come
    desk.post(f"/c/{cid}/resolve", {"day": "1"})
    assert desk.flashes()[0][0] == "ok", desk.flashes()
    for side in SIDES:
        got = pages[side].get(f"/c/{cid}/export/{ENGAGEMENT}/mul")
        assert got.status_code == 200
        (folder / f"{ENGAGEMENT}-{side}.mul").write_bytes(got.content)
    records = dict(zip(SIDES, battle_records(folder, ENGAGEMENT), strict=True))
    for side in SIDES:
        path = records[side]
        pages[side].post(f"/c/{cid}/upload", {}, files={"file": (path.name, path.read_bytes())})
        assert pages[side].flashes()[0][0] == "ok", pages[side].flashes()
        assert "applied" in pages[side].flashes()[0][1]
    desk.get(f"/c/{cid}")
    assert "who holds the field" in desk.last.text
    battle = re.search(r'name="battle_id" value="([^"]+)"', desk.last.text)
    assert battle is not None
    desk.post(f"/c/{cid}/control", {"battle_id": battle.group(1), "side_id": "loyalist",
                                    "reason": "they hold the Facility"})  # fmt: skip
    assert "No battle waiting" in desk.last.text, desk.flashes()
    overrides = desk.last.text[desk.last.text.index('id="overrides"') :]
    assert "they hold the Facility" in overrides.split("</section>")[0]
    loyal = pages["loyalist"]
    loyal.get(f"/c/{cid}")
    loyal.post(f"/c/{cid}/route", {"formation_id": "l-militia", "to_hex": "0610"})
    [(kind, said)] = loyal.flashes()
    assert kind == "ok" and "0609 to 0610" in said and "today's order: move 0610" in said, said
    loyal.post(f"/c/{cid}/route", {"formation_id": "bravo", "to_hex": "0610"})
    assert loyal.flashes()[0][0] == "refused"  # the enemy's formation: the rules' answer
    for side in SIDES:
        _scan(pages[side], campaign, side)


def test_pages_refuse_the_other_side_and_the_referees_work(
    played: tuple[Campaign, Served, Path],
) -> None:
    campaign, served, _ = played
    cid = campaign.cid
    rebel = Page(served.url)
    rebel.log_in(campaign.tokens["rebel"])
    assert rebel.get(f"/c/{cid}/map.svg?side=loyalist").status_code == 403
    assert rebel.get(f"/c/{cid}/export/{ENGAGEMENT}/mul?side=loyalist").status_code == 403
    rebel.get(f"/c/{cid}")
    rebel.post(f"/c/{cid}/orders", {"side_id": "loyalist", "day": "1", "formation_id": "alpha",
                                    "action": "guard"})  # fmt: skip
    assert rebel.flashes() == [("refused", "alpha: this token acts for another side")]
    rebel.post(f"/c/{cid}/resolve", {"day": "2"})
    assert rebel.flashes() == [("refused", "day 2: only the referee may do this")]
    rebel.post(f"/c/{cid}/control", {"battle_id": "battle-x", "side_id": "rebel"})
    assert rebel.flashes() == [("refused", "battle battle-x: only the referee may do this")]
    other = "00000000-0000-4000-8000-000000000000"
    assert rebel.get(f"/c/{other}").status_code == 403  # exists or not: the same answer


def test_forms_cookies_headers_and_limits(played: tuple[Campaign, Served, Path]) -> None:
    campaign, served, _ = played
    cid = campaign.cid
    page = Page(served.url)
    headers = page.last.headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "unsafe-inline" not in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    cookie = headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    page.log_in(campaign.tokens["loyalist"])
    order = {"csrf": "forged", "day": "1", "formation_id": "alpha", "action": "guard"}
    forged = page.http.post(f"/c/{cid}/orders", data=order)
    assert forged.status_code == 403 and "stale or from another site" in forged.text
    page.get(f"/c/{cid}")
    huge = b"<unit>" + b" " * (9 * 1024 * 1024)
    response = page.post(f"/c/{cid}/upload", {}, files={"file": ("big.mul", huge)})
    assert response.status_code == 413, response.text[:300]


def test_a_revoked_token_logs_the_page_out(played: tuple[Campaign, Served, Path]) -> None:
    from mekref.daemon.grpc.tokens import Role, TokenStore
    from mekref.daemon.store import open_store

    campaign, served, _ = played
    with open_store(campaign.db) as store:
        issued = TokenStore(store).issue(Role.SIDE, campaign_id=campaign.cid, side_id="rebel")
    page = Page(served.url)
    page.log_in(issued.secret)
    assert page.get(f"/c/{campaign.cid}").url.path == f"/c/{campaign.cid}"
    with open_store(campaign.db) as store:
        assert TokenStore(store).revoke(issued.principal.token_id)
    time.sleep(5.5)  # the authenticator trusts a looked-up token for 5 s, as on the API
    assert page.get(f"/c/{campaign.cid}").url.path == "/login"
    wrong = Page(served.url)
    assert wrong.log_in("mkr_000000000000_not-a-token").status_code == 401


def test_the_referee_sees_the_whole_map_and_a_side_its_own(
    played: tuple[Campaign, Served, Path],
) -> None:
    campaign, served, _ = played
    cid = campaign.cid
    referee = Page(served.url)
    referee.log_in(campaign.tokens["referee"])
    desk = referee.get(f"/c/{cid}").text
    assert f'href="/c/{cid}/map.svg"' in desk
    whole = referee.get(f"/c/{cid}/map.svg")
    assert whole.status_code == 200 and "referee: every side" in whole.text
    rebel = Page(served.url)
    rebel.log_in(campaign.tokens["rebel"])
    own = rebel.get(f"/c/{cid}/map.svg")
    assert own.status_code == 200 and "referee: every side" not in own.text
    # The whole map holds formations the rebels' own never shows (fog kept for a side).
    hidden = {m for m in re.findall(r"<title>\d+\. ([^<]+?),", whole.text)} - {
        m for m in re.findall(r"<title>\d+\. ([^<]+?),", own.text)
    }
    assert hidden, "the loyalists' unsighted formations are on the referee's map only"
