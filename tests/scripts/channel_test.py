"""scripts/validation/channel.py's fold of a channel profile's two halves (profile_y.csv lists both,
y⁺ from the nearer wall): the mean of rows at one distance from their walls, the halves' largest
relative difference from y⁺ = 5 on, and a profile that is not mirror-symmetric left as it is; a
snapshot's plane averages in wall units, folded the same way."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from validation import channel  # noqa: E402


def both_halves(y_plus_low, low, high):
    """A profile's rows bottom to top: the lower half, then the upper half mirrored."""
    return y_plus_low + y_plus_low[::-1], low + high[::-1]


class FoldTest(unittest.TestCase):
    def test_rows_at_one_distance_from_their_walls_are_averaged(self):
        y_plus, u = both_halves([1.0, 4.0, 10.0, 30.0], [1.0, 3.9, 8.6, 14.0], [1.1, 4.1, 8.4, 14.6])
        (folded_y, folded_u), spread = channel.fold_halves(y_plus, u)
        self.assertEqual(folded_y, [1.0, 4.0, 10.0, 30.0])
        for got, want in zip(folded_u, [1.05, 4.0, 8.5, 14.3]):
            self.assertAlmostEqual(got, want, places=12)
        # From y⁺ = 5 on: |8.6 − 8.4| / 8.5 and |14.0 − 14.6| / 14.3; the rows nearer the wall are left out.
        self.assertAlmostEqual(spread[0], 0.6 / 14.3, places=12)

    def test_an_odd_row_count_keeps_the_centre_row(self):
        y_plus = [2.0, 20.0, 180.0, 20.0, 2.0]
        (folded_y, folded_u), _ = channel.fold_halves(y_plus, [2.0, 12.0, 18.0, 13.0, 2.2])
        self.assertEqual(folded_y, [2.0, 20.0, 180.0])
        self.assertAlmostEqual(folded_u[1], 12.5, places=12)
        self.assertEqual(folded_u[2], 18.0)

    def test_a_profile_that_is_not_mirrored_is_left_as_it_is(self):
        y_plus, u = [1.0, 5.0, 20.0, 60.0], [1.0, 4.8, 12.3, 16.0]
        (folded_y, folded_u), spread = channel.fold_halves(y_plus, u)
        self.assertEqual((folded_y, folded_u, spread), (y_plus, u, [None]))


class WallUnitsTest(unittest.TestCase):
    def test_a_snapshot_profile_in_wall_units_has_its_halves_averaged(self):
        # Four layers of cells between walls at y = ±1, ν = 0.01; U = 2 in the first cells, so
        # u_τ² = ν U₁ / y₁ = 0.01 · 2 / 0.25.
        profile = {"y": [-0.75, -0.25, 0.25, 0.75], "u": [2.0, 5.0, 7.0, 2.0], "uu": [0.1, 0.3, 0.5, 0.1],
                   "vv": [0.0, 0.2, 0.2, 0.0], "walls": (-1.0, 1.0)}
        u_tau, y_plus, u_plus, uu_plus, vv_plus = channel.wall_units(profile, 0.01)
        self.assertAlmostEqual(u_tau, (0.01 * 2 / 0.25) ** 0.5, places=12)
        for got, want in zip(y_plus, [0.25 * u_tau / 0.01, 0.75 * u_tau / 0.01]):
            self.assertAlmostEqual(got, want, places=9)
        for got, want in zip(u_plus, [2.0 / u_tau, 6.0 / u_tau]):
            self.assertAlmostEqual(got, want, places=12)
        self.assertAlmostEqual(uu_plus[1], 0.4 / u_tau ** 2, places=12)
        self.assertEqual(len(vv_plus), 2)


if __name__ == "__main__":
    unittest.main()
