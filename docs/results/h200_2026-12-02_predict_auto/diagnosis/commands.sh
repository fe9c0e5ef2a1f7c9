#!/usr/bin/env bash
# out=DIR build=BUILD budget=S bash .gl/perf/predict-channel.sh
set -u
source tools/gpu/runtime.sh
export MINIAPP_CASES_DIR=$PWD/cases
predict() {
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" "$bin" predict "$@" --backend cuda --calibration "$out/calibration.json" --measure \
    --measure-steps 20 --devices 1 --no-plots --output "/tmp/predict_$name"
  cp "/tmp/predict_$name/report.md" "$out/$name.md" 2>/dev/null
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); m = r["measured"]
print(sys.argv[2], "|", round(1e3 * m["predicted_step_seconds"], 3), "|", round(1e3 * m["step_seconds"], 3), "|",
      "%+.1f %%" % (100 * m["step_error"]))' "/tmp/predict_$name/report.json" "$name" >>"$out/summary.txt" 2>&1
}
echo "run | predicted ms/step | measured ms/step | error" >"$out/summary.txt"
predict cavity3d_amg 200 cavity-3d --set 'numerics.preconditioner="amg"' --calibrate
predict channel 60 channel
predict channel_unstretched 60 channel --set 'mesh.stretch=[0.0,0.0,0.0]'
predict channel_nolesnoeig 60 channel --set 'physics.les="none"' --set 'numerics.time_step="cfl"' --set numerics.cfl=0.5
predict cavity3d_42 60 cavity-3d --set 'mesh.cells=[42,42,42]'
predict channel_pcg_amg_cfl 60 channel --set 'numerics.poisson="pcg"'
cat "$out/steps.txt" "$out/summary.txt"
