"""Numbers print only the digits their interval supports."""

import pytest

from webshootout.report import fmt


@pytest.mark.parametrize("value, low, high, shown, span", [
    (228_754, 183_000, 274_500, "230k", "180k-270k"),  # ±20 %: two significant digits
    (228_754, 224_000, 233_000, "229k", "224k-233k"),  # ±2 %: three
    (228_754, 228_300, 229_200, "228.8k", "228.3k-229.2k"),
    (9_876, 8_000, 11_800, "9,900", "8,000-11,800"),  # an interval reads in its centre's unit
    (12.34, 12.0, 12.7, "12.3", "12.0-12.7"),
    (1.234, 1.20, 1.26, "1.23", "1.20-1.26"),
    (3.0, 0.5, 9.0, "3.0", "0.5-9.0"),  # never fewer than two digits of the value's own
])
def test_a_centre_and_its_interval_keep_the_digits_of_the_intervals_half_width(value, low, high, shown, span):
    assert fmt.measured(value, low, high) == shown
    assert fmt.span(low, high, value) == span


def test_without_an_interval_three_digits_and_the_cv_to_the_percent():
    assert fmt.measured(228_754) == "229k" and fmt.measured(512.3, 512.3, 512.3) == "512"
    assert fmt.measured(None) == "-"
    assert fmt.cv(0.0149) == "1%" and fmt.cv(0.123) == "12%"
