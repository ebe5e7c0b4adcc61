"""A DM's hand (issue 25: at most a board and a changed hand uploaded per person turn), through the real discord.py
dispatch against the recording fake Discord.

Every DM of whole games is checked against the game as stored when it went out: a DM asking for a decision
either uploads the hand picture, when something came into the hand that the last picture DMed did not show, or
lists the whole hand now in words (its cards, and what the picture adds: the colours scoring now, the cards
playable now) - never another player's cards, never a stale list. Ave Caesar's DM has no picture at all: its
hand and destinations in words (tests/cogs/test_ave_caesar_dm_words.py). No DM goes out once the game is over."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bench import thread as bench_thread
from cogs import publish
from engines import ENGINES
from engines.rng import Rng
from host.presenters import presenter_for
from tests.cogs.driver import DmLog, boards, to_act
from tests.cogs.test_one_board_per_turn import decide, open_game, thread_posts

ANN, BOB = 10_001, 10_002
ASKS = "Your turn in game"
LISTED = "🃏 **Your hand now:**"


async def play_checking_dm_hands(h, command: str, ai: bool, rng: Rng, limit: int = 400) -> dict:
    """Open a game and play it to the end from the DMs; after every decision, check each DM that went out against
    the stored game: a picture only when the hand holds a card the last picture did not show, else the hand now
    in words."""
    store = h.bot.service.store
    log = DmLog(h.fake)
    thread = await open_game(h, command, ai)
    first = log.entries[0]
    assert first[4] or LISTED in first[3], "the first DM shows the hand"
    pictured: dict[int, tuple[str, ...]] = {}
    seen: Counter[str] = Counter()
    checked = 0
    for step in range(limit + 1):
        if step:  # (the first round checks the DMs of the game's start)
            if (await store.get_game(1, with_snapshot=False)).status != "running":
                break
            await decide(h, thread, rng, to_act(boards(h, thread)[-1])[0], prefer_dm=True)
        since, checked = checked, len(log.entries)
        game = await store.get_game(1)
        engine, presenter = ENGINES[game.engine], presenter_for(game.engine)
        state = engine.from_json(game.snapshot)
        batch = log.entries[since:]
        last_of = {entry[2]: i for i, entry in enumerate(batch)}
        for i, (user, kind, mid, content, files) in enumerate(batch):
            if game.status != "running":
                assert kind == "edit" and not files and ASKS not in content, "a DM once the game was over"
                seen["spent at the end"] += 1
                continue
            if ASKS not in content:  # a spent DM ("Done: ..."): no picture
                assert not files
                continue
            hand = presenter.hand(engine.view(state, game.seat_of(user)))
            assert hand is not None
            if files:
                assert list(files) == ["hand-1.png"]
                # something new came in (or nothing was shown yet), so the words would not do
                assert user not in pictured or Counter(hand.items) - Counter(pictured[user])
                pictured[user] = hand.items
                seen["picture"] += 1
                continue
            # no picture: the whole hand now in words, the player's own, with nothing the picture above lacks
            assert "\n" + publish.hand_words(hand) + "\nGame thread: " in content, content
            assert not Counter(hand.items) - Counter(pictured.get(user, ())), "a card that was never pictured"
            seen["words"] += 1
            if kind == "edit" and last_of[mid] == i:
                # the picture the DM carried showed cards since played: the update took it away
                assert not h.fake.messages[mid]["attachments"], "a stale hand picture left above the words"
                seen["stale picture taken away"] += 1
            if kind == "post" and hand.items and len(hand.items) < len(pictured.get(user, ())):
                seen["new turn, only lost cards"] += 1
            if not hand.items:
                seen["empty"] += 1
    assert (await store.get_game(1, with_snapshot=False)).status == "finished"
    # no hand goes to the thread: the words are in DMs only
    assert not any(LISTED in m["content"] for m in thread_posts(h, thread))
    return seen


async def test_hector_and_achilles_dms_list_the_hand_when_it_only_lost_cards(harness):
    """Between two people, from their DMs: at a new turn whose hand only lost the card the player played, the DM
    has no picture and lists the hand (cards, hero, the colours scoring now); the empty hand before a battle's
    cards are drawn is said in words, not drawn; a hand with a new card in it is a picture."""
    h = harness
    seen = await play_checking_dm_hands(h, "hector-achilles new", False, Rng(5))
    assert seen["picture"] >= 3 and seen["new turn, only lost cards"] >= 3 and seen["empty"] >= 2, seen
    assert seen["stale picture taken away"] >= 1, seen
    h.assert_no_errors()


async def test_troja_dms_list_the_hand_against_the_ai(harness):
    """Troja against the AI, from the DM: the cards by name and kind, and those playable now."""
    h = harness
    seen = await play_checking_dm_hands(h, "troja new", True, Rng(2))
    assert seen["picture"] >= 1 and seen["words"] >= 3, seen
    h.assert_no_errors()


async def test_a_hand_in_words_names_the_scoring_colours_and_the_hero(harness):
    """What a Hector and Achilles DM says of the hand in words, as a player reads it."""
    h = harness
    log = DmLog(h.fake)
    thread = await open_game(h, "hector-achilles new", True)
    rng = Rng(7)
    for _ in range(60):
        if any(kind == "post" and not files and "hero" in content and "Scoring for you now:" in content
               for _, kind, _, content, files in log.entries):
            break
        await decide(h, thread, rng, to_act(boards(h, thread)[-1])[0], prefer_dm=True)
    listed = next(content for _, kind, _, content, files in log.entries
                  if kind == "post" and not files and "hero" in content and "Scoring for you now:" in content)
    line = listed.split("\n")[-2]  # (under what is asked, above the link to the thread)
    assert re.fullmatch(r"🃏 \*\*Your hand now:\*\* (?:[🟥🟩🟦🟨🟪🟫] \w+ \d \(\w+\), )*hero \w+ \(\w+ \d\)\. "
                        r"Scoring for you now: \w+(?:, \w+)*\.", line), line
    h.assert_no_errors()


@pytest.mark.parametrize("command,options", [("hector-achilles new", {}), ("ave-caesar new", {"players": 2,
                                                                                             "races": 1})])
async def test_the_game_over_sends_no_dm_and_no_hand(harness, command, options):
    """The last decision of a game: its board is the last word; no DM (and so no hand picture) goes out, the
    DM clicked in is spent (no controls, no picture)."""
    h = harness
    log = DmLog(h.fake)
    thread = await open_game(h, command, True, **options)
    rng = Rng(3)
    store = h.bot.service.store
    for _ in range(400):
        since = len(log.entries)
        await decide(h, thread, rng, to_act(boards(h, thread)[-1])[0], prefer_dm=True)
        if (await store.get_game(1, with_snapshot=False)).status != "running":
            break
    last = log.entries[since:]
    assert all(kind == "edit" and not files and ASKS not in content for _, kind, _, content, files in last), last
    assert "Game over" in thread_posts(h, thread)[-1]["content"]
    h.assert_no_errors()


@pytest.mark.parametrize("ai", [True, False])
async def test_hector_and_achilles_uploads_at_most_two_pictures_per_person_turn(ai):
    """Issue 25's pictures target, with nothing left over for the last board: a whole Hector and Achilles game
    (bench/thread.py's clicker and counting) uploads at most a board and a hand per person turn."""
    figures = await bench_thread.play("hector-achilles new", "hector-achilles new", {}, ai, seed=11, limit=1500)
    assert figures["finished"], figures
    assert figures["pictures"] <= 2 * figures["person_turns"], figures
    # (the hand pictures that are left are those of new cards: a battle's hand drawn, a swap)
    assert figures["pictures_by_kind"].get("dm post: hand", 0) < figures["person_turns"] // 2, figures
