"""The arena's figures: seeds from a held-apart range, each from every seat; intervals, budget figures, and the
per-game lines of a run cut short summed up again (``bench/arena_log.py``)."""

from __future__ import annotations

from bench import arena, arena_log


def test_each_seed_of_the_range_is_played_from_every_seat():
    assert [arena.game_seed(g, 2, 880_000) for g in range(6)] == [880_000, 880_000, 880_001, 880_001, 880_002,
                                                                    880_002]
    assert arena.HELD_APART_SEED0 != arena.TUNING_SEED0 and arena.SEED0 == arena.TUNING_SEED0


def test_wilson_interval_and_budget_figures():
    low, high = arena.wilson(8, 14)
    assert 0.32 < low < 0.34 and 0.78 < high < 0.80  # the 57% (8 of 14): 33-79%
    assert arena.wilson(40, 40)[1] == 1.0 and arena.wilson(0, 40)[0] == 0.0
    times = [0.5] * 98 + [2.0, 3.5]
    f = arena.budget_figures(times)
    assert f["decisions"] == 100 and f["p99"] == 2.0 and f["max"] == 3.5 and f["over_2_5"] == 1
    assert abs(f["mean"] - (0.5 * 98 + 5.5) / 100) < 1e-9


def test_a_run_cut_short_is_summed_up_from_its_lines(tmp_path, capsys):
    lines = ["AI arena: ...",
             "  troja hard-normal game 0: seed 880000 seat 0 score 1; 3 decisions, CPU s mean 1.00 max 2.00; "
             "times 0.50 0.50 2.00",
             "  troja hard-normal game 1: seed 880000 seat 1 score 0.5; 2 decisions, CPU s mean 0.50 max 0.60; "
             "times 0.40 0.60",
             "  kivalasztottak hard-normal game 0: seed 880000 seat 0 score 0; 5 decisions, CPU s mean 0.20 max "
             "0.30",  # an older line without the times: its score still counts
             "troja hard-normal 75% (1.5 of 2) ..."]
    first = tmp_path / "a.log"
    first.write_text("\n".join(lines) + "\n")
    again = tmp_path / "b.log"  # the same game in a second log counts once
    again.write_text(lines[1] + "\n")
    assert arena_log.main([str(first), str(again)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("kivalasztottak") and "0% (0 of 1)" in out[0] and "CPU" not in out[0]
    assert out[1].startswith("troja") and "75% (1.5 of 2)" in out[1] and "seeds 880000-880000" in out[1]
    assert "mean 0.80 p99 2.00 max 2.00, 0 of 5 over 2.5 s" in out[1]
