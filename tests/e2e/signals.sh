# signals.sh: sourced by the e2e scripts that send signals.
#
# wait_caught PID: waits (up to 60 s) until process PID catches SIGINT
# (bit 2 of SigCgt in /proc/PID/status), so that a signal sent after it
# meets the command's handler and no timing decides the outcome.
wait_caught() {
    for _ in $(seq 6000); do
        mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null ||
               true)
        if [ -n "$mask" ] && (( 0x$mask & 2 )); then
            return 0
        fi
        sleep 0.01
    done
    echo "process $1 never took SIGINT"; exit 1
}

# stopped PID: waits (up to 60 s) for process PID, sent a signal that
# must end it, to end, and sets rc to its exit status. A process still
# there is a failure that names where it waits, not a test that never
# ends.
stopped() {
    for _ in $(seq 600); do
        [ -d "/proc/$1" ] && [ "$(awk '{ print $3 }' "/proc/$1/stat" \
                                    2>/dev/null)" != Z ] || break
        sleep 0.1
    done
    if [ -d "/proc/$1" ] &&
       [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]; then
        echo "process $1 did not end within 60 s of its signal; it waits in" \
             "$(cat "/proc/$1/wchan" 2>/dev/null || echo '?'):"
        cat "/proc/$1/stack" 2>/dev/null || true
        kill -KILL "$1" 2>/dev/null || true
        wait "$1" 2>/dev/null || true
        exit 1
    fi
    rc=0
    wait "$1" || rc=$?
}
