#!/bin/bash
# The app's resident memory once a launch's background work is done:
# `bash Tests/benchmarks/quiet_memory.sh HOME [BINARY] [DISPLAY]`.
#
# Launches BINARY (default $IMAGE_GALLERY_BIN, else .build/release/image-gallery) with HOME as its home (a benchmark
# home: million.py's million-N-NAME, versus_gthumb.py's ours-N) on its own Xvfb (display DISPLAY, default 77) with
# Metacity, then reads its processor time every 2 s: once it has grown by less than 0.1 s in each of five readings in a
# row after the first 40 s (or after 300 s), prints the seconds waited, the processor time and VmHWM and VmRSS from
# /proc/PID/status, and ends the app. The app writes to HOME as any launch does. Not a test.
set -eu
home=$1
binary=${2:-${IMAGE_GALLERY_BIN:-.build/release/image-gallery}}
display=${3:-77}
export HOME=$home DISPLAY=:$display GDK_BACKEND=x11 NO_AT_BRIDGE=1
Xvfb ":$display" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 1
metacity --no-composite >/dev/null 2>&1 &
wm=$!
dbus-run-session -- bash -c '
"$0" >/dev/null 2>&1 &
app=$!
start=$(date +%s) previous=0 calm=0
while sleep 2; do
    ticks=$(awk "{print \$14 + \$15}" /proc/$app/stat)
    now=$(date +%s)
    if [ $((now - start)) -gt 40 ] && [ $((ticks - previous)) -lt 10 ]; then calm=$((calm + 1)); else calm=0; fi
    previous=$ticks
    if [ $calm -ge 5 ] || [ $((now - start)) -gt 300 ]; then break; fi
done
echo "quiet after $((now - start)) s, processor time $(awk "{print (\$14 + \$15) / 100}" /proc/$app/stat) s:" \
    $(grep -E "VmHWM|VmRSS" /proc/$app/status)
kill $app
wait $app || true' "$binary" 2>/dev/null
kill $wm $xvfb
