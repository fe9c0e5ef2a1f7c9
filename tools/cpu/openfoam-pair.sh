#!/usr/bin/env bash
# One CPU core against OpenFOAM's icoFoam (Debian packages openfoam and openfoam-examples) on the same
# 2D lid-driven cavity: N x N cells, Re 1000, the same fixed dt (CFL 0.5 on the lid), STEPS steps from
# rest, one thread each, alternated ROUNDS times; icoFoam's pressure by GAMG (Gauss-Seidel smoother,
# PISO with 2 correctors, 1e-6, relTol 0.05 on the first), or its tutorial's DIC-PCG with PSOLVER=PCG.
# Both sides are timed in CPU seconds of the process (icoFoam's ExecutionTime; miniapp's by the
# difference of a STEPS-step and a 1-step run), which a machine shared with other jobs inflates far less
# than wall time. Wall times per step beside them: miniapp's from diagnostics.csv, icoFoam's from its
# ClockTime (whole seconds, so only to a few per cent over 100 steps).
# Usage: tools/cpu/openfoam-pair.sh MINIAPP N STEPS [ROUNDS] [--set KEY=VALUE ...]   (docs/amg.md)
# Prints per round: icoFoam and miniapp ms per step, miniapp's Poisson iterations, the ratio, the load.
set -euo pipefail
bin=$(realpath "${1:?usage: openfoam-pair.sh MINIAPP N STEPS [ROUNDS] [--set KEY=VALUE ...]}")
N=$2 STEPS=$3 ROUNDS=${4:-3}
shift $(($# < 4 ? $# : 4))
src=/usr/share/doc/openfoam-examples/examples/incompressible/icoFoam/cavity/cavity
[[ -d $src ]] || { echo "openfoam-pair.sh: $src not found (Debian package openfoam-examples)" >&2; exit 1; }
d=$(mktemp -d /tmp/openfoam-pair-XXXXXX)
cp -r "$src"/. "$d"
cd "$d"
gunzip -fq system/*.gz constant/*.gz 0/*.gz 2>/dev/null || true
dt=$(python3 -c "print(0.5 * 0.1 / $N)")  # OpenFOAM's cavity is 0.1 wide with a unit lid speed
sed -i "s/(20 20 1)/($N $N 1)/" system/blockMeshDict
sed -i "s/^deltaT .*/deltaT $dt;/; s/^endTime .*/endTime $(python3 -c "print($dt * $STEPS)");/;
        s/^writeInterval .*/writeInterval 100000;/" system/controlDict
sed -i "s/^nu .*/nu              [0 2 -1 0 0 0 0] 0.0001;/; s/^nu  *0.01;/nu 0.0001;/" constant/transportProperties
[[ ${PSOLVER:-GAMG} == GAMG ]] && sed -i 's/solver          PCG;/solver          GAMG; smoother GaussSeidel;/;
                                        s/preconditioner  DIC;//' system/fvSolution
set +u; . /usr/share/openfoam/etc/bashrc 2>/dev/null || true; set -u
command -v icoFoam > /dev/null || { echo "openfoam-pair.sh: icoFoam not found (Debian package openfoam)" >&2; exit 1; }
blockMesh > log.blockMesh 2>&1 || { cat log.blockMesh; exit 1; }

mini() {  # miniapp on the same cavity (unit side, lid speed 1), STEPS given
  OMP_NUM_THREADS=1 /usr/bin/time -f '%U %S' -o time.txt "$bin" run cavity --backend cpu --quiet \
    --set physics.re=1000 --set "mesh.cells=[$N,$N,1]" --set "mesh.length=[1,1,$(python3 -c "print(1 / $N)")]" \
    --set "numerics.dt=$(python3 -c "print(0.5 / $N)")" --set run.max_steps="$1" --set run.end_time=1e9 \
    --set 'output.fields=[]' --set "output.directory=\"$d/mini\"" "${@:2}" > log.mini 2>&1 || { cat log.mini >&2; exit 1; }
  awk '{print $1 + $2}' time.txt
}
for r in $(seq "$ROUNDS"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  OMP_NUM_THREADS=1 icoFoam > log.icoFoam 2>&1 || { tail -20 log.icoFoam; exit 1; }
  read -r of ofwall < <(python3 -c "
import re; log = open('log.icoFoam').read()
per_step = lambda t: (t[-1] - t[0]) / (len(t) - 1) * 1e3  # from the end of the first step to the last's
print(per_step([float(x) for x in re.findall(r'ExecutionTime = ([0-9.e+-]+) s', log)]),
      per_step([float(x) for x in re.findall(r'ClockTime = ([0-9]+) s', log)]))")
  one=$(mini 1 "$@")
  all=$(mini "$STEPS" "$@")
  read -r wall it < <(python3 -c "
import csv; r = list(csv.DictReader(open('$d/mini/diagnostics.csv')))
print(sum(float(x['wall_seconds']) for x in r[1:]) / (len(r) - 1) * 1e3, sum(int(x['poisson_iterations']) for x in r) / len(r))")
  python3 -c "
mi = ($all - $one) / ($STEPS - 1) * 1e3
print(f'round $r: icoFoam {$of:.1f} ms/step CPU ({$ofwall:.0f} wall), miniapp {mi:.1f} ms/step CPU ({$wall:.1f} wall), {$it:.1f} Poisson it/step,'
      f' icoFoam/miniapp {$of / mi:.2f}; load $load')"
done
rm -rf "$d"
