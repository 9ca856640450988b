"""The group-sequential design of ab: O'Brien-Fleming-type boundaries as published, and a chance of erring
at any look that stays at the error allowed."""

import math
import random

import pytest

from webshootout.report import sequential


def test_the_boundaries_are_lan_demets_obrien_fleming_as_published():
    # Five equally spaced looks, 5 % two-sided: 4.877, 3.357, 2.680, 2.290, 2.031 (R's gsDesign, sfLDOF).
    assert sequential.boundaries((1, 2, 3, 4, 5), 0.05) == pytest.approx((4.877, 3.357, 2.680, 2.290, 2.031),
                                                                         abs=2e-3)


def test_one_look_is_a_single_test_at_the_whole_error():
    assert sequential.Design((20,), 0.05).levels == pytest.approx((0.05,))


def test_a_row_with_fewer_pairs_than_a_look_is_read_at_that_look():
    design = sequential.Design(sequential.schedule(48), 0.025)
    assert design.looks == (16, 24, 32, 40, 48)
    assert [design.look(n) for n in (16, 7, 17, 48, 60)] == [0, 0, 1, 4, 4]
    assert sequential.schedule(20) == (16, 20) and sequential.schedule(8) == (8,)


def test_a_path_of_noise_crosses_some_boundary_with_the_error_allowed():
    design = sequential.Design((8, 16, 24, 32, 40, 48), 0.05)
    bounds = sequential.boundaries(design.looks, design.alpha)
    rng, crossed, runs = random.Random(7), 0, 20000
    for _ in range(runs):
        total = done = 0.0
        for n, c in zip(design.looks, bounds):
            total += sum(rng.gauss(0, 1) for _ in range(int(n - done)))
            done = n
            if abs(total) / math.sqrt(n) >= c:
                crossed += 1
                break
    assert 0.045 < crossed / runs < 0.055, crossed / runs
