# Sourced by the whole-process benchmarks (scripts/bench-follow, bench-idle,
# bench-scale): the release kscope TUI in a detached tmux session, driven by
# keys and read off its pane, and samplers of its CPU time and memory from
# /proc. Not a script of its own.
#
# The caller sets, before calling these:
#   bench     its name, for messages (e.g. bench=bench-idle)
#   session   the tmux session's name
#   work      a temp dir: the TUI's HOME and XDG dirs (no config file unless
#             the caller writes one there)
# tui_start sets `pid`, which the samplers read.
# shellcheck shell=bash disable=SC2154

# wait_screen's deadline in seconds, how often it looks, and how it matches
# (grep -F: a fixed string; -E: a regular expression).
wait_screen_seconds=60
wait_screen_poll=0.2
wait_screen_match=-F

# tui_start COMMAND: run COMMAND (the kscope binary and its arguments, any
# VAR=VALUE first) in a detached 160x45 tmux session with HOME and XDG dirs
# in $work, and set `pid` to the pane's process. `exec` twice over: the
# pane's process is kscope itself, not a shell or env.
tui_start() {
    tmux new-session -d -x 160 -y 45 -s "$session" \
        "exec env HOME=$work XDG_CONFIG_HOME=$work/config XDG_STATE_HOME=$work/state XDG_CACHE_HOME=$work/cache $1"
    pid=$(tmux display-message -p -t "$session" '#{pane_pid}')
}

# wait_screen TEXT: until the pane shows TEXT, or exit 1 (showing the pane)
# after $wait_screen_seconds.
wait_screen() {
    local deadline=$((SECONDS + wait_screen_seconds))
    until tmux capture-pane -p -t "$session" | grep -q "$wait_screen_match" -- "$1"; do
        [ $SECONDS -lt $deadline ] || {
            echo "$bench: the screen never showed '$1'; it was:" >&2
            tmux capture-pane -p -t "$session" >&2
            exit 1
        }
        sleep "$wait_screen_poll"
    done
}

# tui_command TEXT: type `:TEXT` and Enter (the TUI's command line).
tui_command() {
    tmux send-keys -t "$session" ":" && tmux send-keys -t "$session" -l "$1" &&
        tmux send-keys -t "$session" Enter
}

# cpu_ticks: utime + stime of $pid (all its threads), in clock ticks
# (fields 14 and 15 of /proc/PID/stat, counted after the comm).
cpu_ticks() {
    sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}'
}

# status_kb KEY: a kB field of /proc/$pid/status (VmRSS, VmHWM).
status_kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$pid/status"; }

# wakeups: voluntary context switches of every thread of $pid (a thread
# going to sleep).
wakeups() {
    cat /proc/"$pid"/task/*/status 2>/dev/null | awk '$1 == "voluntary_ctxt_switches:" {n += $2} END {print n}'
}
