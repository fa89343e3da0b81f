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
