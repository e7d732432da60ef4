# Sourced by the benchmarks (scripts/bench-*): the release kscope TUI in a
# detached tmux session, driven by keys and read off its pane; samplers of
# its CPU time and memory from /proc; and the checks and waits the scripts
# share (tools installed, a cluster env, a port listening). Not a script of
# its own.
#
# The caller sets, before calling these:
#   bench     its name, for messages (e.g. bench=bench-idle)
#   session   the tmux session's name (the tmux driver)
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
tui_command() { tui_type ":" "$1"; }

# tui_filter TEXT: type `/TEXT` and Enter (filter the screen's rows).
tui_filter() { tui_type "/" "$1"; }

# tui_type KEY TEXT: press KEY, type TEXT literally, then Enter.
tui_type() {
    tmux send-keys -t "$session" "$1" && tmux send-keys -t "$session" -l "$2" &&
        tmux send-keys -t "$session" Enter
}

# env_run COMMAND...: run COMMAND with HOME and the XDG dirs in $work, as
# tui_start runs the TUI (for the CLI beside it).
env_run() {
    env HOME="$work" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache" "$@"
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

# Clock ticks per second, for cpu_ticks.
ticks=$(getconf CLK_TCK)

# sample SECONDS STEP: watch $pid for SECONDS, reading VmRSS every STEP
# seconds. Sets cpu0/cpu1 (cpu_ticks before and after), wake0/wake1
# (wakeups), wall0/wall1 (`date +%s.%N`) and rss_kb (the VmRSS samples in
# KiB, space separated), for the caller's summary.
sample() {
    local i
    rss_kb=""
    cpu0=$(cpu_ticks) wake0=$(wakeups) wall0=$(date +%s.%N)
    for i in $(seq "$2" "$2" "$1"); do
        sleep "$2"
        rss_kb="$rss_kb $(status_kb VmRSS)"
    done
    cpu1=$(cpu_ticks) wake1=$(wakeups) wall1=$(date +%s.%N)
}

# since EPOCH: the time since EPOCH (`date +%s.%N`), e.g. `1.23 s`.
since() { python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.2f} s')" "$1"; }

# load_avg: the 1, 5 and 15 minute load averages.
load_avg() { cut -d' ' -f1-3 /proc/loadavg; }

# wait_port PORT SECONDS: until something accepts connections on
# 127.0.0.1:PORT; return 1 after SECONDS.
wait_port() {
    local deadline=$((SECONDS + $2))
    until (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}

# need TOOL...: say which TOOL is not installed and return 1 (the caller
# exits with its own status).
need() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$bench: '$tool' is not installed" >&2; return 1; }
    done
}

# need_cluster_env FILE: exit 2 unless FILE (the cluster.env that
# scripts/kafka-cluster writes) exists.
need_cluster_env() {
    [ -f "$1" ] || { echo "$bench: no cluster env at $1 (scripts/kafka-cluster up)" >&2; exit 2; }
}
