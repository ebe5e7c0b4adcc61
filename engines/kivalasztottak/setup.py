"""Setting up a game (rulebook: "Előkészületek"): options and decks checked, the Future shuffled, towers and
the omen put out, the first player drawn, hands dealt; the players then order their towers.
"""

from __future__ import annotations

from typing import Any

from engines.rng import Rng

from . import decks as D
from . import state as S
from .cards import HAND_SIZE, START_MP, card_defs, default_decks

DEFAULT_ROUND_LIMIT = 60


def new_game(rules_version: int, num_players: int, seed: int, options: dict | None = None) -> dict:
    """A new game: options checked, decks shuffled, towers and omens placed, hands dealt, first player drawn."""
    options = dict(options or {})
    if num_players != 2:
        raise ValueError("Kiválasztottak is a game for exactly 2 players.")
    unknown = set(options) - {"decks", "round_limit"}
    if unknown:
        raise ValueError(f"Unknown option(s): {', '.join(sorted(unknown))}. Known: decks, round_limit.")
    decks = options.get("decks", default_decks())
    if not isinstance(decks, list) or len(decks) != 2:
        raise ValueError(f"decks must be a list of two decks (preset ids from {list(D.presets())} or "
                         "decks of {name, cards, reserve}).")
    decks = D.complete(decks)  # None: no deck named for that seat (see decks.complete)
    specs = [D.spec_of(d) for d in decks]
    limit = options.get("round_limit", DEFAULT_ROUND_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise ValueError("round_limit must be a whole number >= 0 (0 = no limit).")
    for seat, spec in enumerate(specs):
        problems = D.problems(spec)
        if problems:
            raise ValueError(f"Deck {seat + 1} ({spec['name']}): " + " ".join(map(D.describe, problems)))
    rng = Rng(seed)
    st: dict = {
        "rules_version": rules_version, "options": {"decks": list(decks), "round_limit": limit},
        "cards": {}, "p": [], "round": 0, "stage": "towers", "thread": None, "prio": None, "passes": 0,
        "maneuver": None, "pending": [], "trig": [], "used_thread": [], "thread_quests": [], "victorious": [],
        "free_maneuver": None, "beast": None, "clock": 0, "last_acted": [0, 0], "result": None, "last": [],
        "uid": 0, "tokens": 0, "adjusted_once": False,
    }
    defs = card_defs()
    for seat, deck in enumerate(decks):
        p: dict[str, Any] = {z: [] for z in S.LIST_ZONES}
        p.update({"mp": 0, "mulligans": 0, "kept": False, "towers_set": False, "used_round": [],
                  "omen_due": False, "deck": deck if isinstance(deck, str) else "custom"})
        if not isinstance(deck, str):
            p["deck_name"] = specs[seat]["name"]
        st["p"].append(p)
        keys = D.expand(specs[seat]["cards"])
        rng.shuffle(keys)  # ids carry no information about the card
        for i, key in enumerate(keys):
            cid = f"KV{seat}-{i:02d}"
            st["cards"][cid] = S.new_card(cid, key, seat, "future")
            p["future"].append(cid)
        reserve = D.expand(specs[seat]["reserve"])
        if reserve:  # the Cserepakli: face down aside, known only to its player, searched by effects
            rng.shuffle(reserve)
            for i, key in enumerate(reserve, len(keys)):
                cid = f"KV{seat}-{i:02d}"
                st["cards"][cid] = S.new_card(cid, key, seat, "reserve")
                p["reserve"].append(cid)
    first = rng.below(2)  # "decide who starts, e.g. by a die roll"
    st["first"] = first
    st["last_acted"] = [0, 0]
    st["last_acted"][first] = -2  # the first player counts as having acted longer ago
    st["last_acted"][1 - first] = -1
    for seat in range(2):
        p = st["p"][seat]
        for cid in list(p["future"]):
            t = defs[st["cards"][cid]["k"]]["type"]
            if t == "tower":
                S.move(st, cid, "towers", seat)
                st["cards"][cid]["up"] = False
            elif t == "omen":
                S.move(st, cid, "omen", seat)
                st["cards"][cid]["op"] = defs[st["cards"][cid]["k"]]["op"]
                p["omen_due"] = True
        rng.shuffle(p["future"])
        p["mp"] = START_MP
        for _ in range(HAND_SIZE):
            S.move(st, p["future"][-1], "hand", seat)
    st["rng"] = rng.state
    st["pending"] = [{"kind": "tower_order", "seat": s, "simul": True} for s in range(2)]
    return st
