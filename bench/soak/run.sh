#!/usr/bin/env bash
# The soak: the picker (examples/picker.yaml, the chart's 717 MiB heap) and the local gateway in
# front of four simulated pods (bench/soak/fleet.yaml), under SoakTraffic's mix for MINUTES. Once a
# minute it samples each process's RSS, threads and open descriptors (from /proc) and the picker's
# heap and series (from /metrics); every 5 minutes it takes a class histogram of each (jcmd, which
# collects first: live objects only). It ends with the client's answers by kind and status, and
# what grew in each heap between the first histogram and the last (HistogramDiff).
# Linux only (/proc). docs/benchmarks.md, "Soak".
#
#   bench/soak/run.sh [MINUTES] [RATE] [OUT]      defaults: 30 minutes, 20 requests/s, target/soak
set -euo pipefail
MINUTES=${1:-30}
RATE=${2:-20}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${3:-$ROOT/target/soak}
cd "$ROOT"
./pointsman build
JAR=deploy/image/target/pointsman.jar
rm -rf "$OUT" && mkdir -p "$OUT"
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT

started() { # NAME LOG LINE: waits up to 60 s for LINE in LOG, or fails with the log
  for _ in $(seq 120); do
    grep -q "$3" "$2" 2>/dev/null && return 0
    sleep 0.5
  done
  echo "soak: $1 did not start (its log, $2):" >&2
  cat "$2" >&2
  exit 1
}

./pointsman simulate --config bench/soak/fleet.yaml > "$OUT/simulate.log" 2>&1 &
PIDS+=($!)
started simulate "$OUT/simulate.log" "l4-b http"
POINTSMAN_JAVA_OPTS="-Xms717m -Xmx717m" ./pointsman picker --config examples/picker.yaml \
  > "$OUT/picker.log" 2>&1 &
PICKER=$!
PIDS+=($PICKER)
started picker "$OUT/picker.log" "pointsman picker: ext_proc on"
POINTSMAN_JAVA_OPTS="-Xms512m -Xmx512m" ./pointsman local-gateway --config bench/soak/gateway.yaml \
  > "$OUT/gateway.log" 2>&1 &
GATEWAY=$!
PIDS+=($GATEWAY)
started local-gateway "$OUT/gateway.log" "pointsman local-gateway: listening"
JAVA_BIN=$(dirname "$(readlink "/proc/$PICKER/exe")")

"$JAVA_BIN/java" -cp "$JAR" dev.pointsman.bench.soak.SoakTraffic http://127.0.0.1:8443 "$RATE" \
  $((MINUTES * 60)) > "$OUT/client.log" 2>&1 &
CLIENT=$!
PIDS+=($CLIENT)

proc() { # PID: rss_kb threads fds
  printf 'rss_kb=%s threads=%s fds=%s' "$(awk '/^VmRSS/{print $2}' "/proc/$1/status")" \
    "$(awk '/^Threads/{print $2}' "/proc/$1/status")" "$(ls "/proc/$1/fd" | wc -l)"
}
histograms() { # LABEL
  "$JAVA_BIN/jcmd" "$PICKER" GC.class_histogram > "$OUT/picker-histogram-$1.txt"
  "$JAVA_BIN/jcmd" "$GATEWAY" GC.class_histogram > "$OUT/gateway-histogram-$1.txt"
  printf '%s live: picker %s B, gateway %s B\n' "$1" \
    "$(tail -1 "$OUT/picker-histogram-$1.txt" | awk '{print $3}')" \
    "$(tail -1 "$OUT/gateway-histogram-$1.txt" | awk '{print $3}')" | tee -a "$OUT/samples.txt"
}

START=$(date +%s)
FIRST=""
LAST=""
while kill -0 "$CLIENT" 2>/dev/null; do
  MIN=$(( ($(date +%s) - START) / 60 ))
  METRICS=$(curl -s http://127.0.0.1:9090/metrics)
  printf 'minute %s picker %s heap=%s series=%s | gateway %s\n' "$MIN" "$(proc "$PICKER")" \
    "$(awk '/^jvm_memory_used_bytes.*area="heap"/{s+=$NF} END{printf "%d", s}' <<< "$METRICS")" \
    "$(grep -vc '^#' <<< "$METRICS")" "$(proc "$GATEWAY")" >> "$OUT/samples.txt"
  if [ "$MIN" -ge 5 ] && [ $((MIN % 5)) -eq 0 ] && [ "$MIN" != "$LAST" ]; then
    histograms "$MIN"
    FIRST=${FIRST:-$MIN}
    LAST=$MIN
  fi
  sleep $((60 - ($(date +%s) - START) % 60))
done
histograms end
curl -s http://127.0.0.1:9090/metrics > "$OUT/picker-metrics.txt"
curl -s http://127.0.0.1:9901/metrics > "$OUT/gateway-metrics.txt"
tail -n 30 "$OUT/client.log"
for role in picker gateway; do
  echo "== $role: what grew from minute ${FIRST:-end} to the end"
  "$JAVA_BIN/java" -cp "$JAR" dev.pointsman.bench.soak.HistogramDiff \
    "$OUT/$role-histogram-${FIRST:-end}.txt" "$OUT/$role-histogram-end.txt" 15
done
echo "soak: samples in $OUT/samples.txt"
