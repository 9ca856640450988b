"""Hodges-Lehmann estimates with exact rank intervals: the critical counts of the tables, and intervals that
hold the truth as often as they say at 8-40 pairs, heavy tails included."""

import itertools
import math
import random

import pytest

from webshootout.report import ranks


def signed_rank_cdf(n: int, k: int) -> float:
    """P(T+ <= k) by counting every sign pattern: the definition, for small n."""
    sums = [sum(r for r, s in zip(range(1, n + 1), signs) if s) for signs in itertools.product((0, 1), repeat=n)]
    return sum(t <= k for t in sums) / len(sums)


@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_the_signed_rank_critical_count_is_the_largest_with_its_tail_under_half_alpha(n):
    k = ranks.signed_rank_critical(n, 0.05)
    assert signed_rank_cdf(n, k) <= 0.025 < signed_rank_cdf(n, k + 1)


def test_the_critical_counts_of_the_printed_tables():
    # Wilcoxon's signed-rank table, two-sided 5 %: n=8 -> 3, n=20 -> 52; Mann-Whitney's U, 5 % two-sided:
    # 5 and 5 -> 2, 8 and 8 -> 13. Below n=6 (signed rank) or 4 a side (U) no 95 % interval exists.
    assert [ranks.signed_rank_critical(n, 0.05) for n in (5, 6, 8, 20)] == [-1, 0, 3, 52]
    assert [ranks.rank_sum_critical(m, m, 0.05) for m in (3, 4, 5, 8)] == [-1, 0, 2, 13]


def test_the_estimates_are_medians_of_walsh_averages_and_of_differences():
    found = ranks.paired([1.0, 2.0, 4.0], 0.5)
    assert found.estimate == 2.25  # median of 1, 1.5, 2, 2.5, 3, 4 (the Walsh averages), not the mean 2.33
    moved = ranks.unpaired([1.0, 2.0], [3.0, 5.0], 0.5)
    assert moved.estimate == 2.5  # median of 2, 1, 4, 3


def test_too_few_values_give_an_unbounded_interval_not_a_narrow_one():
    found = ranks.paired([0.01, 0.02, 0.03, 0.04, 0.05], 0.05)
    assert not found.bounded and (found.low, found.high) == (-math.inf, math.inf)
    assert not ranks.unpaired([1.0, 2.0, 3.0], [4.0, 5.0, 6.0], 0.05).bounded


@pytest.mark.parametrize("n", [8, 16, 40])
def test_the_paired_interval_holds_the_shift_as_often_as_it_says_with_heavy_tails(n):
    rng = random.Random(n)
    misses = 0
    for _ in range(1000):
        # Student's t with 2 degrees of freedom: a stall now and then, a mean that barely exists.
        diffs = [0.03 + 0.01 * rng.gauss(0, 1) / math.sqrt(rng.gammavariate(1, 1)) for _ in range(n)]
        found = ranks.paired(diffs, 0.05)
        misses += not found.low <= 0.03 <= found.high
    assert 20 <= misses <= 65, misses  # 5 % at most, less where the discrete levels fall short of it


def test_the_unpaired_interval_holds_the_shift_as_often_as_it_says():
    rng = random.Random(1)
    misses = 0
    for _ in range(1000):
        before = [rng.lognormvariate(0, 0.05) for _ in range(6)]
        after = [1.1 * rng.lognormvariate(0, 0.05) for _ in range(6)]
        found = ranks.unpaired([math.log(v) for v in before], [math.log(v) for v in after], 0.05)
        misses += not found.low <= math.log(1.1) <= found.high
    assert 20 <= misses <= 65, misses
