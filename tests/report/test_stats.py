"""Every statistic against values worked out by hand (the comments show the working)."""

import pytest

from webshootout.report import stats


def test_median_and_cv_exact():
    assert stats.median([3.0, 1.0, 2.0]) == 2.0
    assert stats.median([4.0, 1.0, 2.0, 3.0]) == 2.5
    assert stats.cv([10.0]) == 0.0
    # mean 10, sample stdev sqrt(((−1)² + 1²) / 1) = sqrt(2)
    assert stats.cv([9.0, 11.0]) == pytest.approx(2 ** 0.5 / 10)
    assert stats.cv([0.0, 0.0]) == 0.0


def test_three_trials_give_a_range_that_holds_the_median_75_percent_of_the_time():
    # The median escapes min-max only when all 3 fall on one side of it: 2 x (1/2)^3 = 1/4.
    assert stats.median_interval([3.0, 1.0, 2.0]) == stats.Interval(1.0, 3.0, "range", 0.75)
    # 5 trials: 1 - 2 x (1/2)^5 = 93.75 %, still short of 95 %.
    assert stats.median_interval([5.0, 1.0, 4.0, 2.0, 3.0]) == stats.Interval(1.0, 5.0, "range", 0.9375)
    assert stats.median_interval([7.0]) == stats.Interval(7.0, 7.0, "range", 0.0)


def test_six_or_more_trials_give_an_order_statistic_95_percent_interval():
    # n = 6, k = 1: 1 - 2/64 = 96.875 %; k = 2 would be 1 - 2 x 7/64 = 78 %.
    assert stats.median_interval([6.0, 1.0, 5.0, 2.0, 4.0, 3.0]) == stats.Interval(1.0, 6.0, "ci", 0.96875)
    # n = 10: k = 2 covers 1 - 2 x (1 + 10)/1024 = 97.85 %; k = 3 only 1 - 2 x 56/1024 = 89 %: x(2)..x(9).
    found = stats.median_interval([float(v) for v in (10, 1, 9, 2, 8, 3, 7, 4, 6, 5)])
    assert (found.low, found.high, found.kind) == (2.0, 9.0, "ci")
    assert found.coverage == pytest.approx(1 - 22 / 1024)
    # n = 20: k = 6 covers 1 - 2 x P(Bin(20, 1/2) <= 5) = 1 - 2 x 0.0207 = 95.86 %; k = 7 is 88.5 %.
    found = stats.median_interval([float(v) for v in range(1, 21)])
    assert (found.low, found.high, found.kind) == (6.0, 15.0, "ci")
    with pytest.raises(ValueError):
        stats.median_interval([])


def test_separation_chance_of_two_ranges():
    # 3 and 3 trials: of the C(6, 3) = 20 equally likely orders, 2 put one side wholly below the other.
    assert stats.separation_chance(3, 3) == pytest.approx(0.1)
    assert stats.separation_chance(5, 5) == pytest.approx(2 / 252)


def test_rank_with_ties_groups_against_the_leader():
    entries = [  # name, median, low, high
        ("a", 100.0, 95.0, 105.0),
        ("b", 98.0, 96.0, 99.0),     # reaches a's low (95): tied with a
        ("c", 94.0, 90.0, 96.0),     # 96 >= 95: tied with a as well
        ("d", 80.0, 78.0, 94.0),     # 94 < 95: starts a new group at position 4
        ("e", 79.0, 75.0, 85.0),     # reaches d's low (78): tied with d
        ("f", 50.0, 49.0, 51.0),
    ]
    ranked = stats.rank_with_ties(entries)
    assert [(r.name, r.rank, r.label) for r in ranked] == [
        ("a", 1, "=1st"), ("b", 1, "=1st"), ("c", 1, "=1st"), ("d", 4, "=4th"), ("e", 4, "=4th"), ("f", 6, "6th")]


def test_rank_with_ties_lower_is_better_for_latency():
    entries = [("slow", 9.0, 8.0, 10.0), ("fast", 2.0, 1.5, 2.5), ("near", 2.4, 2.2, 3.0), ("mid", 5.0, 4.0, 6.0)]
    ranked = stats.rank_with_ties(entries, higher_is_better=False)
    # near's low (2.2) reaches fast's high (2.5): tied; mid starts the next group.
    assert [(r.name, r.label) for r in ranked] == [("fast", "=1st"), ("near", "=1st"), ("mid", "3rd"),
                                                   ("slow", "4th")]


def test_ordinals():
    assert [stats.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_efficiency():
    assert stats.per_cpu_second(10_000.0, 50.0) == 20_000.0  # half a CPU busy serves 10k/s
    assert stats.per_cpu_second(10_000.0, 200.0) == 5_000.0
    assert stats.per_cpu_second(10_000.0, 0.0) is None
    assert stats.per_mb(10_000.0, 40.0) == 250.0
    assert stats.per_mb(10_000.0, 0.0) is None


def test_histograms_merge_by_summing_counts():
    one = [[100, 5], [200, 3], [400, 2]]
    two = [[100, 1], [300, 6], [400, 3]]
    merged = stats.merge_histograms([one, two])
    assert merged == [(100, 6), (200, 3), (300, 6), (400, 5)]
    # 20 counts: p50 needs 10 -> 100 (6), 200 (9), 300 (15): 300. p75 needs 15: 300. p90 needs 18: 400.
    assert stats.histogram_percentile(merged, 50) == 300
    assert stats.histogram_percentile(merged, 75) == 300
    assert stats.histogram_percentile(merged, 90) == 400
    assert stats.histogram_percentile(merged, 0) == 100
    assert stats.histogram_mean(merged) == (600 + 600 + 1800 + 2000) / 20
    # Averaging the two trials' medians would say (200 + 300) / 2 = 250, a value no request had.
    assert stats.histogram_percentile(stats.merge_histograms([one]), 50) == 100
    with pytest.raises(ValueError):
        stats.histogram_percentile([], 50)


def test_two_groups_are_split_at_a_wide_gap_with_two_trials_a_side():
    # actix db in one quick run: two states of the machine, 7.5k and 11.3-12.9k req/s.
    assert stats.two_groups([11998, 11338, 7448, 7464, 12876], 0.2) == ([7448, 7464], [11338, 11998, 12876])
    assert stats.two_groups([6234, 5542, 5971, 5327, 4167], 0.2) is None, "one low trial is an outlier, not a group"
    assert stats.two_groups([100, 104, 125, 130], 0.2) is None, "a gap of 21 is not over 20 % of the median 114.5"
    assert stats.two_groups([100, 101, 140], 0.2) is None, "three trials cannot hold two groups of two"
