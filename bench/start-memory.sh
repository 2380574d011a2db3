#!/bin/bash
# The embedded server's resident memory at start: the built server (npm run build) on
# PGlite, on a fresh DATA_DIR (its first start, which creates the database) and then started again
# on the same folder. Prints VmRSS (resident now) and VmHWM (the most it held) once /api/health
# answers and 3 s more have passed.  Usage: bash bench/start-memory.sh
set -u
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
port=${PORT:-3917}
for start in first again; do
  DATA_DIR=$dir PORT=$port node apps/api/dist/server.js > "$dir/server-$start.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 240); do curl -sf "localhost:$port/api/health" > /dev/null && break; sleep 0.5; done
  sleep 3
  echo "$start start: $(grep -E 'VmRSS|VmHWM' /proc/$pid/status | tr -s ' \t\n' ' ')"
  kill $pid
  wait $pid 2> /dev/null
done
rm -rf "$dir"
