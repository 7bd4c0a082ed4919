"""The command line (usage: experiments/report/__init__.py): options,
their checks, and which report to write. Bad use, or input no report
can be made of (SweepError), exits 2, naming what was wrong and what is
accepted; a missing tool exits 1."""

import os
import shutil
import signal
import sys

from . import __doc__ as USAGE
from . import document, sweep_report
from .context import ROOT, Context, remove_scratch, shown, warn
from .csvio import SweepError

VALUES = {"--results": "DIR", "--out": "FILE.md", "--img": "DIR",
          "--sweep": "NAME|DIR|FILE.sweep", "--metric": "COLUMN", "--def": "FILE.sweep",
          "--check-def": "FILE.sweep", "--columns": "COLUMN,COLUMN.."}
SWEEP_ONLY = ("--metric", "--def")
CHECK_DEF = ("--check-def", "--columns")   # together, and with no other option
ACCEPTED = ", ".join("%s %s" % kv for kv in VALUES.items()) + ", -h, --help"
TOOLS = (("gnuplot", "gnuplot-nox"), ("jq", "jq"))


class UsageError(Exception):
    pass


class Stopped(BaseException):
    """A stop signal (SIGTERM, SIGHUP) raised where the report stood, so
    that its scratch directory and half-written files are removed on the
    way out, as a Ctrl-C's KeyboardInterrupt does."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def on_stop(signum, frame):
    for s in STOP_SIGNALS:   # a second stop does not break off the clean-up
        signal.signal(s, signal.SIG_IGN)
    raise Stopped(signum)


def parse(argv):
    """{option: value} of the command line; UsageError on bad use."""
    opts = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if arg in ("-h", "--help"):
            opts["help"] = True
        elif name in VALUES:
            if not eq:
                if i + 1 >= len(argv):
                    raise UsageError("%s needs a value (%s)" % (arg, VALUES[arg]))
                i += 1
                value = argv[i]
            if value == "" and name != "--sweep":   # an empty SWEEP: find_sweep names the accepted
                raise UsageError("%s needs a value (%s), not an empty one" % (name, VALUES[name]))
            opts[name] = value
        elif arg.startswith("-"):
            raise UsageError("unknown option '%s'; accepted: %s" % (arg, ACCEPTED))
        else:
            raise UsageError("unknown argument '%s' (it takes options only: %s)" % (arg, ACCEPTED))
        i += 1
    for o in SWEEP_ONLY:
        if o in opts and "--sweep" not in opts:
            raise UsageError("%s applies to a sweep's report only: give --sweep NAME|DIR too" % o)
    if any(o in opts for o in CHECK_DEF):
        others = [o for o in opts if o not in CHECK_DEF + ("help",)]
        if others or not all(o in opts for o in CHECK_DEF):
            raise UsageError("--check-def FILE.sweep and --columns COLUMN,COLUMN.. go together, and with no other "
                             "option%s" % (" (not %s)" % ", ".join(others) if others else ""))
    return opts


def missing_tool():
    """The message for a tool the reports need that is not installed."""
    for cmd, package in TOOLS:
        if shutil.which(cmd) is None:
            return "needs %s (Debian package %s; tests/check-deps.sh report)" % (cmd, package)
    return None


def write_atomically(path, text):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    try:
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    except BaseException:
        if os.path.exists(path + ".tmp"):
            os.remove(path + ".tmp")
        raise


def results_page(opts, tseng_test):
    results = opts.get("--results", os.path.join(ROOT, "results"))
    if not os.path.isdir(results):
        raise SweepError("no results directory %s (run the sweeps first: make reproduce, or make sweep "
                         "SWEEP=NAME; or name one with --results DIR)" % shown(results))
    out = opts.get("--out", os.path.join(ROOT, "docs", "results.md"))
    img = opts.get("--img", os.path.join(ROOT, "docs", "img"))
    os.makedirs(img, exist_ok=True)
    ctx = Context(results, img, os.path.dirname(os.path.abspath(out)))
    try:
        write_atomically(out, document.build(ctx, tseng_test))
    finally:
        ctx.close()
    return out, img


def sweep_page(opts, tseng_test):
    results = opts.get("--results", os.path.join(ROOT, "results"))
    name, sweep_dir = sweep_report.find_sweep(opts["--sweep"], results)
    definition = sweep_report.definition_of(name, ROOT, opts.get("--def"), sweep_dir)
    if definition is None:
        warn("no sweep definition for %s (%s): its report has no comparison or paper's table; name one with "
             "--def FILE.sweep (make report DEF=)" % (name, " nor ".join(
                 shown(p) for p in sweep_report.definition_places(name, ROOT, sweep_dir))))
    out = opts.get("--out", os.path.join(sweep_dir, "report.md"))
    img = opts.get("--img", sweep_dir)
    os.makedirs(img, exist_ok=True)
    ctx = Context(results, img, os.path.dirname(os.path.abspath(out)))
    try:
        text = sweep_report.build(ctx, opts["--sweep"], sweep_dir, opts.get("--metric", "coll_ns"), definition,
                                  tseng_test)
        write_atomically(out, text)
    finally:
        ctx.close()
    return out, img


def check_definition(definition, header):
    """Exit status of checking a sweep definition's report lines before
    its sweep runs (sweep_report.check_definition): 0, or 2 naming the
    line at fault. Draws nothing, so it needs no gnuplot."""
    try:
        if not os.path.isfile(definition):
            raise SweepError("no sweep definition %s" % definition)
        sweep_report.check_definition(definition, ROOT, header)
    except SweepError as e:
        print("report: %s" % e, file=sys.stderr)
        return 2
    return 0


def main(argv):
    """The command's exit status; a stop (SIGTERM, SIGHUP, or Ctrl-C's
    SIGINT) ends it with 128 + the signal's number once its temporary
    files are gone."""
    before = {s: signal.signal(s, on_stop) for s in STOP_SIGNALS}
    try:
        return report(argv)
    except (Stopped, KeyboardInterrupt) as e:
        signum = e.signum if isinstance(e, Stopped) else signal.SIGINT
        remove_scratch()
        print("report: stopped by %s; its temporary files are removed" % signal.Signals(signum).name,
              file=sys.stderr)
        return 128 + signum
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def report(argv):
    try:
        opts = parse(argv)
    except UsageError as e:
        print("report: %s" % e, file=sys.stderr)
        return 2
    if opts.get("help"):
        print(USAGE.strip("\n"))
        return 0
    if "--check-def" in opts:
        return check_definition(opts["--check-def"], opts["--columns"].split(","))
    problem = missing_tool()
    if problem:
        print("report: " + problem, file=sys.stderr)
        return 1
    tseng_test = os.environ.get("TSENG_TEST") or os.path.join(ROOT, "build", "tests", "test_tseng")
    try:
        out, img = (sweep_page if "--sweep" in opts else results_page)(opts, tseng_test)
    except SweepError as e:
        print("report: %s" % e, file=sys.stderr)
        return 2
    print("wrote %s and %s/" % (out, img.rstrip("/")), file=sys.stderr)
    return 0
