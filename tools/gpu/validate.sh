#!/usr/bin/env bash
# On a lent one-GPU machine: the validation set of scripts/validate.py for at most MINUTES, its runs
# kept in WORK on the machine's disk between calls (while it stays lent), each call resuming them; the
# files the analysis reads (each run's CSV files, the channel runs' last checkpoint) and the device's
# name are copied to OUT_DIR. Analyse them where matplotlib is: scripts/validate.py --no-run --work OUT_DIR.
# Runs resume only while the machine stays lent: one left running in the background (setsid) between
# calls dies with it when a call comes after the idle release, so copy OUT_DIR back in every call.
# Usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/validate.sh OUT_DIR [ONLY [MINUTES]]
# BUILD holds miniapp, built by tools/gpu/build.sh; ONLY as validate.py's --only (default: all runs).
set -uo pipefail
out=${1:?usage: tools/gpu/validate.sh OUT_DIR [ONLY [MINUTES]]}
only=${2:-}
minutes=${3:-8}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
work=${MINIAPP_VALIDATION_WORK:-/tmp/miniapp-validation}
mkdir -p "$out"
python3 scripts/validate.py --no-report --backend cuda --miniapp "$build/miniapp/miniapp" --work "$work" \
  --max-minutes "$minutes" --chunk-minutes "$(python3 -c "print(min(8, max(1, $minutes - 1.5)))")" ${only:+--only "$only"}
status=$?
for run in "$work"/*/; do
  name=$(basename "$run")
  mkdir -p "$out/$name"
  cp "$run"/*.csv "$out/$name/" 2>/dev/null
  if [[ $name == channel* ]]; then  # the newest complete generation's rank-0 file
    newest=$(ls "$run" | sed -n 's/^checkpoint_\([0-9]*\)\.complete$/\1/p' | sort -n | tail -1)
    [[ -n $newest ]] && cp "$run/checkpoint_${newest}_r0.bin" "$run/checkpoint_${newest}.complete" "$out/$name/"
  fi
done
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 > "$out/device.txt"
exit $status
