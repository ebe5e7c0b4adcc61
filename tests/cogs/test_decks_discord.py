"""/deck through Discord only (issue 26): players build their own Kiválasztottak decks by text and by selects,
see why a deck is not playable yet, share it as a code, choose it for their games, and a game starts with it."""

from __future__ import annotations

from engines import ENGINES
from engines.kivalasztottak import decks as D
from tests.discord_harness import components

ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222
ENGINE = ENGINES["kivalasztottak"]
RESERVE_14 = "Reserve:\n3 Axe Blow\n3 Throwing Spear\n2 Ugra Bearthroat\n3 Clan Warrior\n2 Refuge\n1 Full Moon"


def replies(h, before: int) -> list[dict]:
    return [m for m in list(h.fake.messages.values())[before:] if m["flags"] & 64]


def control(message: dict, prefix: str) -> dict:
    return next(c for c in components(message) if c["custom_id"].startswith(prefix))


async def new_deck(h, name="Bears", start="medveklan") -> dict:
    before = len(h.fake.messages)
    await h.slash(ANN, "deck new", name="Ann", deck=name, start=start)
    return replies(h, before)[-1]


async def test_a_deck_is_made_shown_as_a_picture_and_listed_with_its_code(harness):
    h = harness
    reply = await new_deck(h)
    assert "Deck **Bears** made." in reply["content"] and "47 cards, reserve deck 0" in reply["content"]
    assert "✓ Playable" in reply["content"] and reply["attachments"][0]["filename"] == "deck.png"
    code = D.encode(D.presets()["medveklan"])
    assert code in reply["content"]
    before = len(h.fake.messages)
    await h.slash(ANN, "deck list", name="Ann")
    listed = replies(h, before)[-1]["content"]
    assert "✓ **Bears** — 47 cards, reserve 0" in listed and code in listed
    # the same name again is refused (names are compared without case and accents)
    before = len(h.fake.messages)
    await h.slash(ANN, "deck new", name="Ann", deck="BEARS")
    assert "already have a deck called Bears" in replies(h, before)[-1]["content"]
    # another player has none of Ann's decks
    before = len(h.fake.messages)
    await h.slash(BOB, "deck show", name="Bob", deck="Bears")
    assert "You have no deck called Bears" in replies(h, before)[-1]["content"]
    # a starter deck is shown by its name too, and a code copies a deck
    before = len(h.fake.messages)
    await h.slash(BOB, "deck new", name="Bob", deck="Copy", start=code)
    assert "47 cards" in replies(h, before)[-1]["content"]
    h.assert_no_errors()


async def test_the_text_form_reads_a_pasted_list_and_says_why_a_deck_is_not_playable(harness):
    h = harness
    await new_deck(h)
    sent = len(h.fake.sent)
    await h.slash(ANN, "deck edit", name="Ann", deck="bears")
    (form,) = h.modals(sent)
    text_input = form["components"][0]["components"][0]
    assert form["custom_id"].startswith("gh:dkm:") and "3 Clan Warrior" in text_input["value"]
    # a reserve of 14: saved (a deck is built over several edits) but not playable, with the book's reason
    before = len(h.fake.messages)
    await h.submit(ANN, form["custom_id"], {"text": text_input["value"] + "\n" + RESERVE_14})
    reply = replies(h, before)[-1]["content"]
    assert "Deck **Bears** saved." in reply and "reserve deck 14" in reply
    assert "✗ The reserve deck (Cserepakli) has 14 cards: the book wants exactly 0 or 15." in reply
    # lines that name no card: nothing is changed, and the lines are given back
    before = len(h.fake.messages)
    await h.submit(ANN, form["custom_id"], {"text": "3 Hunter\n2 Dragons\nReserve:\n15 Griffins"})
    reply = replies(h, before)[-1]["content"]
    assert reply.startswith("Nothing was saved") and "line 2: 2 Dragons" in reply and "line 4: 15 Griffins" in reply
    deck = await h.bot.service.decks.get(ANN, "Bears", "en")
    assert deck.reserve_size == 14 and deck.size == 47
    # /deck use refuses a deck that breaks the rules, with the reasons
    before = len(h.fake.messages)
    await h.slash(ANN, "deck use", name="Ann", deck="Bears")
    assert "Bears cannot be played yet: The reserve deck" in replies(h, before)[-1]["content"]
    h.assert_no_errors()


async def test_the_card_editor_adds_a_card_to_the_reserve_and_the_deck_becomes_playable(harness):
    h = harness
    await new_deck(h)
    sent = len(h.fake.sent)
    await h.slash(ANN, "deck edit", name="Ann", deck="Bears")
    (form,) = h.modals(sent)
    await h.submit(ANN, form["custom_id"], {"text": form["components"][0]["components"][0]["value"] + "\n"
                                            + RESERVE_14})
    panel = [m for m in h.fake.messages.values() if m["flags"] & 64 and components(m)][-1]
    # a card type, then a card, then one copy more in the reserve deck
    types = control(panel, "gh:dk:t:")
    await h.click(ANN, panel, types["custom_id"], values=["event"])
    panel = h.fake.messages[int(panel["id"])]
    cards = control(panel, "gh:dk:c:")
    moon = next(o for o in cards["options"] if o["label"] == "Full Moon")
    assert moon["description"] == "deck 2 · reserve 1"
    await h.click(ANN, panel, cards["custom_id"], values=["telihold"])
    panel = h.fake.messages[int(panel["id"])]
    plus = control(panel, "gh:dk:+r:")
    await h.click(ANN, panel, plus["custom_id"])
    panel = h.fake.messages[int(panel["id"])]
    assert "reserve deck 15" in panel["content"] and "✓ Playable" in panel["content"]
    deck = await h.bot.service.decks.get(ANN, "Bears", "en")
    assert ["telihold", 2] in deck.spec["reserve"] and not deck.problems
    # Bob cannot edit Ann's deck with a control made for it
    before = len(h.fake.messages)
    await h.click(BOB, panel, plus["custom_id"])
    assert "not there any more" in replies(h, before)[-1]["content"]
    assert (await h.bot.service.decks.get(ANN, "Bears", "en")).spec == deck.spec
    h.assert_no_errors()


async def test_a_chosen_deck_is_played_and_a_game_can_name_a_deck_or_a_code(harness):
    h = harness
    await new_deck(h)
    deck = await h.bot.service.decks.get(ANN, "Bears", "en")
    spec = {"cards": deck.spec["cards"] + [["futargalamb", 2]], "reserve": D.normalise(
        {"name": "x", "cards": [], "reserve": [["bardcsapas", 3], ["dobolandzsa", 3], ["ugra", 2],
                                               ["klanharcos", 3], ["menedek", 2], ["telihold", 2]]})["reserve"]}
    await h.bot.service.decks.save(ANN, "Bears", spec, "en")
    before = len(h.fake.messages)
    await h.slash(ANN, "deck use", name="Ann", deck="bears")
    assert "now use **Bears**" in replies(h, before)[-1]["content"]
    # suggestions while typing: her decks, then the starters
    choices = await h.autocomplete(ANN, "kivalasztottak new", "deck", deck="be")
    assert [c["value"] for c in choices][:2] == ["Bears", "medveklan"]
    # a game against the AI naming no deck: Ann plays Bears, with its reserve deck
    await h.slash(ANN, "kivalasztottak new", name="Ann", opponent="ai")
    game = await h.bot.service.store.get_game(1)
    state = ENGINE.from_json(game.snapshot)
    assert state["p"][0]["deck_name"] == "Bears" and len(state["p"][0]["reserve"]) == 15
    assert state["p"][1]["deck"] == "medveklan"  # the seat's starter when the other plays its own
    assert game.options["engine"]["decks"][0]["name"] == "Bears", "the game keeps the deck it was dealt with"
    # a deck code names a deck too; a name that is no deck is refused and opens nothing
    code = D.encode(D.presets()["vadaszhaz"])
    await h.slash(ANN, "kivalasztottak new", name="Ann", opponent="ai", deck=code, opponent_deck="medveklan")
    state = ENGINE.from_json((await h.bot.service.store.get_game(2)).snapshot)
    assert sum(len(state["p"][0][z]) for z in ("future", "hand", "towers", "omen")) == 50
    before = len(h.fake.messages)
    await h.slash(ANN, "kivalasztottak new", name="Ann", opponent="ai", deck="dragons")
    assert "You have no deck called dragons" in replies(h, before)[-1]["content"]
    assert await h.bot.service.store.get_game(3) is None
    h.assert_no_errors()


async def test_deleting_a_deck_and_the_joiner_plays_their_own_chosen_deck(harness):
    h = harness
    await new_deck(h, "Hunters", "vadaszhaz")
    await h.bot.service.decks.choose(ANN, "Hunters", "en")
    await h.bot.service.decks.save(BOB, "Bob's bears", D.presets()["medveklan"], "en")
    await h.bot.service.decks.choose(BOB, "Bob's bears", "en")
    await h.slash(ANN, "kivalasztottak new", name="Ann")
    thread = [cid for cid, c in h.fake.channels.items() if c["type"] == 11][-1]
    lobby = h.messages_in(thread)[0]
    join = next(c for c in components(lobby) if c.get("label") == "Join")
    await h.click(BOB, lobby, join["custom_id"], name="Bob")
    state = ENGINE.from_json((await h.bot.service.store.get_game(1)).snapshot)
    assert [p.get("deck_name") for p in state["p"]] == ["Hunters", "Bob's bears"]
    before = len(h.fake.messages)
    await h.slash(ANN, "deck delete", name="Ann", deck="hunters")
    assert "Deck **Hunters** deleted." in replies(h, before)[-1]["content"]
    assert await h.bot.service.decks.chosen(ANN) is None
    h.assert_no_errors()
