#!/usr/bin/env bash
# On a GPU machine's host (16 cores, 128 GB; no GPU used): issue 24's several-rank start-up target, a
# 5·10⁷-cell Gmsh mesh read by rank 0, partitioned by METIS and distributed, on 4 and 8 CPU ranks
# (`mpirun -n R miniapp run cavity-3d --backend cpu`, OMP_NUM_THREADS = cores / R, one step, Poisson
# tolerance loosened, no VTK). The mesh, a unit cube of tetrahedra, is written by
# tools/mesh/box_msh.py to /tmp and kept there for a later call on the same warm machine.
# Memory first: for each R two small calibration runs (3.8·10⁵ and 1.6·10⁶ tets) give each rank's
# peaks as a + b·cells, extrapolated and printed; the whole run is made only if the sum of the ranks'
# peaks (+12 % for the step) fits in 90 % of MemAvailable, else (or with MINIAPP_STARTUP_MESH_ONLY=1)
# the run is stopped after the mesh stage's host-memory line: read, partition and distribution are
# the target's part and need a third of the memory. On the CPU backend a whole run takes about
# 2600 B per cell over all ranks (development VM), so 5·10⁷ cells will hardly fit in 128 GB: a
# smaller MINIAPP_STARTUP_CELLS gives the whole start-up's time per cell.
# Jacobi preconditioner by default: AMG's host hierarchy adds about 500 B/cell on the CPU backend,
# and the target is about the mesh.
# Each run's stage lines go to OUT_DIR/NAME.txt; the estimates, the mesh stage with its parts, the
# host-memory-peak lines (the reader's peak during the read against the others'), start-up lines and
# each peak's ratio to a rank's share of MemTotal (target ≤ 1.5) to OUT_DIR/summary.txt. Runs are
# skipped once the budget would be passed (MINIAPP_GPU_BUDGET seconds from the script's start, default 540).
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=540] [MINIAPP_STARTUP_CELLS=5e7]
#        [MINIAPP_STARTUP_RANKS="4 8"] [MINIAPP_STARTUP_PRECONDITIONER=jacobi] [MINIAPP_STARTUP_MESH_ONLY=0]
#        [MINIAPP_STARTUP_MEM_GB=MemAvailable]
#        tools/gpu/startup-ranks.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/startup-ranks.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-540}
cells=${MINIAPP_STARTUP_CELLS:-5e7}
rank_counts=${MINIAPP_STARTUP_RANKS:-4 8}
preconditioner=${MINIAPP_STARTUP_PRECONDITIONER:-jacobi}
mesh_only=${MINIAPP_STARTUP_MESH_ONLY:-0}
source tools/gpu/runtime.sh  # also: bin, step, $out/device.txt and an empty $out/steps.txt
git log -1 --format='commit %H %cI' >>"$out/device.txt" 2>/dev/null
work=/tmp/startup_ranks
mkdir -p "$work"
cores=$(nproc)
host_kb=$(awk '/^MemTotal/ {print $2}' /proc/meminfo)    # the host memory that the target shares out
mem_kb=$(awk '/^MemAvailable/ {print $2}' /proc/meminfo)  # what the runs may take, or MINIAPP_STARTUP_MEM_GB
[[ -n ${MINIAPP_STARTUP_MEM_GB:-} ]] && mem_kb=$((MINIAPP_STARTUP_MEM_GB * 1000000))
mem_kb=${mem_kb:-$host_kb}
n=$(python3 -c "print(max(1, round(($cells / 6) ** (1 / 3))))")
total=$((6 * n * n * n))
summary=$out/summary.txt
: >"$out/calibration.txt"
echo "host: $cores cores, MemTotal $((host_kb / 1000000)) GB, available $((mem_kb / 1000000)) GB; mesh: ${n}³ box, $total tets; preconditioner $preconditioner" \
  >"$summary"

# `mesh_file EDGE`: writes $work/box_EDGE.msh, the EDGE³ tet box, unless an earlier call left it (under
# a temporary name first, so that a file cut short is never reused).
mesh_file() {
  local f=$work/box_$1.msh
  [[ -s $f ]] || { python3 tools/mesh/box_msh.py "$f.part" --n "$1" && mv "$f.part" "$f"; }
  ls -l "$f"
}

# `ranks_run R FILE [--set ...]`: the case on R ranks, output on stdout; it becomes mpirun (exec), so
# that until_mesh can stop it by its process id. Functions run under `step` (timeout) as
# `"${fn[@]}" NAME ARGS`: a bash that inherits the exported functions.
ranks_run() {
  local r=$1 file=$2
  shift 2
  export OMP_NUM_THREADS=$((cores / r > 0 ? cores / r : 1))
  rm -rf "$work/run_$r"  # no checkpoints of another mesh in the output folder
  exec mpirun -np "$r" --oversubscribe --bind-to none \
    -x LD_LIBRARY_PATH -x OMP_NUM_THREADS "$bin" run cavity-3d --backend cpu --set 'mesh.generator="file"' \
    --set "mesh.file=\"$file\"" --set run.max_steps=1 --set numerics.poisson_tolerance=0.1 \
    --set numerics.poisson_max_iterations=300 --set "numerics.preconditioner=\"$preconditioner\"" \
    --set 'output.fields=[]' --set "output.directory=\"$work/run_$r\"" "$@"
}
export -f ranks_run mesh_file
export cores bin preconditioner work
fn=(bash -c '"$@"' fn)

# `until_mesh LOG R FILE`: ranks_run, stopped once rank 0 has printed the host-memory line of the mesh
# stage (the ranks then hold their parts; operators would need the memory that did not fit).
until_mesh() {
  local log=$1
  shift
  (ranks_run "$@") &
  local pid=$!  # mpirun's
  until grep -q '^  host memory peak' "$log" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { wait "$pid"; return; }
    sleep 1
  done
  kill "$pid"
  sleep 5
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  echo "stopped after the mesh stage"
}
export -f until_mesh

# Numbers of a run's output: rank 0's and the other ranks' largest peak after the mesh stage (GB), the
# mesh stage (s); rank 0's and every rank's largest peak at the end of set-up (GB), the start-up (s).
peaks() {
  sed -nE 's/^  host memory peak +rank 0 ([0-9.]+) GB, ranks [0-9.]+ [0-9.]+\.\.([0-9.]+) GB.*/\1 \2/p' "$1"
  sed -nE 's/^  mesh +([0-9.]+) s \(cpu.*/\1/p' "$1"
  sed -nE 's/^  start-up ([0-9.]+) s; peak host memory ([0-9.]+) GB.*at most ([0-9.]+) GB/\2 \3 \1/p' "$1"
}

edges=(40 64)  # calibration boxes: 3.8·10⁵ and 1.6·10⁶ tets
for e in "${edges[@]}"; do mesh_file "$e" >/dev/null; done
file=$work/box_$n.msh
# At most 8 files come back from a call: calibration runs' lines go together into calibration.txt.
[[ -s $file ]] || timeout 120 "${fn[@]}" mesh_file "$n" >>"$summary" 2>&1  # 6 s for 5·10⁷ tets on the VM
[[ -s $file ]] || { echo "no mesh file" | tee -a "$summary"; cat "$out/steps.txt"; exit 1; }
{ df -h "$work"; grep -E 'MemTotal|MemAvailable' /proc/meminfo; } >>"$out/device.txt"  # memory-backed /tmp?

for r in $rank_counts; do
  # Calibration: peaks and times at two sizes, each fitted as a + b·cells and extrapolated.
  fit=()
  for e in "${edges[@]}"; do
    log=$work/calibrate_np${r}_$e.txt
    rm -f "$log"  # no stale figures from an earlier call
    start=$(date +%s.%N)
    step "calibrate_np${r}_$e" 60 "${fn[@]}" ranks_run "$r" "$work/box_$e.msh"
    mv "$out/calibrate_np${r}_$e.txt" "$log" 2>/dev/null
    { echo "calibrate_np${r}_$e:"; sed -n '/^partition/,/^  start-up/p; /^summary/p' "$log"; } >>"$out/calibration.txt" 2>/dev/null
    fit+=("$((6 * e * e * e))" "$(peaks "$log" | tr '\n' ' ')" "$(date +%s.%N) - $start")
  done
  # The run: whole if the ranks' peaks fit in 90 % of the available memory, else to the mesh stage
  # if that fits, else none; its time limit: 3× the extrapolated time and a minute (the operators'
  # time per cell grows past the caches: 1.7× the linear estimate at 6·10⁶ cells on the development
  # VM), or what the budget leaves if that is less but still 1.2× the estimate.
  read -r mode limit < <(python3 - "$total" "$r" "$mem_kb" "$mesh_only" "$((budget - SECONDS - 5))" "${fit[@]}" \
    2>>"$summary" <<'EOF'
import sys
total, r, mem_kb, mesh_only, left = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
(c1, *p1), (c2, *p2) = [(float(a[0]), *map(float, a[1].split()), eval(a[2])) for a in (sys.argv[6:9], sys.argv[9:12])]
if len(p1) != 7 or len(p2) != 7:
    print("skip 0"); print(f"np {r}: skipped: a calibration run failed", file=sys.stderr); sys.exit()
read0, others, mesh, end0, end_max, startup, wall = [a + (b - a) / (c2 - c1) * (total - c1) for a, b in zip(p1, p2)]
# Sums of the ranks' peaks (an upper bound: peaks need not coincide). The step and the checkpoint add
# 11 % to the set-up's peak (whole-run VmHWM, 1.6·10⁶ tets on 2 ranks).
to_mesh, whole = read0 + (r - 1) * others, 1.12 * (max(end0, read0) + (r - 1) * end_max)
room = 0.9 * mem_kb / 1e6
print(f"np {r}: estimate at {total:.3g} cells (a + b·cells from {c1:.3g} and {c2:.3g}): reader {read0:.1f} GB in the read,"
      f" others {others:.1f} GB after the mesh stage ({mesh:.0f} s); at the end of set-up ({startup:.0f} s) rank 0"
      f" {end0:.1f} GB, each rank at most {end_max:.1f} GB; sum of the peaks {to_mesh:.0f} GB to the mesh stage,"
      f" {whole:.0f} GB with the step, against 90 % of the available {room:.0f} GB", file=sys.stderr)
mode = "full" if whole <= room and mesh_only != "1" else "mesh" if to_mesh <= room else "skip"
need = wall if mode == "full" else mesh + wall - startup
limit = min(int(3 * need + 60), left) if left >= 1.2 * need else 0
if mode != "skip" and not limit:
    mode = "skip"
    print(f"np {r}: about {need:.0f} s needed, {left} s left of the budget", file=sys.stderr)
print(mode, limit)
print(f"np {r}: " + {"full": f"the whole run, limit {limit} s", "skip": "skipped",
                     "mesh": f"to the mesh stage only (the whole run would not fit), limit {limit} s"}[mode], file=sys.stderr)
EOF
  )
  name=np${r}_$total
  rm -f "$out/$name.txt" "$out/${name}_mesh.txt"
  if [[ $mode == full ]]; then
    step "$name" "$limit" "${fn[@]}" ranks_run "$r" "$file"
  elif [[ $mode == mesh ]]; then
    name=${name}_mesh
    step "$name" "$limit" "${fn[@]}" until_mesh "$out/$name.txt" "$r" "$file"
  else
    continue
  fi
  rm -rf "$work/run_$r"  # its checkpoint (about 100 B per cell)
  [[ -f $out/$name.txt ]] || continue
  # The target: no rank but the reader (during the read) above 1.5× its share (MemTotal / R).
  {
    echo "$name ($r ranks × $((cores / r > 0 ? cores / r : 1)) threads):"
    grep -E '^partition|^  (mesh|host memory peak|start-up) |^    [a-zA-Z]|^stopped' "$out/$name.txt"
    peaks "$out/$name.txt" | tr '\n' ' ' | python3 -c "import sys
p = [float(x) for x in sys.stdin.read().split()]
share = $host_kb / 1e6 / $r
if len(p) >= 2: print(f'  reader {p[0]} GB in the read; largest other rank {p[1]} GB after the mesh stage = '
                      f'{p[1] / share:.2f} × its share of {share:.1f} GB (target ≤ 1.5)')
if len(p) >= 5: print(f'  largest rank {p[4]} GB at the end of set-up = {p[4] / share:.2f} × its share')"
  } >>"$summary"
done
cat "$summary" "$out/steps.txt"
