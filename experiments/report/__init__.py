"""wormsim's reports: docs/results.md from the sweeps' CSVs, and a report
for any sweep.

    python3 experiments/report [--results DIR] [--out FILE.md] [--img DIR]
    python3 experiments/report --sweep NAME|DIR|FILE.sweep [--metric COLUMN] [--def FILE.sweep]
                               [--results DIR] [--out FILE.md] [--img DIR]
    python3 experiments/report --check-def FILE.sweep --columns COLUMN,COLUMN..

(or `cd experiments && python3 -m report ...`; `make results` and `make
report SWEEP=NAME` run these.)

Without --sweep: docs/results.md and its figures (docs/img/*.png) from
the sweeps' CSVs (results/NAME/results.csv), the papers' numbers
(experiments/paper/) and the run files kept beside them
(results/NAME/kept/). Nothing is run: run the sweeps first (make
reproduce, or make sweep SWEEP=NAME); a sweep without a CSV gets a "Not
run yet" note. Set TSENG_TEST to the schedules' unit test (default
build/tests/test_tseng) for section 3's step table. Input no report can
be made of (no results directory, a CSV without a column the report
reads, a TSENG_TEST that fails) exits 2, naming it. Stopped (Ctrl-C,
SIGTERM, SIGHUP), it leaves no temporary file and no half-written page,
and exits 128 + the signal's number.

With --sweep: NAME (results/NAME) or a sweep's directory into report.md
and plots beside its results.csv (--out and --img move them): the metric
(--metric, default coll_ns) against the block length per machine, one
line per app; the largest link sharing per cell; the comparisons and the
paper's table its definition declares (--def, else the copy the sweep
keeps beside its CSV, DIR/sweep.def, else experiments/NAME.sweep; see
experiments/report/sweepdef.py); a heatmap of the slowest run when its
run directory is here; each run not ok with its reason.

With --check-def: checks a sweep definition's compare and paper lines
against its apps lines and the columns its sweep writes (--columns, the
header of results.csv), writing nothing; experiments/sweep.sh runs it
before any run. A line at fault exits 2, naming the file and line.

Needs Python 3 (standard library only), gnuplot (Debian gnuplot-nox) and,
for the heatmaps (experiments/heatmap.sh), jq.
"""
