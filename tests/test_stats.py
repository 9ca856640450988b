"""Every statistic against values worked out by hand (the comments show the working)."""

import pytest

from webshootout import stats


def test_median_spread_and_cv_exact():
    assert stats.median([3.0, 1.0, 2.0]) == 2.0
    assert stats.median([4.0, 1.0, 2.0, 3.0]) == 2.5
    assert stats.spread([3.0, 1.0, 2.0]) == (1.0, 3.0)
    assert stats.cv([10.0]) == 0.0
    # mean 10, sample stdev sqrt(((−1)² + 1²) / 1) = sqrt(2)
    assert stats.cv([9.0, 11.0]) == pytest.approx(2 ** 0.5 / 10)
    assert stats.cv([0.0, 0.0]) == 0.0


def test_bootstrap_ci_of_three_trials_is_min_to_max():
    # A resample of 3 has median 1 when at least two draws are 1: 3·(1/3)²·(2/3) + (1/3)³ = 7/27 ≈ 26 %,
    # far above 2.5 %, so both ends of the 95 % interval are the extremes.
    assert stats.bootstrap_ci([3.0, 1.0, 2.0]) == (1.0, 3.0)


def test_bootstrap_ci_of_seven_trials_excludes_the_extremes():
    # Resample median <= k (values 1..7) needs >= 4 of 7 draws <= k: P = sum_{j>=4} C(7,j) (k/7)^j (1-k/7)^(7-j)
    # k=1: 1.0 %, k=2: 10.8 %, k=5: 89.2 %, k=6: 99.0 %  ->  2.5 % quantile is 2, 97.5 % quantile is 6.
    assert stats.bootstrap_ci([7.0, 1.0, 6.0, 2.0, 5.0, 3.0, 4.0]) == (2.0, 6.0)


def test_bootstrap_ci_degenerate_cases_and_seed():
    assert stats.bootstrap_ci([5.0]) == (5.0, 5.0)
    assert stats.bootstrap_ci([5.0, 5.0, 5.0]) == (5.0, 5.0)
    values = [10.0, 12.0, 11.0, 15.0, 9.0, 13.0, 14.0, 10.5]
    assert stats.bootstrap_ci(values, seed=1) == stats.bootstrap_ci(values, seed=1)
    with pytest.raises(ValueError):
        stats.bootstrap_ci([])


def test_change_flags_a_20_percent_gain_but_not_noise():
    # Three trials a side: the interval is [min(after)/max(before), max(after)/min(before)].
    ratio, (low, high), verdict = stats.change([100.0, 101.0, 99.0], [120.0, 121.0, 119.0])
    assert ratio == pytest.approx(1.2)
    assert (low, high) == (pytest.approx(119 / 101), pytest.approx(121 / 99))
    assert verdict == "faster"
    ratio, (low, high), verdict = stats.change([100.0, 103.0, 97.0], [101.0, 98.0, 104.0])
    assert ratio == pytest.approx(1.01)
    assert (low, high) == (pytest.approx(98 / 103), pytest.approx(104 / 97))
    assert verdict == "no significant change"
    assert stats.change([120.0, 121.0, 119.0], [100.0, 101.0, 99.0])[2] == "slower"


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
