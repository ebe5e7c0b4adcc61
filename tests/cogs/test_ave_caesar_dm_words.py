"""Ave Caesar's turn DM in words (issue 25 item 2), through the real discord.py dispatch against the recording fake
Discord: no picture by default; the chariot's cards listed; each destination said in words a player finds on the
public board (lane, curve, Caesar's alley, the chariot beside or behind) with the number of the track picture; the
numbered track picture on request (🖼️ Track picture), the clicking player's own only; whole games within two
pictures per person turn."""

from __future__ import annotations

import re

import pytest

from bench import thread as bench_thread
from cogs import publish
from engines import ENGINES
from engines.ave_caesar.track import get_track
from engines.rng import Rng
from host.presenters import presenter_for
from tests.cogs.driver import DmLog, boards, to_act
from tests.cogs.test_hector_achilles_discord import ANN, BOB
from tests.cogs.test_one_board_per_turn import decide, open_game, thread_posts
from tests.discord_harness import components

ENGINE = ENGINES["ave-caesar"]
PRESENTER = presenter_for("ave-caesar")
ASKS = "Your turn in game"
LISTED = "🃏 **Your hand now:**"
LABEL = re.compile(r"^(\d) → (\d+): (.+)$")
LANE_WORDS = {0: "inner lane", 1: "middle lane", 2: "outer lane"}


async def stored(h):
    game = await h.bot.service.store.get_game(1)
    return game, ENGINE.from_json(game.snapshot)


def picture_button(message: dict) -> dict:
    return next(c for c in components(message) if c.get("label") == "Track picture")


def destination_labels(message: dict) -> list[str]:
    """The move buttons and select options of a panel (a card's destinations, or a card's only move)."""
    out = []
    for c in components(message):
        if c["custom_id"].startswith("gh:a:"):
            out.append(c["label"])
        elif c["custom_id"].startswith("gh:s:"):
            out += [o["label"] for o in c["options"]]
    return out


def check_words(view: dict, card: int, n: int, words: str) -> None:
    """The words of destination ``n`` of ``card`` say its lane (or Caesar's alley) and whether it is a curve, as
    the public board shows that space."""
    to = next(c["to"] for c in view["choices"] if c["n"] == n)
    assert any(a["card"] == card and a["to"] == to for a in view["legal"]), (card, n)
    space = get_track(view["track"], view["direction"], view.get("track_version")).spaces[to]
    if space["sec"] == "alley":
        assert words.startswith("Caesar's alley"), words
        return
    assert words.startswith(LANE_WORDS[space["lane"]]), words
    assert ("curve" in words.split(" (")[0]) == (space["sec"] in ("east", "west")), words


async def test_a_turn_dm_has_no_picture_but_the_cards_and_destinations_in_words(harness):
    """Against the AI: Ann's DM uploads nothing; it lists her chariot's cards; opening each card in the DM shows
    that card's destinations, exactly the legal moves, each in words with its number; the Track picture button
    stays on the DM."""
    h = harness
    log = DmLog(h.fake)
    await open_game(h, "ave-caesar new", True, players=2, races=1)
    game, state = await stored(h)
    view = ENGINE.view(state, 0)
    dm = next(m for m in h.dm_messages(ANN) if ASKS in m["content"])
    assert not dm["attachments"] and not any(files for *_, files in log.entries)
    hand = PRESENTER.hand(view)
    mine = next(x for x in view["hands"] if x["chariot"] == view["turn"])
    assert hand is not None and list(hand.items) == [str(v) for v in sorted(c["value"] for c in mine["cards"])]
    assert "\n" + publish.hand_words(hand) + "\n" in dm["content"]
    assert re.search(r"🃏 \*\*Your hand now:\*\* \d(, \d)*\. \(chariot \w+\)", dm["content"]), dm["content"]
    assert "picture" not in dm["content"].split("\n")[0]  # what is asked never points at a picture
    assert picture_button(dm)["custom_id"] == "gh:h:1"
    expected = {(a["card"], next(c["n"] for c in view["choices"] if c["to"] == a["to"])) for a in view["legal"]}
    seen = set()
    for card_button in [c for c in components(dm) if c["custom_id"].startswith(("gh:gb:", "gh:a:"))]:
        if card_button["custom_id"].startswith("gh:gb:"):
            await h.click(ANN, dm, card_button["custom_id"])
            shown = h.fake.messages[int(dm["id"])]
            assert picture_button(shown), "the Track picture button stays while a card is open"
            labels = [x for x in destination_labels(shown) if not x.startswith("Card ")]
        else:  # a card with one destination is its own button
            labels = [card_button["label"]]
        for label in labels:
            found = LABEL.match(label)
            assert found, label
            card, n = int(found[1]), int(found[2])
            check_words(view, card, n, found[3])
            seen.add((card, n))
    assert seen == expected
    # the words of one card's destinations tell them apart
    words: dict[int, list[str]] = {}
    for i, a in enumerate(view["legal"]):
        found = LABEL.match(PRESENTER.describe(view, a, i).label)
        assert found is not None
        words.setdefault(a["card"], []).append(found[3])
    assert all(len(set(w)) == len(w) for w in words.values()), words
    h.assert_no_errors()


async def test_the_track_picture_on_request_is_the_clicking_players_own(harness):
    """Between two people: no DM carries a picture; Ann's 🖼️ Track picture answers with her private picture (her
    hand, her destinations numbered), drawn only then; the same button clicked by Bob shows Bob's, never Ann's."""
    h = harness
    await open_game(h, "ave-caesar new", False, players=2, races=1)
    game, state = await stored(h)
    asked = ENGINE.to_act(state)[0]
    user, other = (ANN, BOB) if asked == 0 else (BOB, ANN)
    dm = next(m for m in h.dm_messages(user) if ASKS in m["content"])
    assert not dm["attachments"]
    own = (await h.bot.service.private(1, user)).image
    theirs = (await h.bot.service.private(1, other)).image
    assert own and theirs and own != theirs
    before = len(h.fake.messages)
    await h.click(user, dm, picture_button(dm)["custom_id"])
    answers = [m for m in list(h.fake.messages.values())[before:] if m["attachments"]]
    assert len(answers) == 1 and answers[0]["attachments"][0]["filename"] == "hand-1.png"
    sent = next(s for s in reversed(h.fake.sent) if "hand-1.png" in s.files)
    assert sent.files["hand-1.png"] == own
    # the answer also carries the choices, numbered as on the picture
    assert destination_labels(answers[0]) or any(c["custom_id"].startswith("gh:gb:")
                                                 for c in components(answers[0]))
    before = len(h.fake.messages)
    await h.click(other, dm, picture_button(dm)["custom_id"])
    sent = next(s for s in reversed(h.fake.sent) if "hand-1.png" in s.files)
    assert sent.files["hand-1.png"] == theirs != own
    # nothing was played by looking
    assert (await stored(h))[0].version == game.version
    h.assert_no_errors()


async def test_dms_of_a_whole_race_between_people_say_the_hand_in_words(harness):
    """A whole race between two people from the DMs: every DM asking for a move (posted, or updated for the same
    player's next chariot) uploads nothing and lists the cards of the chariot it asks for, as stored then."""
    h = harness
    log = DmLog(h.fake)
    thread = await open_game(h, "ave-caesar new", False, players=2, races=1)
    store = h.bot.service.store
    rng = Rng(7)
    checked = asked = other_chariot = 0
    chariot = re.compile(r"move \*\*(\w+)\*\*")
    last_asked: dict[int, str] = {}
    text: dict[int, str] = {}  # DM -> its text (a card opened in it edits its buttons only: the text stays)
    for _ in range(400):
        game, state = await stored(h)
        for user, kind, message_id, content, files in log.entries[checked:]:
            assert not files, "an Ave Caesar DM uploaded a picture"
            same, text[message_id] = text.get(message_id) == content, content
            if ASKS not in content or game.status != "running" or same:
                continue
            hand = PRESENTER.hand(ENGINE.view(state, game.seat_of(user)))
            assert hand is not None and "\n" + publish.hand_words(hand) + "\n" in content, content
            asks = chariot.search(content)
            assert asks is not None, content
            label = asks[1]
            assert f"(chariot {label})" in content
            if kind == "edit" and last_asked.get(message_id) not in (None, label):
                other_chariot += 1
            last_asked[message_id] = label
            asked += 1
        checked = len(log.entries)
        if game.status != "running":
            break
        await decide(h, thread, rng, to_act(boards(h, thread)[-1])[0], prefer_dm=True)
    assert (await store.get_game(1, with_snapshot=False)).status == "finished"
    assert asked >= 20 and other_chariot >= 1, (asked, other_chariot)
    assert not any(LISTED in m["content"] for m in thread_posts(h, thread)), "a hand in the thread"
    assert not any("your picture" in m["content"] for m in thread_posts(h, thread))
    h.assert_no_errors()


@pytest.mark.parametrize("ai", [True, False])
async def test_ave_caesar_uploads_at_most_two_pictures_per_person_turn(ai):
    """Issue 25's pictures target for Ave Caesar (bench/thread.py's clicker and counting): a whole race uploads
    at most two pictures per person turn - the boards only, no DM picture."""
    figures = await bench_thread.play("Ave Caesar (1 race)", "ave-caesar new", {"players": 2, "races": 1}, ai,
                                      seed=11, limit=1500)
    assert figures["finished"], figures
    assert figures["pictures"] <= 2 * figures["person_turns"], figures
    assert not any(kind.startswith("dm") for kind in figures["pictures_by_kind"]), figures
