"""Section 1's figures: time against block length per mesh and against
node count, with the paper's times and model; the per-link load of PEX on
the 8x8 mesh (a kept run's links.csv)."""

import os

from . import csvio, formulas, kept as keep
from .plot import Series, draw, heatmap as draw_heatmap, quote

APPS = ("alltoall_pex", "alltoall_gen", "alltoall_pex_gen", "alltoall_pex_gen_shift")
MODEL_APPS = ("alltoall_pex", "alltoall_gen")
NODE_PLOT_LENGTHS = (1024, 16384)
MODEL_STEP = 1.189207     # 2^(1/4): four model points per doubling of L
HEATMAP_CELL = dict(app="alltoall_pex", dims="8x8", len="16384")


def app_label(app):
    """alltoall_pex_gen -> PEX-GEN."""
    return app[len("alltoall_"):].upper().replace("_", "-")


def model_points(app, p, c, alpha, beta):
    points, length = [], 256.0
    while length <= 16384 * 1.01:
        points.append((length, formulas.thakur_time(app, p, c, length, alpha, beta)))
        length *= MODEL_STEP
    return points


def shape_plot(ctx, shape, cells, alpha, beta):
    """thakur-SHAPE.png: emulated, paper and model times against L."""
    mine = [c for c in cells if c["paper_shape"] == shape]
    p, c = csvio.paper_mesh(shape)
    series, color = [], 0
    for app in APPS:
        of_app = [x for x in mine if x["app"] == app]
        if not of_app:
            continue
        color += 1
        name = app_label(app)
        emu = sorted((int(x["len"]), x.emu) for x in of_app if x.emu is not None)
        pap = sorted((int(x["len"]), x.paper) for x in of_app)
        series.append(Series(emu, "using 1:2 with linespoints lw 2 pt 7 lc %d title %s" % (color, quote(name + " emulated"))))
        series.append(Series(pap, "using 1:2 with points pt 6 ps 1.5 lc %d title %s" % (color, quote(name + " paper"))))
        if app in MODEL_APPS:
            series.append(Series(model_points(app, p, c, alpha, beta),
                                 "using 1:2 with lines dt 2 lw 1.5 lc %d title %s" % (color, quote(name + " model (paper, sec. 3)"))))
    out, link = ctx.image("thakur-%s.png" % shape)
    settings = ["set title " + quote("Complete exchange on a %s mesh (paper rows x columns; dims %s), delta preset"
                                     % (shape, mine[0]["dims"])),
                "set logscale xy; set xlabel 'block length (bytes)'; set ylabel 'time (s)'",
                "set xrange [200:21000]; set xtics (256, 1024, 4096, 8192, 16384); set key top left; set grid"]
    return link if draw(ctx, out, settings, series) else None


def nodes_plot(ctx, length, cells, paper_rows, alpha, beta):
    """thakur-nodes-L.png: PEX and GEN against the node count; its link,
    or None when it was not drawn."""
    series = []
    pow2 = [c for c in cells if c["table"] in ("2", "5") and c["len"] == str(length)]
    shapes = csvio.first_seen(r["paper_shape"] for r in paper_rows if r["table"] == "2")
    for color, app in enumerate(MODEL_APPS, 1):
        name = app_label(app)
        emu = sorted((csvio.paper_mesh(c["paper_shape"])[0], c.emu) for c in pow2 if c["app"] == app and c.emu is not None)
        pap = sorted((csvio.paper_mesh(c["paper_shape"])[0], c.paper) for c in pow2 if c["app"] == app)
        model = [(csvio.paper_mesh(s)[0], formulas.thakur_time(app, *csvio.paper_mesh(s), length, alpha, beta)) for s in shapes]
        series += [Series(emu, "using 1:2 with linespoints lw 2 pt 7 lc %d title %s" % (color, quote(name + " emulated"))),
                   Series(pap, "using 1:2 with points pt 6 ps 1.5 lc %d title %s" % (color, quote(name + " paper"))),
                   Series(model, "using 1:2 with lines dt 2 lc %d title %s" % (color, quote(name + " model")))]
    out, link = ctx.image("thakur-nodes-%d.png" % length)
    settings = ["set title " + quote("PEX and GEN against node count, %d-byte blocks (meshes 4x4 .. 16x32), delta preset"
                                     % length),
                "set logscale xy; set xlabel 'nodes'; set ylabel 'time (s)'; set xtics (16, 64, 128, 256, 512); set key top left; set grid"]
    return link if draw(ctx, out, settings, series) else None


def plots(ctx, doc, cells, paper_rows, alpha, beta):
    links = []
    for shape in csvio.first_seen(r["paper_shape"] for r in paper_rows):
        if any(c.emu is not None for c in cells if c["paper_shape"] == shape):
            link = shape_plot(ctx, shape, cells, alpha, beta)
            if link:
                links.append((shape, link))
    doc.line("Time against block length, one plot per mesh (solid: emulated; circles: the paper; "
             "dashed: the paper's model):")
    doc.line()
    doc.lines("![%s](%s)" % sl for sl in links)
    doc.line()
    for length in NODE_PLOT_LENGTHS:
        link = nodes_plot(ctx, length, cells, paper_rows, alpha, beta)
        if link:
            doc.line("![nodes %d](%s)" % (length, link))
    doc.line()


def bisection_load(links_csv, side):
    """Mean (flits, blocked cycles) of the channels crossing the middle of
    a side x side mesh (its bisection) and of those along its edges."""
    mid = [0, 0, 0]
    edge = [0, 0, 0]
    for r in csvio.read_rows(links_csv):
        n = int(r["node"])
        x, y = n % side, n // side
        dim = int(r["dim"])
        up = r["dir"] == "+"
        v, along = (x, y) if dim == 0 else (y, x)
        flits, blocked = csvio.number(r["flits"]), csvio.number(r["blocked_cycles"])
        if (up and v == side // 2 - 1) or (not up and v == side // 2):
            mid[0] += flits
            mid[1] += blocked
            mid[2] += 1
        if along == 0 or along == side - 1:
            edge[0] += flits
            edge[1] += blocked
            edge[2] += 1
    if not mid[2] or not edge[2]:
        return None
    return mid[0] / mid[2], mid[1] / mid[2], edge[0] / edge[2], edge[1] / edge[2]


def kept_cell(ctx, rows):
    """The directory of the kept copy of HEATMAP_CELL's run (kept.py): its
    summary.json and links.csv, or None. The heatmap and thakur_steps read it."""
    return keep.kept(ctx.results, "thakur", "alltoall_pex-mesh8x8-16384", rows,
                     keep.cell_match(**HEATMAP_CELL), ["links.csv"])


def heatmap(ctx, doc, where):
    """The per-link load of the kept run in `where` (kept_cell)."""
    flits, link_f = ctx.image("heatmap-pex-mesh8x8.png")
    blocked, link_b = ctx.image("heatmap-pex-mesh8x8-blocked.png")
    drawn_f = draw_heatmap(ctx, where, flits)
    drawn_b = draw_heatmap(ctx, where, blocked, "blocked")
    if not drawn_f:
        return
    doc.line("Per-link load of PEX on the 8x8 mesh, 16 KB blocks (`make heatmap RUN=...`): "
             "flits carried, and cycles blocked.")
    load = bisection_load(os.path.join(where, "links.csv"), csvio.dims_side(HEATMAP_CELL["dims"]))
    if load:
        doc.line("The channels across the middle of the mesh (its bisection) carry %.0f flits and wait "
                 "%.0f cycles on average; the channels along its edges, %.0f flits and %.0f cycles." % load)
    doc.line()
    doc.line("![heatmap flits](%s)" % link_f)
    if drawn_b:
        doc.line("![heatmap blocked](%s)" % link_b)
    doc.line()
