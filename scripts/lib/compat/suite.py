#!/usr/bin/env python3
"""One version's compatibility suite: kscope (release binary) against a running
cluster started by scripts/kafka-cluster, checked against Kafka's own tools of
that version. Called by scripts/compat.

    suite.py NAME VERSION MODE BOOTSTRAP OUTDIR

Writes OUTDIR/result.json ({feature: {"grade": ..., "reason": ...}}) and
OUTDIR/suite.log (every command run, what was expected and what came back).
Grades: ok, says-unsupported (kscope says in words that the cluster cannot do
it), wrong (kscope's answer is wrong or a cryptic error), n/a (the version has
no such feature), not-run (the suite could not set the check up: not kscope's
fault, but the cell is unknown).
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

NAME, VERSION, MODE, BOOTSTRAP, OUT = sys.argv[1:6]
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
KSCOPE = os.path.join(REPO, "target", "release", "kscope")
CLUSTER = os.path.join(REPO, "scripts", "kafka-cluster")
PROBE = os.path.join(REPO, "scripts", "kafka-probe.py")
RUN_DIR = os.path.join(os.environ.get("KSCOPE_RUN_DIR", os.path.join(REPO, ".run")), NAME)
sys.path.insert(0, HERE)
from features import CODECS, FEATURES  # noqa: E402
WM_TOPIC, WM_FIRST, WM_MORE = "wm-01", 300, 90
CODEC_RECORDS = 50

os.makedirs(OUT, exist_ok=True)
LOG = open(os.path.join(OUT, "suite.log"), "w", buffering=1)
results = {}


def log(*lines):
    for line in lines:
        LOG.write(str(line) + "\n")


def version_tuple(v):
    return tuple(int(x) for x in v.split("."))


def grade(feature, g, reason):
    results[feature] = {"grade": g, "reason": reason}
    log(f"==> {feature}: {g.upper()}: {reason}", "")
    print(f"  {feature:15} {g:17} {reason[:110]}", flush=True)


class Setup(Exception):
    """A step of the suite itself failed (a Kafka tool, a topic creation)."""


def run(cmd, stdin=None, timeout=60, check=False):
    log(f"$ {' '.join(cmd)}" + (f"   (stdin: {len(stdin.splitlines())} lines)" if stdin else ""))
    started = time.monotonic()
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        log(f"  timed out after {timeout}s", f"  stdout: {e.stdout!r}"[:2000], f"  stderr: {e.stderr!r}"[:2000])
        if check:
            raise Setup(f"{cmd[0]} {' '.join(cmd[1:4])}... timed out after {timeout}s")
        return 124, e.stdout or "", e.stderr or ""
    log(f"  exit {p.returncode} in {time.monotonic() - started:.1f}s")
    if p.stdout:
        log("  stdout: " + p.stdout[:3000].replace("\n", "\n          "))
    if p.stderr:
        log("  stderr: " + p.stderr[:3000].replace("\n", "\n          "))
    if check and p.returncode != 0:
        raise Setup(f"{os.path.basename(cmd[0])} {' '.join(cmd[1:5])}... exited {p.returncode}: {p.stderr.strip()[-300:]}")
    return p.returncode, p.stdout, p.stderr


def tool(cls, *args, stdin=None, timeout=90, check=True):
    return run([CLUSTER, "tool", "--name", NAME, cls, *args], stdin=stdin, timeout=timeout, check=check)


def tool_bg(cls, *args, stdin=None):
    """A Kafka tool started now, finished with finish()."""
    cmd = [CLUSTER, "tool", "--name", NAME, cls, *args]
    log(f"$ {' '.join(cmd)} &")
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if stdin is not None:
        p.stdin.write(stdin)
        p.stdin.close()
        p.stdin = None  # communicate() must not flush it again
    return (cmd, p)


def finish(job, timeout=120):
    cmd, p = job
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        log(f"  {cmd[4]} timed out after {timeout}s")
        raise Setup(f"{cmd[4]} timed out after {timeout}s")
    log(f"  [{cmd[4]} {' '.join(cmd[5:9])}...] exit {p.returncode}")
    if out:
        log("  stdout: " + out[:3000].replace("\n", "\n          "))
    if err:
        log("  stderr: " + err[:3000].replace("\n", "\n          "))
    if p.returncode != 0:
        raise Setup(f"{cmd[4]} exited {p.returncode}: {err.strip()[-300:]}")
    return out


def kscope(*args, timeout=60):
    return run([KSCOPE, "-b", BOOTSTRAP, *args], timeout=timeout)


def kscope_json(*args, timeout=60):
    rc, out, err = kscope(*args, "-o", "json", timeout=timeout)
    if rc != 0:
        raise Wrong(f"`kscope {' '.join(args)} -o json` exited {rc}: {err.strip()[-400:]}")
    try:
        return json.loads(out)
    except ValueError as e:
        raise Wrong(f"`kscope {' '.join(args)} -o json` printed no JSON ({e}): {out[:200]!r}")


class Wrong(Exception):
    """kscope's answer is wrong."""


# Checks that need nothing the setup makes.
INDEPENDENT = {"brokers", "quorum", "cluster"}


def check(feature, fn):
    log(f"---------------- {feature}")
    if state.get("setup_failed") and feature not in INDEPENDENT:
        grade(feature, "not-run", f"setup failed: {state['setup_failed']}")
        return
    try:
        fn()
    except Wrong as e:
        grade(feature, "wrong", str(e))
    except Setup as e:
        grade(feature, "not-run", f"setup failed: {e}")
    except Exception as e:  # a bug of the suite: keep it visible
        grade(feature, "not-run", f"suite error: {type(e).__name__}: {e}")


def wait_until(what, cond, deadline_s, step=0.2):
    end = time.monotonic() + deadline_s
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() >= end:
            raise Setup(f"{what}: not within {deadline_s}s")
        time.sleep(step)


def parse_group_describe(text):
    """ConsumerGroupCommand --describe: {group: {partition: (current, end, lag)}} for WM_TOPIC."""
    groups = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 6 and f[1] == WM_TOPIC and f[2].isdigit():
            cur = None if f[3] == "-" else int(f[3])
            lag = None if f[5] == "-" else int(f[5])
            groups.setdefault(f[0], {})[int(f[2])] = (cur, int(f[4]), lag)
    return groups


# ------------------------------------------------------------------ setup

has_848 = version_tuple(VERSION) >= (4, 0, 0)
state = {}


def create_topics(prefix, partitions):
    """PREFIX-01 with PARTITIONS partitions, RF 3. A ZooKeeper-mode broker takes
    CreateTopics only as the controller (NOT_CONTROLLER, error 41, elsewhere):
    each broker is asked in turn."""
    last = ""
    for addr in BOOTSTRAP.split(","):
        rc, _, err = run([sys.executable, PROBE, "create-topics", addr, prefix, "1", str(partitions), "3"])
        if rc == 0:
            return
        last = err.strip()
    raise Setup(f"no broker created {prefix}-01: {last[-200:]}")


def setup():
    log(f"Kafka {VERSION} ({MODE}), cluster {NAME}, bootstrap {BOOTSTRAP}", "")
    create_topics("wm", 3)
    create_topics("cfg", 1)
    for c in CODECS:
        create_topics(f"codec-{c}", 1)
    # Created is not yet everywhere: wait until Metadata shows every partition with a leader.
    want = {"wm-01": 3, "cfg-01": 1, **{f"codec-{c}-01": 1 for c in CODECS}}

    def led():
        rc, out, _ = run([sys.executable, PROBE, "brokers", BOOTSTRAP])
        ok = True
        for t, n in want.items():
            for p in range(n):
                rc, out, _ = run([sys.executable, PROBE, "leader", BOOTSTRAP, t, str(p)])
                ok = ok and rc == 0 and out.strip().isdigit() and int(out) > 0
        return ok
    wait_until("every new partition has a leader", led, 30, step=0.5)
    # Kafka's own producers, one per topic and codec, at once (each a JVM).
    jobs = []
    lines = "".join(f"k{i}:v{i}\n" for i in range(1, WM_FIRST + 1))
    jobs.append(tool_bg("ConsoleProducer", "--bootstrap-server", BOOTSTRAP, "--topic", WM_TOPIC,
                        "--property", "parse.key=true", "--property", "key.separator=:", stdin=lines))
    for c in CODECS:
        lines = "".join(f"{c}-{i}\n" for i in range(1, CODEC_RECORDS + 1))
        jobs.append(tool_bg("ConsoleProducer", "--bootstrap-server", BOOTSTRAP, "--topic", f"codec-{c}-01",
                            "--compression-codec", c, stdin=lines))
    jobs.append(tool_bg("ConfigCommand", "--bootstrap-server", BOOTSTRAP, "--alter", "--entity-type", "topics",
                        "--entity-name", "cfg-01", "--add-config",
                        "retention.ms=123456789,cleanup.policy=compact,max.message.bytes=2000000"))
    errors = []
    for j in jobs:
        try:
            finish(j)
        except Setup as e:
            errors.append(str(e))
    state["setup_errors"] = errors
    # Groups: a console consumer per group reads the first records and commits on close.
    jobs = [tool_bg("ConsoleConsumer", "--bootstrap-server", BOOTSTRAP, "--topic", WM_TOPIC, "--group", "g-classic",
                    "--from-beginning", "--max-messages", str(WM_FIRST), "--timeout-ms", "30000")]
    if has_848:
        jobs.append(tool_bg("ConsoleConsumer", "--bootstrap-server", BOOTSTRAP, "--topic", WM_TOPIC, "--group",
                            "g-848", "--consumer-property", "group.protocol=consumer",
                            "--from-beginning", "--max-messages", str(WM_FIRST), "--timeout-ms", "30000"))
    state["group_setup"] = {}
    for j, g in zip(jobs, ["g-classic", "g-848"]):
        try:
            out = finish(j)
            # Only the values: 4.2+ prints a deprecation notice on stdout too.
            n = sum(1 for line in out.splitlines() if re.fullmatch(r"v\d+", line))
            state["group_setup"][g] = None if n == WM_FIRST else f"the console consumer read {n} records, not {WM_FIRST}"
        except Setup as e:
            state["group_setup"][g] = str(e)
    lines = "".join(f"k{i}:v{i}\n" for i in range(WM_FIRST + 1, WM_FIRST + WM_MORE + 1))
    tool("ConsoleProducer", "--bootstrap-server", BOOTSTRAP, "--topic", WM_TOPIC,
         "--property", "parse.key=true", "--property", "key.separator=:", stdin=lines)
    # The truth, from this version's own tools.
    jobs = [tool_bg("ConsumerGroupCommand", "--bootstrap-server", BOOTSTRAP, "--describe", "--all-groups")]
    if MODE == "kraft":
        jobs.append(tool_bg("MetadataQuorumCommand", "--bootstrap-server", BOOTSTRAP, "describe", "--status"))
    out = finish(jobs[0])
    state["groups"] = parse_group_describe(out)
    if MODE == "kraft":
        m = re.search(r"LeaderId:\s+(\d+)", finish(jobs[1]))
        state["quorum_leader"] = int(m.group(1)) if m else None


# ------------------------------------------------------------------ checks

def c_brokers():
    got = kscope_json("get", "brokers")
    base = int(BOOTSTRAP.split(",")[0].rsplit(":", 1)[1])
    want = {i: base + i - 1 for i in (1, 2, 3)}
    have = {b["id"]: b["port"] for b in got}
    if have != want:
        raise Wrong(f"get brokers: expected ids/ports {want}, got {have}")
    grade("brokers", "ok", "ids 1-3 with their ports")


def c_topics():
    got = {t["name"]: t for t in kscope_json("get", "topics")}
    want = {WM_TOPIC: 3, "cfg-01": 1, **{f"codec-{c}-01": 1 for c in CODECS}}
    for name, parts in want.items():
        t = got.get(name)
        if t is None:
            raise Wrong(f"get topics: {name} missing (got {sorted(got)})")
        if t["partitions"] != parts or t["replication_factor"] != 3:
            raise Wrong(f"get topics: {name} expected {parts} partitions RF 3, got {t['partitions']} RF {t['replication_factor']}")
    grade("topics", "ok", f"{len(want)} topics with partitions and RF")


def c_partitions():
    truth = state["groups"].get("g-classic")
    if not truth:
        raise Setup("ConsumerGroupCommand gave no LOG-END-OFFSET for g-classic")
    got = {p["partition"]: p for p in kscope_json("get", "partitions") if p["topic"] == WM_TOPIC}
    hw = {p: got[p]["high_watermark"] for p in sorted(got)}
    want = {p: truth[p][1] for p in sorted(truth)}
    if hw != want:
        raise Wrong(f"get partitions: high watermarks {hw}, Kafka's LOG-END-OFFSET {want}")
    if sum(hw.values()) != WM_FIRST + WM_MORE:
        raise Wrong(f"get partitions: high watermarks sum to {sum(hw.values())}, {WM_FIRST + WM_MORE} records were produced")
    lw = {p: got[p]["low_watermark"] for p in got}
    if any(v != 0 for v in lw.values()):
        raise Wrong(f"get partitions: low watermarks {lw}, expected 0")
    grade("partitions", "ok", f"high watermarks {hw} = Kafka's log-end offsets, sum {WM_FIRST + WM_MORE}")


def c_group(feature, group, want_type):
    if state["group_setup"].get(group):
        raise Setup(state["group_setup"][group])
    truth = state["groups"].get(group)
    if not truth:
        raise Setup(f"ConsumerGroupCommand --describe shows no offsets of {group}")
    want = {p: v[2] for p, v in sorted(truth.items())}
    if sum(want.values()) != WM_MORE:
        raise Setup(f"Kafka's own lag of {group} is {want} (sum {sum(want.values())}), not {WM_MORE}")
    d = kscope_json("describe", "group", group)
    got = {o["partition"]: o["lag"] for o in d["offsets"] if o["topic"] == WM_TOPIC}
    got = dict(sorted(got.items()))
    committed = {o["partition"]: o["committed"] for o in d["offsets"] if o["topic"] == WM_TOPIC}
    want_committed = {p: v[0] for p, v in truth.items()}
    if got != want:
        raise Wrong(f"describe group {group}: lag per partition {got}, Kafka's ConsumerGroupCommand {want}")
    if committed != want_committed:
        raise Wrong(f"describe group {group}: committed {committed}, Kafka's CURRENT-OFFSET {want_committed}")
    if d.get("lag") != WM_MORE:
        raise Wrong(f"describe group {group}: total lag {d.get('lag')}, expected {WM_MORE}")
    if d.get("type") != want_type:
        raise Wrong(f"describe group {group}: type {d.get('type')!r}, expected {want_type!r}")
    listed = {g["group"]: g for g in kscope_json("get", "groups")}
    if group not in listed or listed[group].get("lag") != WM_MORE or listed[group].get("type") != want_type:
        raise Wrong(f"get groups: {group} is {listed.get(group)}, expected type {want_type} lag {WM_MORE}")
    grade(feature, "ok", f"lag {got} = ConsumerGroupCommand's, type {want_type}")


def c_codec(c):
    feature = f"consume-{c}"
    errs = [e for e in state["setup_errors"] if f"codec-{c}-01" in e]
    if errs:
        raise Setup(errs[0])
    rc, out, err = kscope("consume", f"codec-{c}-01", "--from", "beginning", "-n", str(CODEC_RECORDS),
                          "-o", "json", timeout=60)
    if rc != 0:
        raise Wrong(f"consume codec-{c}-01 exited {rc}: {err.strip()[-300:]}")
    recs = [json.loads(line) for line in out.splitlines() if line.strip()]
    values = [r.get("value") for r in recs]
    want = [f"{c}-{i}" for i in range(1, CODEC_RECORDS + 1)]
    if values != want:
        raise Wrong(f"consume codec-{c}-01: {len(values)} records, first differing "
                    f"{next(((i, a, b) for i, (a, b) in enumerate(zip(values, want)) if a != b), None)}; "
                    f"expected {CODEC_RECORDS} values {want[0]}..{want[-1]}")
    codecs = {r.get("codec") for r in recs}
    if codecs != {c}:
        raise Wrong(f"consume codec-{c}-01: records report codec {codecs}, produced with {c}")
    grade(feature, "ok", f"{CODEC_RECORDS} records in order, codec {c}")


def c_config():
    errs = [e for e in state["setup_errors"] if "cfg-01" in e or "ConfigCommand" in e]
    if errs:
        raise Setup(errs[0])
    got = {c["name"]: c for c in kscope_json("get", "config", "topic", "cfg-01")}
    want = {"retention.ms": ("123456789", "DYNAMIC_TOPIC_CONFIG"),
            "cleanup.policy": ("compact", "DYNAMIC_TOPIC_CONFIG"),
            "max.message.bytes": ("2000000", "DYNAMIC_TOPIC_CONFIG"),
            "segment.bytes": ("16777216", "STATIC_BROKER_CONFIG")}
    for k, (v, src) in want.items():
        c = got.get(k)
        if c is None or c.get("value") != v or c.get("source") != src:
            raise Wrong(f"get config topic cfg-01: {k} expected {v} ({src}), got "
                        f"{None if c is None else (c.get('value'), c.get('source'))}")
    grade("topic-config", "ok", "3 dynamic topic configs and a static broker one, with sources")


def c_group_config():
    rc, out, err = kscope("get", "config", "group", "g-classic", "-o", "json")
    if not has_848:
        # No GROUP config resource before 4.0: kscope must say so in words.
        if rc != 0 and "need Kafka 4.0" in err:
            grade("group-config", "says-unsupported", err.strip()[-200:])
            return
        raise Wrong(f"get config group on Kafka {VERSION}: exit {rc}, expected 'group configs need "
                    f"Kafka 4.0 or newer': {err.strip()[-300:]}")
    if rc != 0:
        raise Wrong(f"get config group g-classic exited {rc}: {err.strip()[-300:]}")
    got = {c["name"]: c for c in json.loads(out)}
    timeout = got.get("consumer.session.timeout.ms")
    if timeout is None or timeout.get("value") != "45000":
        raise Wrong(f"get config group g-classic: consumer.session.timeout.ms {timeout}, expected the default 45000")
    grade("group-config", "ok", f"{len(got)} group configs, consumer.session.timeout.ms 45000")


def c_sizes():
    truth, per = 0, {}
    for node in sorted(os.listdir(RUN_DIR)):
        data = os.path.join(RUN_DIR, node, "data")
        if not node.startswith("node-") or not os.path.isdir(data):
            continue
        for d in os.listdir(data):
            if d.rsplit("-", 1)[0] == WM_TOPIC:
                s = sum(os.path.getsize(os.path.join(data, d, f))
                        for f in os.listdir(os.path.join(data, d)) if f.endswith(".log"))
                truth += s
                per[f"{node}/{d}"] = s
    d = kscope_json("describe", "topic", WM_TOPIC)
    log(f"  segment files on disk: {per} = {truth}")
    if d.get("size_bytes") != truth:
        raise Wrong(f"describe topic {WM_TOPIC}: size_bytes {d.get('size_bytes')}, the replicas' segment files "
                    f"on disk add up to {truth}")
    grade("log-dir-sizes", "ok", f"size_bytes {truth} = segment files on disk (3 replicas)")


def c_quorum():
    rc, out, err = kscope("get", "quorum", "-o", "json")
    if MODE == "zookeeper":
        text = (out + err).strip()
        if re.search(r"zookeeper|no kraft|not .*kraft|kraft.*not|without .*quorum|no .*quorum", text, re.I):
            grade("quorum", "says-unsupported", f"exit {rc}: {text[-200:]}")
        else:
            raise Wrong(f"get quorum on a ZooKeeper cluster should say there is no KRaft quorum; exit {rc}: {text[-300:]}")
        return
    if rc != 0:
        raise Wrong(f"get quorum exited {rc}: {err.strip()[-300:]}")
    rows = json.loads(out)
    leaders = {r.get("leader_id") for r in rows} | {r["node_id"] for r in rows if r.get("role") == "leader"}
    if leaders != {state.get("quorum_leader")} or sorted(r["node_id"] for r in rows if r.get("role") in ("leader", "voter")) != [1, 2, 3]:
        raise Wrong(f"get quorum: leader(s) {leaders} and voters {[(r['node_id'], r.get('role')) for r in rows]}, "
                    f"MetadataQuorumCommand says LeaderId {state.get('quorum_leader')} of voters 1-3")
    grade("quorum", "ok", f"leader {state['quorum_leader']} = MetadataQuorumCommand's, voters 1-3")


def c_cluster():
    rc, out, err = kscope("get", "cluster", "-o", "json")
    if rc != 0 or "warning" in err:
        raise Wrong(f"get cluster exited {rc}: {err.strip()[-400:]}")
    d = json.loads(out)
    if MODE == "kraft" and (d.get("quorum") or {}).get("leader_id") != state.get("quorum_leader"):
        raise Wrong(f"get cluster: quorum leader {(d.get('quorum') or {}).get('leader_id')}, expected {state.get('quorum_leader')}")
    grade("cluster", "ok", f"cluster id, controller {d.get('controller_id')}, no warning")


def c_watch():
    parts = {p["partition"]: p for p in kscope_json("get", "partitions") if p["topic"] == WM_TOPIC}
    p0 = parts[0]
    target = next(r for r in p0["replicas"] if r != p0["leader"])
    cmd = [KSCOPE, "-b", BOOTSTRAP, "watch", "leaders", WM_TOPIC, "--interval", "1", "-o", "json"]
    log(f"$ {' '.join(cmd)} &   (leader of {WM_TOPIC}-0 is {p0['leader']}; moving it to {target})")
    outf = open(os.path.join(OUT, "watch.json"), "w")
    errf = open(os.path.join(OUT, "watch.err"), "w")
    w = subprocess.Popen(cmd, stdout=outf, stderr=errf, start_new_session=True)
    try:
        ports = {a.rsplit(":", 1)[1] for a in BOOTSTRAP.split(",")}

        def connected():
            if w.poll() is not None:
                raise Wrong(f"watch leaders exited {w.returncode}: {open(errf.name).read()[-300:]}")
            ss = subprocess.run(["ss", "-tnpH", "state", "established"], capture_output=True, text=True).stdout
            return any(f"pid={w.pid}," in line and any(f":{p} " in line for p in ports) for line in ss.splitlines())
        wait_until("watch leaders connected to a broker", connected, 20)
        rc, _, err = run([CLUSTER, "move-leader", "--name", NAME, WM_TOPIC, "0", str(target)], timeout=120)
        if rc != 0:
            raise Setup(f"move-leader exited {rc}: {err.strip()[-300:]}")

        def event():
            if w.poll() is not None:
                raise Wrong(f"watch leaders exited {w.returncode}: {open(errf.name).read()[-300:]}")
            for line in open(outf.name):
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if e.get("kind") == "leader_changed" and e.get("topic") == WM_TOPIC and e.get("partition") == 0:
                    return e
            return None
        try:
            e = wait_until("leader_changed event", event, 20)
        except Setup:
            raise Wrong(f"watch leaders printed no leader_changed for {WM_TOPIC}-0 within 20 s of the move to "
                        f"{target}; it printed: {open(outf.name).read()[-400:]!r}")
        if e.get("to") != target or e.get("from") != p0["leader"]:
            raise Wrong(f"watch leaders: {e}, expected from {p0['leader']} to {target}")
        grade("watch-leaders", "ok", f"leader_changed {WM_TOPIC}-0 {e['from']} -> {e['to']}")
    finally:
        os.killpg(w.pid, signal.SIGTERM)
        w.wait(timeout=10)
        log("  watch output: " + open(outf.name).read()[-1500:], "  watch stderr: " + open(errf.name).read()[-800:])


def c_tui():
    session = f"compat-tui-{VERSION}".replace(".", "_")
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    cmd = f"{KSCOPE} -b {BOOTSTRAP}; echo kscope-exited-$?; sleep 30"
    log(f"$ tmux new-session -d -s {session} -x 200 -y 50 '{cmd}'")
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "200", "-y", "50", cmd], check=True)
    names = [WM_TOPIC, "cfg-01"] + [f"codec-{c}-01" for c in CODECS]
    bad = re.compile(r"error|fail|panick|unsupported|not support|warning|⚠|kscope-exited", re.I)
    screen = ""
    try:
        def shown():
            nonlocal screen
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True,
                                    text=True).stdout
            if "kscope-exited" in screen:
                return True
            return all(n in screen for n in names) and "brokers: 3" in screen
        try:
            wait_until("the TUI's topics list", shown, 30)
        except Setup:
            raise Wrong("the TUI did not show the topics list within 30 s; screen:\n" + screen)
        # Banners (an error, a warning about a request the cluster refused) come
        # with the first refreshes: watch the screen for 3 s more.
        end = time.monotonic() + 3
        while time.monotonic() < end:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True,
                                    text=True).stdout
            hits = [line.strip() for line in screen.splitlines() if bad.search(line)]
            if hits:
                raise Wrong("the TUI's first screen shows: " + " | ".join(hits)[:400])
            time.sleep(0.25)
        log("  screen:\n" + screen)
        grade("tui", "ok", f"topics list with all {len(names)} topics, no error or warning banner")
    finally:
        log("  last screen:\n" + screen)
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def main():
    try:
        setup()
    except Setup as e:
        log(f"setup failed: {e}")
        state["setup_failed"] = str(e)
    check("brokers", c_brokers)
    check("topics", c_topics)
    check("partitions", c_partitions)
    check("group-classic", lambda: c_group("group-classic", "g-classic", "classic"))
    if has_848:
        check("group-consumer", lambda: c_group("group-consumer", "g-848", "consumer"))
    else:
        grade("group-consumer", "n/a", f"Kafka {VERSION} has no KIP-848 consumer groups (4.0+)")
    for c in CODECS:
        check(f"consume-{c}", lambda c=c: c_codec(c))
    check("topic-config", c_config)
    check("group-config", c_group_config)
    check("log-dir-sizes", c_sizes)
    check("quorum", c_quorum)
    check("cluster", c_cluster)
    check("tui", c_tui)
    check("watch-leaders", c_watch)
    with open(os.path.join(OUT, "result.json"), "w") as f:
        json.dump({k: results[k] for k in FEATURES if k in results}, f, indent=1)


if __name__ == "__main__":
    main()
