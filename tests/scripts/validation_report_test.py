"""scripts/validate.py's report on synthetic runs: the runs of one case (the cylinder at Re 100 on two
meshes of a resolution study) make one section, one table with a row per run and quantity, and one
plot per run named after it."""
import math
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import validate  # noqa: E402
from validation import cylinder, report  # noqa: E402
from validation.runs import Run, full_set, select_runs  # noqa: E402


def write_forces(folder, strouhal, mean_cd, cl_amplitude):
    """forces_cylinder.csv of a periodic wake from t = 0 to 150 (U = D = 1)."""
    os.makedirs(folder)
    with open(os.path.join(folder, "forces_cylinder.csv"), "w") as f:
        f.write("time,cd,cl\n")
        for i in range(15001):
            t = 0.01 * i
            f.write(f"{t},{mean_cd},{cl_amplitude * math.sin(2 * math.pi * strouhal * t)}\n")
    with open(os.path.join(folder, "diagnostics.csv"), "w") as f:
        f.write("step,time,kinetic_energy\n1,0.01,1.0\n")


class CylinderSectionTest(unittest.TestCase):
    def test_a_resolution_study_shares_one_section_with_a_plot_per_run(self):
        runs = [Run("cylinder-re100", "cylinder", 150.0), Run("cylinder-re100-medium", "cylinder", 150.0)]
        with tempfile.TemporaryDirectory() as work:
            write_forces(os.path.join(work, runs[0].name), 0.1645, 1.338, 0.31)
            write_forces(os.path.join(work, runs[1].name), 0.1628, 1.338, 0.34)
            doc = os.path.join(work, "validation.md")
            with mock.patch.object(cylinder, "plot") as plot:  # matplotlib is not needed here
                families = validate.analyse(runs, work, doc)
            plotted = [os.path.basename(call.args[3]) for call in plot.call_args_list]
        self.assertEqual([f[0] for f in families], ["Cylinder, Re 100"])
        title, _, rows, images, _ = families[0]
        self.assertEqual([r.run for r in rows], [runs[0].name] * 3 + [runs[1].name] * 3)
        self.assertAlmostEqual(rows[0].computed, 0.1645, delta=2e-4)  # St of the first run
        self.assertAlmostEqual(rows[3].computed, 0.1628, delta=2e-4)  # and of the second
        self.assertEqual(plotted, ["cylinder-re100.png", "cylinder-re100-medium.png"])
        self.assertEqual([link for _, link in images],
                         ["validation/cylinder-re100.png", "validation/cylinder-re100-medium.png"])
        text = report.section("", "Turbulent cases", "header", families, "runs")
        self.assertEqual(text.count("### Cylinder, Re 100"), 1)
        self.assertEqual(text.count("| cylinder-re100-medium | "), 3)
        self.assertIn("![Cylinder, Re 100: cylinder-re100-medium](validation/cylinder-re100-medium.png)", text)
        notes = [line for line in text.splitlines() if line.startswith("- ")]  # each run's window, named
        self.assertEqual([n.split(":")[0] for n in notes], ["- cylinder-re100", "- cylinder-re100-medium"])

    def test_a_case_without_runs_has_no_section(self):
        with tempfile.TemporaryDirectory() as work:
            self.assertEqual(validate.analyse([], work, os.path.join(work, "validation.md")), [])


class SectionsTest(unittest.TestCase):
    def test_each_set_replaces_only_its_own_section(self):
        with tempfile.TemporaryDirectory() as work:
            doc = os.path.join(work, "validation.md")
            with open(doc, "w") as f:
                f.write("# Validation\n\nHand-written text.\n")
            report.write(doc, report.section("", "Full set", "full, first", [], "runs"))
            report.write(doc, report.section("--cpu-pairs", "CPU pairs", "pairs, first", [], "runs"))
            report.write(doc, report.section("--section later", "Later round", "later round", [], "runs"))
            report.write(doc, report.section("", "Full set", "full, second", [], "runs"))
            with open(doc) as f:
                page = f.read()
        self.assertIn("Hand-written text.", page)
        self.assertEqual(page.count("## Full set"), 1)
        self.assertIn("full, second", page)
        self.assertNotIn("full, first", page)
        self.assertIn("pairs, first", page)  # the full set's new report left the other set's section
        self.assertIn("later round", page)  # and the later round's
        self.assertLess(page.index("## Full set"), page.index("## CPU pairs"))  # replaced in place


class SelectRunsTest(unittest.TestCase):
    def names(self, only):
        return [r.name for r in select_runs(full_set(), only)]

    def test_a_run_s_own_name_selects_it_alone(self):
        self.assertEqual(self.names(["channel"]), ["channel"])
        self.assertEqual(self.names(["cylinder-3900", "channel-pcg"]), ["channel-pcg", "cylinder-3900"])

    def test_any_other_name_selects_the_runs_it_starts(self):
        self.assertEqual(self.names(["tg64"]), ["tg64-smagorinsky", "tg64-wale", "tg64-vreman", "tg64-sigma",
                                                "tg64-none"])
        self.assertEqual(self.names(["nothing"]), [])


if __name__ == "__main__":
    unittest.main()
