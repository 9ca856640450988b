import pytest

from webshootout import stats


def test_median_and_cv_exact():
    assert stats.median([3.0, 1.0, 2.0]) == 2.0
    assert stats.cv([10.0]) == 0.0
    assert stats.cv([9.0, 11.0]) == pytest.approx(2 ** 0.5 / 10)
