"""A group-sequential design for `ab`: the verdict is read at several numbers of pairs (the looks), and a row
stops at the first look that decides it, yet the chance that any look of it errs stays at `alpha`.

Each look's interval is a repeated confidence interval (Jennison and Turnbull): its two-sided level comes
from an O'Brien-Fleming-type alpha spending function (Lan and DeMets), alpha(t) = 4 - 4 Phi(z / sqrt(t)) at
the share t of the last look's pairs, z the normal quantile of 1 - alpha / 4. Little error is spent early,
so an early look decides only a clear difference and the last one keeps nearly the level of a single test.
The boundaries c_k make P(|Z_j| < c_j for j < k, |Z_k| >= c_k) = alpha(t_k) - alpha(t_(k-1)) for the
statistics of the looks, jointly normal with corr(Z_i, Z_j) = sqrt(n_i / n_j): the limit of the signed-rank
statistic's path as of any efficient statistic's. The looks' intervals then all hold the truth at once with
probability 1 - alpha, so whatever a look decides, stopping there or later, errs with at most alpha.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

GRID = 401  # points of the numerical integration over a continuation region (boundaries good to 1e-6)


def spent(t: float, alpha: float) -> float:
    """The O'Brien-Fleming-type spending function: the two-sided error allowed by the share t of the pairs,
    alpha / 2 a side, each side's 2 - 2 Phi(z(1 - alpha / 4) / sqrt(t)) (Lan and DeMets' form, gsDesign's
    sfLDOF)."""
    from scipy.stats import norm

    return float(4 * norm.sf(norm.isf(alpha / 4) / math.sqrt(t)))


@lru_cache(maxsize=256)
def boundaries(looks: tuple[int, ...], alpha: float) -> tuple[float, ...]:
    """The |Z| boundary of each look (pairs at each look, ascending), one look at a time.

    The sum S_k = Z_k sqrt(t_k) has independent normal steps of variance t_k - t_(k-1), so the chance of
    crossing at look k is an integral over the sub-density of S_(k-1) on the region inside every boundary so
    far (Armitage, McPherson and Rowe's recursion), kept on a grid from look to look."""
    import numpy as np
    from scipy.integrate import trapezoid
    from scipy.optimize import brentq
    from scipy.stats import norm

    fractions = [n / looks[-1] for n in looks]
    found: list[float] = []
    grid = density = None
    before, allowed = 0.0, 0.0
    for k, t in enumerate(fractions):
        target = spent(t, alpha) - allowed  # the error this look may spend
        step = math.sqrt(t - before)
        if k == 0:
            c = float(norm.isf(target / 2))
        else:
            def crossing(c: float) -> float:
                edge = c * math.sqrt(t)
                return float(trapezoid(density * (norm.sf((edge - grid) / step) + norm.cdf((-edge - grid) / step)),
                                       grid)) - target

            c = float(brentq(crossing, 0.01, 40.0, xtol=1e-9)) if crossing(40.0) < 0 else math.inf
        found.append(c)
        allowed += target
        if k + 1 < len(fractions) and math.isfinite(c):
            inner = np.linspace(-c * math.sqrt(t), c * math.sqrt(t), GRID)
            if k == 0:
                density = norm.pdf(inner, scale=math.sqrt(t))
            else:
                density = trapezoid(density[None, :] * norm.pdf(inner[:, None] - grid[None, :], scale=step),
                                    grid, axis=1)
            grid, before = inner, t
    return tuple(found)


@dataclass(frozen=True)
class Design:
    """Looks at these numbers of pairs, and the two-sided error allowed over all of them."""

    looks: tuple[int, ...]
    alpha: float

    @cached_property
    def levels(self) -> tuple[float, ...]:
        """The two-sided error of each look's interval (its nominal level is 1 - that)."""
        from scipy.stats import norm

        return tuple(float(2 * norm.sf(c)) for c in boundaries(self.looks, self.alpha))

    def look(self, pairs: int) -> int:
        """The index of the look these pairs belong to: the first with at least as many (a row stops at a
        look, so it has that look's pairs, or fewer where a metric was missing from some trials)."""
        return next((i for i, n in enumerate(self.looks) if n >= pairs), len(self.looks) - 1)

    def level(self, pairs: int) -> float:
        return self.levels[self.look(pairs)]


# The first look: at 8 pairs the least error an exact signed-rank interval can have is 2 / 2^8, more than
# any design of ab spends there, so looking earlier than 16 decides nothing.
FIRST_LOOK = 16
LOOK_EVERY = 8


def schedule(max_pairs: int, first: int = FIRST_LOOK, every: int = LOOK_EVERY) -> tuple[int, ...]:
    """The numbers of pairs at which the verdict is read: every `every` from `first`, and the last."""
    start = min(first, max_pairs)
    return tuple(sorted(set(range(start, max_pairs + 1, every)) | {max_pairs}))
